/**
 * The /explain upload: refusals before any work in the one error shape
 * (never a 500), hostile files read with counts, and the answer's calls and
 * period replay for the real cloud's fixture logs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { type CloudForExplain, ExplainInputError, type ExplainResult, explainUpload } from "./upload";

const dir = path.join(__dirname, "fixtures", "real-cloud");
const file = (f: string) => readFileSync(path.join(dir, f));
const cloudDoc = JSON.parse(file("cloud.json").toString("utf8"));

const deps = {
  async loadCloud(profile?: string): Promise<CloudForExplain> {
    if (profile && profile !== "stack")
      throw new ExplainInputError("profile", `profile: scheduler profile "${profile}" does not exist`);
    const config = profile ? { ...cloudDoc.config, ram_weight_multiplier: -10 } : cloudDoc.config;
    return { scenario: { ...cloudDoc, config }, flavors: cloudDoc.flavors, label: profile ?? "fixture" };
  },
};

function post(fields: Array<[string, Blob | string, string?]>): Request {
  const form = new FormData();
  for (const [k, v, name] of fields) {
    if (typeof v === "string") form.append(k, v);
    else form.append(k, v, name);
  }
  return new Request("http://localhost/api/explain", { method: "POST", body: form });
}

async function lines(res: Response): Promise<Array<Record<string, unknown>>> {
  return (await res.text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

async function result(res: Response): Promise<ExplainResult> {
  const all = await lines(res);
  const last = all[all.length - 1];
  expect(last.type, JSON.stringify(last).slice(0, 300)).toBe("result");
  return last as unknown as ExplainResult;
}

describe("refusals", () => {
  it.each<[string, () => Request, number, string]>([
    [
      "not a form",
      () =>
        new Request("http://localhost/api/explain", {
          method: "POST",
          body: "hello",
          headers: { "content-type": "text/plain" },
        }),
      415,
      "logs",
    ],
    ["no file", () => post([["mode", "explain"]]), 400, "logs"],
    [
      "an unknown mode",
      () =>
        post([
          ["logs", new Blob(["x"]), "a.log"],
          ["mode", "drop tables"],
        ]),
      400,
      "mode",
    ],
    [
      "an unknown release",
      () =>
        post([
          ["logs", new Blob(["x"]), "a.log"],
          ["nova_release", "folsom"],
        ]),
      400,
      "nova_release",
    ],
    [
      "an unknown profile for a period",
      () =>
        post([
          ["logs", new Blob(["x"]), "a.log"],
          ["mode", "period"],
          ["profile", "nope"],
        ]),
      400,
      "profile",
    ],
    [
      "a form that is not one",
      () =>
        new Request("http://localhost/api/explain", {
          method: "POST",
          body: "--x\r\nbroken",
          headers: { "content-type": "multipart/form-data; boundary=x" },
        }),
      400,
      "logs",
    ],
  ])("%s", async (_name, make, status, field) => {
    const res = await explainUpload(make(), deps);
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(Object.keys(body.fieldErrors)).toEqual([field]);
    expect(body.error).toMatch(new RegExp(`^${field}: `));
  });
});

describe("hostile files are read with counts, never a 500", () => {
  it("markup, a 1 MB line, binary and a truncated gzip beside a real log", async () => {
    const markup = `2026-01-01 00:00:00.000 1 INFO nova.filters [None req-evil u p - - default default] Filtering removed all hosts for the request with instance ID '11111111-2222-3333-4444-555555555555'. Filter results: ['<img src=x onerror=alert(1)>: (start: 6, end: 0)']\n`;
    const gz = gzipSync(file("nova-scheduler.log"));
    const res = await explainUpload(
      post([
        ["logs", new Blob([file("nova-scheduler.log")]), "nova-scheduler.log"],
        ["logs", new Blob([file("placement.log")]), "placement.log"],
        ["logs", new Blob([markup, "B".repeat((1 << 20) + 1), "\n"]), "markup.log"],
        ["logs", new Blob([new Uint8Array(5000)]), "core.bin"],
        ["logs", new Blob([gz.subarray(0, gz.length >> 1)]), "rotated.log.gz"],
      ]),
      deps,
    );
    expect(res.status).toBe(200);
    const r = await result(res);
    expect(r.stats.tooLong).toBe(1);
    expect(r.stats.refused.map((x) => [x.file, x.reason.split(":")[0]])).toEqual([
      ["core.bin", "not a text log (binary data)"],
      ["rotated.log.gz", "truncated gzip"],
    ]);
    const evil = r.calls.find((c) => c.requestId === "req-evil")!;
    // The markup is no filter name: nothing of it is read as one, and the call still says NoValidHost.
    expect(evil.logged.filters).toEqual([]);
    expect(evil.logged.error).toBe("NoValidHost");
    expect(r.calls.filter((c) => c.requestId !== "req-evil").every((c) => c.agree)).toBe(true);
  });
});

describe("a period replayed under another profile", () => {
  it("says where each boot would have gone beside where it went", async () => {
    const res = await explainUpload(
      post([
        ["logs", new Blob([file("nova-scheduler.log")]), "nova-scheduler.log"],
        ["logs", new Blob([file("placement.log")]), "placement.log"],
        ["mode", "period"],
        ["profile", "stack"],
      ]),
      deps,
    );
    const r = await result(res);
    expect(r.period?.profile).toBe("stack");
    expect(r.period?.moved).toBe(3);
    expect(r.period?.steps.map((s) => s.real.hosts.length)).toEqual([1, 2, 0, 0]);
  });
});
