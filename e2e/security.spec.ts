/**
 * The server under attack, as an attacker would try it against a running
 * `next start`: a cross-site import from a page on another port, an open
 * redirect after sign-in, hostile numbers, escapes and JSON, a gzip bomb
 * while another user works, writes without a version, and a fuzz run of
 * malformed query strings, path ids and action bodies that must never get a
 * 500. Its own server on a copy of the e2e database: imports replace the
 * cloud there, the other specs' cloud is untouched.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, expect, request, test } from "@playwright/test";
import { mulberry32 } from "../lib/scheduler/random";
import { gzipBomb } from "../lib/testing/tar-bomb";
import { E2E_PASSWORD, E2E_USERS, ROOT, storageStateFile } from "./auth";
import { freePort, queryFile, serveCopy } from "./server";

const FIXTURES = path.join(ROOT, "lib", "openstack", "fixtures");

let tmp: string;
let dbFile: string;
let server: ChildProcess | undefined;
let base: string;
let admin: APIRequestContext;
let viewer: APIRequestContext;
let bundle: Buffer;

function query<T>(sql: string, ...params: unknown[]): T[] {
  return queryFile<T>(dbFile, sql, ...params);
}

/** What a refused request must leave as it was: the cloud and the audit trail. */
function footprint(): string {
  return JSON.stringify(
    ["ComputeHost", "Aggregate", "AggregateMetadata", "Flavor", "Image", "ImageProperty", "AuditEntry"].map(
      (t) => query<{ n: number }>(`SELECT count(*) AS n FROM "${t}"`)[0].n,
    ),
  );
}

/**
 * The id of a server action by its exported name, from the build's manifest
 * (what a browser sends as `Next-Action`).
 */
function actionId(name: string): string {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(ROOT, ".next", "server", "server-reference-manifest.json"), "utf8"),
  ) as { node: Record<string, { exportedName?: string; filename?: string }> };
  const found = Object.entries(manifest.node).find(([, a]) => a.exportedName === name);
  if (!found) throw new Error(`no server action ${name} in the build`);
  return found[0];
}

/**
 * A server action called as React calls one from a form: (previous state,
 * FormData), the form's fields first and the root row last (a FormData keeps
 * that order; an object would put the key "0" first).
 */
function actionForm(fields: Record<string, string>): { multipart: FormData } {
  const prefixed = Object.fromEntries(Object.entries(fields).map(([k, v]) => [`_1_${k}`, v]));
  return { multipart: multipartOf(prefixed, '[null,"$K1"]') };
}

/** Fields in their order, then the root row "0" when given. */
function multipartOf(fields: Record<string, string>, root?: string): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (root !== undefined) form.append("0", root);
  return form;
}

async function callAction(
  ctx: APIRequestContext,
  name: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return ctx.post(`${base}/`, {
    headers: { "Next-Action": actionId(name), Accept: "text/x-component", ...headers },
    ...actionForm(fields),
  });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-security-e2e-"));
  ({ dbFile, base, server } = await serveCopy(tmp, "security"));
  // the e2e users' sessions are in the copied database; cookies do not depend on the port
  admin = await request.newContext({ baseURL: base, storageState: storageStateFile("admin") });
  viewer = await request.newContext({ baseURL: base, storageState: storageStateFile("viewer") });
  const out = path.join(tmp, "modern.tar.gz");
  execFileSync("tar", ["-czf", out, "-C", FIXTURES, "modern"]);
  bundle = fs.readFileSync(out);
});

