import { describe, expect, it } from "vitest";
import { actionBodyRefusal, crossSiteRefusal, pageQueryRefusal, pathRefusal } from "./request-guard";

const h = (o: Record<string, string>) => new Headers(o);

describe("crossSiteRefusal: state changes only from this site's pages", () => {
  it.each([
    [
      "a same-origin browser request",
      { host: "sched.example:3000", origin: "http://sched.example:3000", "sec-fetch-site": "same-origin" },
    ],
    [
      "behind a TLS proxy (https origin, forwarded host)",
      { host: "127.0.0.1:3000", "x-forwarded-host": "sched.example", origin: "https://sched.example" },
    ],
    ["a script without browser headers", { host: "sched.example:3000" }],
    ["a typed URL (Sec-Fetch-Site none)", { host: "sched.example:3000", "sec-fetch-site": "none" }],
  ])("lets %s through", (_w, headers) => {
    expect(crossSiteRefusal(h(headers))).toBeNull();
  });

  it.each([
    [
      "another port of the same host",
      { host: "127.0.0.1:3000", origin: "http://127.0.0.1:4000" },
      /Origin "http:\/\/127.0.0.1:4000" is not this site/,
    ],
    ["another site", { host: "sched.example", origin: "https://evil.example" }, /Origin "https:\/\/evil.example"/],
    ["an opaque origin", { host: "sched.example", origin: "null" }, /Origin "null"/],
    [
      "Sec-Fetch-Site same-site",
      { host: "sched.example", "sec-fetch-site": "same-site" },
      /Sec-Fetch-Site is "same-site"/,
    ],
    [
      "Sec-Fetch-Site cross-site",
      { host: "sched.example", "sec-fetch-site": "cross-site", origin: "http://sched.example" },
      /cross-site/,
    ],
  ])("refuses %s with 403 naming why", (_w, headers, message) => {
    const r = crossSiteRefusal(h(headers));
    expect(r?.status).toBe(403);
    expect(r?.error).toMatch(message);
  });
});

describe("path escapes", () => {
  it.each(["/hosts/%E0%A4%A", "/runs/%zz", "/api/runs/%"])("refuses the path %s", (p) => {
    expect(pathRefusal(p)).toMatchObject({ status: 400, error: expect.stringMatching(/malformed %-escape/) });
  });
  it.each(["/hosts/cmp%2D1", "/aggregates/a%20b", "/"])("accepts the path %s", (p) => {
    expect(pathRefusal(p)).toBeNull();
  });
});

describe("pageQueryRefusal: a page's ids, cursors and page numbers are bounded whole numbers", () => {
  it.each([
    ["/runs", "before=99999999999999999999", "before: must be a whole number from 1 to 2147483647"],
    ["/runs", "before=0", "before: must be a whole number from 1 to 2147483647"],
    ["/runs/", "before=1e3", "before: must be a whole number from 1 to 2147483647"],
    ["/runs/compare", "a=3&b=x", "b: must be a whole number from 1 to 2147483647"],
    ["/schedule", "from=-1", "from: must be a whole number from 1 to 2147483647"],
    ["/hosts", "page=2&page=2147483648", "page: must be a whole number from 1 to 2147483647"],
    ["/instances", "page=%20", "page: must be a whole number from 1 to 2147483647"],
    ["/audit", "page=1.5", "page: must be a whole number from 1 to 2147483647"],
    ["/aggregates/gpu%20racks", "hpage=two", "hpage: must be a whole number from 1 to 2147483647"],
  ])("%s?%s is a 400 naming the parameter and rule", (path, query, error) => {
    expect(pageQueryRefusal(path, new URLSearchParams(query))).toEqual({ status: 400, error });
  });

  it.each([
    ["/runs", "before=2147483647"],
    ["/runs", "before="],
    ["/runs/compare", "a=&b="],
    ["/hosts", "page=3&q=x&size=100"],
    ["/aggregates", "hpage=x"],
    ["/runs/12", "before=x"],
    ["/flavors", "page=x"],
  ])("%s?%s is accepted", (path, query) => {
    expect(pageQueryRefusal(path, new URLSearchParams(query))).toBeNull();
  });
});

describe("actionBodyRefusal: bodies Next.js would fail on are refused first", () => {
  const post = (body: BodyInit, type: string, extra: Record<string, string> = {}) =>
    new Request("http://x/", { method: "POST", body, headers: { "content-type": type, ...extra } });
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };

  it.each([
    [
      "a form call",
      () => new Request("http://x/", { method: "POST", body: form({ "0": '["$undefined","$K1"]', "1_id": "3" }) }),
    ],
    ["plain arguments", () => post("[7]", "text/plain;charset=UTF-8")],
    [
      "a browser's multipart (mixed-case boundary)",
      () =>
        post(
          '--AbC\r\nContent-Disposition: form-data; name="0"\r\n\r\n[1]\r\n--AbC--\r\n',
          "multipart/form-data; boundary=AbC",
        ),
    ],
    ["an escaped dollar string", () => post('["$$not a reference"]', "text/plain")],
    [
      "a reference to a part sent",
      () => new Request("http://x/", { method: "POST", body: form({ "0": '["$1"]', "1": "{}" }) }),
    ],
  ])("accepts %s", async (_w, req) => {
    expect(await actionBodyRefusal(req())).toBeNull();
  });

  it.each([
    ["not JSON", () => post("{nope", "text/plain"), 400, /part 0 is not JSON/],
    [
      "100,000 deep",
      () => post(`${"[".repeat(100_000)}${"]".repeat(100_000)}`, "text/plain"),
      400,
      /nests deeper than 64/,
    ],
    ["over 1 MB", () => post("x".repeat(1_100_000), "text/plain"), 413, /larger than 1048576 bytes/],
    ["over 1 MB declared", () => post("[]", "text/plain", { "content-length": "5000000" }), 413, /larger than/],
    ["a dangling reference", () => post('["$5"]', "text/plain"), 400, /reference "\$5" names no part/],
    ["a bad BigInt", () => post('["$nabc"]', "text/plain"), 400, /is not a whole number/],
    ["bad multipart", () => post("garbage", "multipart/form-data; boundary=zzz"), 400, /not valid multipart/],
    [
      "a form whose root is not JSON",
      () => new Request("http://x/", { method: "POST", body: form({ "0": "{" }) }),
      400,
      /part 0 is not JSON/,
    ],
  ])("refuses %s", async (_w, req, status, message) => {
    const r = await actionBodyRefusal(req());
    expect(r?.status).toBe(status);
    expect(r?.error).toMatch(message);
  });
});
