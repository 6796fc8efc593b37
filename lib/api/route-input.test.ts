import { describe, expect, it } from "vitest";
import { instanceIndex, jsonBody, routeParams, runIdParam } from "./route-input";

const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function answer(r: unknown): Promise<{ status: number; body: unknown }> {
  if (!(r instanceof Response)) throw new Error(`expected a Response, got ${JSON.stringify(r)}`);
  return { status: r.status, body: await r.json() };
}

describe("runIdParam", () => {
  it.each([
    ["7", 7],
    ["120000", 120000],
  ])("reads run id %s", async (raw, id) => {
    expect(await runIdParam(params(raw))).toBe(id);
  });

  it.each(["0", "-3", "1.5", "abc", "", "1e400", "99999999999999999999", "2147483648", "1e3", " 7"])(
    "refuses run id %j with 400 naming the rule",
    async (raw) => {
      expect(await answer(await runIdParam(params(raw)))).toEqual({
        status: 400,
        body: { error: "id: must be a whole number from 1 to 2147483647" },
      });
    },
  );
});

describe("routeParams: the instance index", () => {
  const read = (query: string) => routeParams({ index: instanceIndex() }, new URLSearchParams(query));
  it.each([
    ["", 0],
    ["index=0", 0],
    ["index=3", 3],
  ])("reads %j as instance %d", (query, index) => {
    expect(read(query)).toEqual({ index });
  });

  it.each(["index=-1", "index=0.5", "index=two", "index=99999999999999999999"])(
    "refuses %j with 400 naming index",
    async (query) => {
      expect(await answer(read(query))).toEqual({
        status: 400,
        body: { error: "index: must be a whole number from 0 to 100000" },
      });
    },
  );
});

describe("jsonBody", () => {
  const post = (body: string) => new Request("http://localhost/api/capacity", { method: "POST", body });

  it.each([
    ['{"limit":5}', { limit: 5 }],
    ["[1,2]", [1, 2]],
  ])("parses %s", async (text, body) => {
    expect(await jsonBody(post(text))).toEqual({ body });
  });

  it.each(["", "{limit:5}", "not json"])("refuses %j with a form error", async (text) => {
    expect(await answer(await jsonBody(post(text)))).toEqual({
      status: 400,
      body: { error: "the request body must be JSON", fieldErrors: { _form: ["the request body must be JSON"] } },
    });
  });
});