test.afterAll(async () => {
  await admin?.dispose();
  await viewer?.dispose();
  if (server?.pid) server.kill("SIGTERM");
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test("every answer carries the security headers", async () => {
  for (const url of ["/sign-in", "/hosts", "/api/hosts", "/api/runs/abc", "/nowhere"]) {
    const r = await admin.get(url, { maxRedirects: 0 });
    const h = r.headers();
    expect(h["content-security-policy"], url).toContain("frame-ancestors 'none'");
    expect(h["content-security-policy"], url).toContain("default-src 'self'");
    expect(h["x-content-type-options"], url).toBe("nosniff");
    expect(h["referrer-policy"], url).toBe("same-origin");
    expect(h["x-frame-options"], url).toBe("DENY");
  }
});

test("a page on another port cannot replace the cloud with the admin's cookie", async ({ browser }) => {
  test.setTimeout(90_000);
  const preview = await admin.post(`/api/import/openstack?mode=preview`, { data: bundle });
  expect(preview.status()).toBe(200);
  const { sha256 } = (await preview.json()) as { sha256: string };
  const before = footprint();

  // the attacker's page: same host, another port, posts the bundle with the admin's cookie
  const evil = http.createServer((req, res) => {
    if (req.url === "/bundle.tar.gz") {
      res.writeHead(200, { "content-type": "application/gzip" }).end(bundle);
      return;
    }
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>cute cats</title><script>
      fetch("/bundle.tar.gz").then((r) => r.blob()).then((b) =>
        fetch(${JSON.stringify(`${base}/api/import/openstack?mode=apply&sha256=${sha256}`)},
          { method: "POST", mode: "no-cors", credentials: "include", body: b })
      ).then(() => { document.title = "sent"; });
    </script>`);
  });
  const evilPort = await freePort();
  await new Promise<void>((r) => evil.listen(evilPort, "127.0.0.1", r));
  try {
    const ctx = await browser.newContext({ storageState: storageStateFile("admin") });
    const page = await ctx.newPage();
    const answered = page.waitForResponse((r) => r.url().includes("/api/import/openstack"));
    await page.goto(`http://127.0.0.1:${evilPort}/`);
    const r = await answered;
    expect(r.status()).toBe(403);
    await expect(page).toHaveTitle("sent");
    await ctx.close();
  } finally {
    evil.close();
  }
  expect(footprint()).toBe(before);

  // a server action with a foreign Origin: 403 naming it, not a 500
  const action = await callAction(
    admin,
    "saveAggregateMetadata",
    { id: "1", key: "evil", value: "1", version: "1" },
    { Origin: `http://127.0.0.1:${evilPort}`, "Sec-Fetch-Site": "same-site" },
  );
  expect(action.status()).toBe(403);
  expect(await action.text()).toMatch(/cross-site request refused/);
  expect(footprint()).toBe(before);
});

test("after sign-in, next with a tab or a newline never leaves the site and never fails", async ({ browser }) => {
  test.setTimeout(90_000);
  for (const next of ["/%09/evil.example/x", "/%0A/evil.example/x", "/%0D%0A/evil.example/x", "//evil.example/x"]) {
    // signed out: the project's admin cookie is not this test's
    const ctx = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await ctx.newPage();
    await page.goto(`${base}/sign-in?next=${next}`);
    const f = page.getByRole("form", { name: "Sign in" });
    await f.getByLabel("Name").fill(E2E_USERS.viewer.name);
    await f.getByLabel("Password").fill(E2E_PASSWORD);
    await f.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(`Signed in as ${E2E_USERS.viewer.name}`)).toBeVisible();
    expect(new URL(page.url()).origin, next).toBe(base);
    await ctx.close();
  }
});

test("a whole-cloud import is in the audit trail: who, the file's sha256, what it brought", async () => {
  test.setTimeout(90_000);
  const preview = await admin.post(`/api/import/openstack?mode=preview`, { data: bundle });
  const { sha256 } = (await preview.json()) as { sha256: string };
  const applied = await admin.post(`/api/import/openstack?mode=apply&sha256=${sha256}`, { data: bundle });
  expect(applied.status()).toBe(200);
  const [entry] = query<{ userName: string; role: string; action: string; after: string }>(
    `SELECT userName, role, action, after FROM "AuditEntry" WHERE entity = 'cloud' ORDER BY id DESC LIMIT 1`,
  );
  expect(entry).toMatchObject({ userName: E2E_USERS.admin.name, role: "admin", action: "cloud.import-openstack" });
  expect(JSON.parse(entry.after)).toMatchObject({ sha256, bytes: bundle.length, summary: { hosts: 3 } });
});

const imageId = () => String(query<{ id: number }>(`SELECT id FROM "Image" LIMIT 1`)[0].id);

test("what gave a 500 is a 4xx naming the field, and nothing is written", async () => {
  const before = footprint();
  const huge = "99999999999999999999";
  const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  const cases: [string, () => ReturnType<APIRequestContext["get"]>, number, RegExp][] = [
    ["a run id past 2^63", () => admin.get(`/api/runs/${huge}`), 400, /id: must be a whole number from 1/],
    ["a cursor past 2^63", () => admin.get(`/runs?before=${huge}`), 400, /before: must be a whole number from 1 to/],
    ["a page number past 2^63", () => admin.get(`/hosts?page=${huge}`), 400, /page: must be a whole number from 1 to/],
    ["a run to compare that is not a number", () => admin.get("/runs/compare?a=1&b=x"), 400, /b: must be a whole/],
    ["a run to start from past 2^63", () => admin.get(`/schedule?from=${huge}`), 400, /from: must be a whole/],
    ["a member page of 0", () => admin.get("/aggregates/x?hpage=0"), 400, /hpage: must be a whole number/],
    ["a run page past 2^63", () => admin.get(`/runs/${huge}`), 404, /No page has this address/],
    ["a bad %-escape in a path", () => admin.get("/hosts/%E0%A4%A"), 400, /malformed %-escape/],
    ["an index past 2^63", () => admin.get(`/api/runs/1/hosts?index=${huge}`), 400, /index: must be a whole number/],
    [
      "a delete with an id past 2^63",
      () => callAction(admin, "deleteFlavor", { id: huge, version: "1" }),
      200,
      /id: must be a record id/,
    ],
    [
      "JSON 100,000 deep in an image property",
      () => callAction(admin, "saveImageProperty", { id: imageId(), key: "x", value: deep, json: "on", version: "1" }),
      200,
      /value: is larger than 65535 bytes/,
    ],
    [
      "JSON 10,000 deep in an image property",
      () =>
        callAction(admin, "saveImageProperty", {
          id: imageId(),
          key: "x",
          value: `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
          json: "on",
          version: "1",
        }),
      200,
      /value: nests deeper than 64 levels/,
    ],
    [
      "an action body over 1 MB",
      () => callAction(admin, "saveAggregateMetadata", { id: "1", key: "k", value: "x".repeat(1_100_000) }),
      413,
      /larger than 1048576 bytes/,
    ],
    [
      "an action body that is not JSON",
      () =>
        admin.post("/", {
          headers: { "Next-Action": actionId("saveAggregateMetadata"), "content-type": "text/plain" },
          data: "{not json",
        }),
      400,
      /action body: part 0 is not JSON/,
    ],
    [
      "an action body 100,000 deep",
      () =>
        admin.post("/", {
          headers: { "Next-Action": actionId("saveAggregateMetadata"), "content-type": "text/plain" },
          data: deep,
        }),
      400,
      /nests deeper than 64 levels/,
    ],
    [
      "a JSON API body 100,000 deep",
      () => admin.post("/api/capacity", { headers: { "content-type": "application/json" }, data: deep }),
      400,
      /nests deeper than 64 levels/,
    ],
    [
      "10 MB of zero bytes as a bundle",
      () => admin.post("/api/import/openstack?mode=preview", { data: Buffer.alloc(10 * 1024 * 1024) }),
      400,
      /contains none of the bundle's files/,
    ],
  ];
  for (const [what, send, status, message] of cases) {
    const r = await send();
    expect(r.status(), what).toBe(status);
    expect(await r.text(), what).toMatch(message);
  }
  expect(footprint()).toBe(before);
});

test("a save without the version the form was opened at is refused; nothing is written", async () => {
  const agg = query<{ id: number; version: number }>(`SELECT id, version FROM "Aggregate" LIMIT 1`)[0];
  const before = footprint();
  const r = await callAction(admin, "saveAggregateMetadata", { id: String(agg.id), key: "lost", value: "1" });
  expect(r.status()).toBe(200);
  expect(await r.text()).toMatch(/version: is required/);
  expect(footprint()).toBe(before);
  const ok = await callAction(admin, "saveAggregateMetadata", {
    id: String(agg.id),
    key: "kept",
    value: "1",
    version: String(agg.version),
  });
  expect(await ok.text()).not.toMatch(/version: is required/);
  expect(query(`SELECT 1 FROM "AggregateMetadata" WHERE key = 'kept'`)).toHaveLength(1);
});

test("1 GB gzip bombs are refused in under 2 s while a viewer is answered in under 200 ms", async () => {
  test.setTimeout(120_000);
  const GB = 1024 * 1024 * 1024;
  const bombs = [
    ["one 1 GB file", gzipBomb([{ name: "b/hypervisor-show.json", size: GB }])],
    [
      "four 256 MB files that are not the bundle's",
      gzipBomb([0, 1, 2, 3].map((i) => ({ name: `b/junk-${i}.bin`, size: GB / 4 - 1024 }))),
    ],
    [
      "five 200 MB bundle files",
      gzipBomb(
        ["hypervisor-show.json", "server-list.json", "flavor-list.json", "image-show.json", "aggregate-show.json"].map(
          (name) => ({ name: `b/${name}`, size: 200 * 1024 * 1024 }),
        ),
      ),
    ],
  ] as const;
  const before = footprint();
  for (const [what, body] of bombs) {
    expect(body.length, what).toBeLessThan(2 * 1024 * 1024);
    let bombDone = false;
    const viewerTimes: number[] = [];
    const t0 = performance.now();
    const upload = admin.post("/api/import/openstack?mode=preview", { data: body }).then((r) => {
      bombDone = true;
      return r;
    });
    // another user's requests meanwhile
    while (!bombDone) {
      const v0 = performance.now();
      const r = await viewer.get("/api/hosts?limit=5");
      expect(r.status()).toBe(200);
      viewerTimes.push(performance.now() - v0);
    }
    const r = await upload;
    const ms = performance.now() - t0;
    expect(r.status(), what).toBeGreaterThanOrEqual(400);
    expect(r.status(), what).toBeLessThan(500);
    expect(await r.text(), what).toMatch(/at most|more than \d+ times its size/);
    expect(ms, `${what}: refused after ${ms.toFixed(0)} ms`).toBeLessThan(2000);
    expect(Math.max(...viewerTimes), `${what}: viewer waited ${viewerTimes.map((t) => t.toFixed(0))} ms`).toBeLessThan(
      200,
    );
  }
  expect(footprint()).toBe(before);
});

const NASTY = [
  "99999999999999999999",
  "9223372036854775808",
  "2147483648",
  "-1",
  "0",
  "1e400",
  "1e3",
  "0x10",
  "1.5",
  "NaN",
  "Infinity",
  "%",
  "%zz",
  "%E0%A4%A",
  "%00",
  "%0A",
  "%0D%0A",
  "%09",
  "..%2F..%2Fetc",
  "%2e%2e",
  "[]",
  "{}",
  "%7B%22a%22%3A1%7D",
  "a".repeat(3000),
  "%F0%9F%98%80",
  "'%20OR%201=1",
  "%3Cscript%3E",
  "",
  "+",
  "%C0%AF",
];

test("fuzz: 2,100 malformed query strings, path ids and action bodies get no 500", async () => {
  test.setTimeout(180_000);
  const seed = 24;
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const nasty = () => pick(NASTY);
  const queries = [
    "/api/runs/1/hosts?view={v}&offset={v}&limit={v}&index={v}&q={v}",
    "/api/hosts?notIn={v}&limit={v}&q={v}",
    "/api/runs/1/sensitivity?index={v}&key={v}&value={v}",
    "/api/runs/1/whatif?host={v}&index={v}&fate={v}",
    "/api/capacity?x={v}",
    "/audit/export?user={v}&entity={v}&from={v}&to={v}",
    "/runs?before={v}",
    "/runs/compare?a={v}&b={v}",
    "/schedule?from={v}",
    "/audit?page={v}&from={v}",
    "/instances?page={v}&q={v}",
  ];
  const paths = [
    "/api/runs/{v}",
    "/api/runs/{v}/hosts",
    "/api/runs/{v}/snapshot",
    "/api/profiles/{v}/nova-conf",
    "/runs/{v}",
    "/flavors/{v}",
    "/hosts/{v}",
    "/aggregates/{v}",
  ];
  const actions = [
    "saveAggregateMetadata",
    "deleteFlavor",
    "saveImageProperty",
    "activateProfile",
    "commitRunAction",
    "rerunAction",
  ].map(actionId);
  const bodies: (() => { headers: Record<string, string>; data?: string; multipart?: FormData })[] = [
    () => ({ headers: { "content-type": "text/plain" }, data: nasty() }),
    () => ({ headers: { "content-type": "text/plain" }, data: `[${JSON.stringify(nasty())}]` }),
    () => ({ headers: { "content-type": "text/plain" }, data: `["$${Math.floor(rand() * 50)}"]` }),
    () => ({ headers: { "content-type": "text/plain" }, data: `["$n${nasty()}"]` }),
    () => ({ headers: { "content-type": "text/plain" }, data: `[${"[".repeat(200)}${"]".repeat(200)}]` }),
    () => ({
      headers: { "content-type": "text/plain" },
      data: `[${JSON.stringify(nasty())},${JSON.stringify(nasty())}]`,
    }),
    () => ({ headers: { "content-type": "application/json" }, data: `{"id":"${nasty()}"}` }),
    () => ({ headers: {}, multipart: multipartOf({ _1_id: nasty() }, nasty()) }),
    () => ({ headers: {}, multipart: multipartOf({ _1_id: nasty(), _1_version: nasty() }, '[null,"$K1"]') }),
    () => ({ headers: {}, multipart: multipartOf({}, `["$@${Math.floor(rand() * 9)}"]`) }),
    () => ({ headers: {}, multipart: multipartOf({ "2": nasty() }, '["$Q2"]') }),
    () => ({
      headers: {},
      multipart: multipartOf(
        { _1_id: "1", _1_key: nasty(), _1_value: nasty(), _1_json: "on", _1_version: "1" },
        '[null,"$K1"]',
      ),
    }),
  ];
  const fill = (template: string) => template.replace(/\{v\}/g, () => nasty());
  const failures: string[] = [];
  let sent = 0;
  const counts = { query: 0, path: 0, action: 0 };
  const jobs: (() => Promise<void>)[] = [];
  const apiQueries = queries.filter((q) => q.startsWith("/api/") || q.startsWith("/audit/export"));
  const apiPaths = paths.filter((p) => p.startsWith("/api/"));
  for (let i = 0; i < 700; i++) {
    // mostly the machine-read routes (cheap), every fourth a page (rendered)
    const page = i % 4 === 0;
    const url = fill(pick(page ? queries : apiQueries));
    jobs.push(async () => {
      const r = await viewer.get(url, { maxRedirects: 0 });
      counts.query++;
      if (r.status() >= 500) failures.push(`${r.status()} GET ${url.slice(0, 200)}`);
    });
    const p = fill(pick(page ? paths : apiPaths));
    jobs.push(async () => {
      const r = await viewer.get(p, { maxRedirects: 0 });
      counts.path++;
      if (r.status() >= 500) failures.push(`${r.status()} GET ${p.slice(0, 200)}`);
    });
    const id = pick(actions);
    const body = pick(bodies)();
    const who = rand() < 0.5 ? admin : viewer;
    jobs.push(async () => {
      const r = await who.post("/", {
        headers: { "Next-Action": id, Accept: "text/x-component", ...body.headers },
        ...(body.multipart ? { multipart: body.multipart } : { data: body.data }),
        maxRedirects: 0,
      });
      counts.action++;
      if (r.status() >= 500)
        failures.push(
          `${r.status()} POST action ${JSON.stringify(body).slice(0, 200)}: ${(await r.text()).slice(0, 120)}`,
        );
    });
  }
  const t0 = performance.now();
  const workers = Array.from({ length: 8 }, async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      await job();
      sent++;
    }
  });
  await Promise.all(workers);
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `fuzz (seed ${seed}): ${sent} requests in ${secs.toFixed(1)} s, ${JSON.stringify(counts)}, ${failures.length} 5xx`,
  );
  expect(sent).toBeGreaterThanOrEqual(2000);
  expect(failures, `seed ${seed}`).toEqual([]);
});
