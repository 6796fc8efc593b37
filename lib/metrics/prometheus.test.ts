/**
 * A real Prometheus (Debian's package; scripts/lib/prometheus.mjs installs
 * it when missing and root) scrapes /metrics with a scrape token from a
 * server answering with the route's own handler on a seeded demo cloud;
 * `promtool check metrics` passes on the body; every query of the Grafana
 * dashboard (docs/grafana/schedscope-capacity.json) returns data through
 * Prometheus' HTTP API. Refusals: no token, a revoked one, a session cookie
 * only → 401. (The route behind proxy.ts, with a real session cookie, is
 * e2e/metrics.spec.ts.)
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addScrapeToken, revokeScrapeToken } from "@/lib/auth/scrape-tokens";
import { bumpCloudRevision } from "@/lib/cloud/revision";
import { seedDemoCloud } from "@/lib/demo/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { checkMetrics, query, startPrometheus, targets } from "../../scripts/lib/prometheus.mjs";
import { clearMetricsCache, refreshMetrics } from "./cache";
import { handleMetricsRequest } from "./handler";
import { type AllocationPoint, DEFAULT_PROVIDERS, setMetricsProviders } from "./providers";

const DASHBOARD = path.resolve(__dirname, "../../docs/grafana/schedscope-capacity.json");
const DAY = 86_400_000;

let t: TestDatabase;
let server: http.Server;
let base = "";
let token = "";
let revoked = "";
let prometheus: Awaited<ReturnType<typeof startPrometheus>> | null = null;

/** 90 daily snapshots of allocation growing 1% of the AZ's capacity a day (the history helper's shape). */
function history(zones: string[]): AllocationPoint[] {
  const now = Date.now();
  const out: AllocationPoint[] = [];
  for (const az of zones)
    for (let d = 89; d >= 0; d--)
      out.push({
        at: new Date(now - d * DAY),
        az,
        aggregate: "",
        allocated: { VCPU: 400 - 2 * d, MEMORY_MB: 800_000 - 4096 * d, DISK_GB: 20_000 - 40 * d },
      });
  return out;
}

const get = (headers: Record<string, string> = {}) => fetch(`${base}/metrics`, { headers });

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemoCloud(t.prisma, { hosts: 30 });
  token = await addScrapeToken(t.prisma, "prometheus");
  revoked = await addScrapeToken(t.prisma, "old-prometheus");
  await revokeScrapeToken(t.prisma, "old-prometheus");
  const zones = (await t.prisma.aggregate.findMany({ where: { availabilityZone: { not: null } } }))
    .map((a) => a.availabilityZone!)
    .filter((z, i, all) => all.indexOf(z) === i);
  // what the history helper will provide; a test stand-in, never shown to users
  setMetricsProviders({ snapshotSeries: async () => history(zones) });
  server = http.createServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const r = await handleMetricsRequest(t.prisma, new Request(`http://127.0.0.1${req.url}`, { headers }));
    res.writeHead(r.status, Object.fromEntries(r.headers));
    res.end(await r.text());
  });
  // a recompute takes longer than Node's default 5 s keep-alive: keep the client's connection open
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // computed once, as after a sync; scrapes then answer from memory
  await refreshMetrics(t.prisma);
}, 600_000);

afterAll(async () => {
  prometheus?.stop();
  setMetricsProviders(DEFAULT_PROVIDERS);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (t) clearMetricsCache(t.prisma);
  await t?.cleanup();
});

describe("/metrics scrape auth", () => {
  it.each<[string, () => Record<string, string>]>([
    ["no token", () => ({})],
    ["a revoked token", () => ({ authorization: `Bearer ${revoked}` })],
    ["an unknown token", () => ({ authorization: "Bearer sst_not-a-token" })],
    ["a session cookie only", () => ({ cookie: "schedscope.session_token=abc.def" })],
    ["Basic auth", () => ({ authorization: "Basic cHJvbWV0aGV1czpzZWNyZXQ=" })],
  ])("refuses %s with 401 and no metrics", async (_label, headers) => {
    const h = headers();
    const r = await get(h);
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const body = await r.text();
    expect(body).not.toMatch(/openstack_/);
    expect(JSON.parse(body).error).toMatch(/^Authorization: /);
  });

  it("answers a live token with the exposition format", async () => {
    const r = await get({ authorization: `Bearer ${token}` });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await r.text();
    expect(text).toMatch(/^openstack_free_capacity_by_flavor_total\{flavor_name="m1\.large",public="True"\} \d+$/m);
    expect(text).toMatch(/^schedscope_metrics_complete 1$/m);
  });

  it("the token is stored hashed, and adding and revoking are in the audit trail", async () => {
    const rows = await t.prisma.scrapeToken.findMany();
    for (const r of rows) {
      expect(r.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.tokenHash).not.toContain(token);
    }
    const audit = await t.prisma.auditEntry.findMany({ where: { entity: "scrape-token" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => `${a.action} ${a.entityKey}`)).toEqual([
      "scrape-token.add prometheus",
      "scrape-token.add old-prometheus",
      "scrape-token.revoke old-prometheus",
    ]);
    expect(JSON.stringify(audit)).not.toContain(token);
  });
});

describe("a real Prometheus scrapes it", () => {
  it("promtool check metrics passes on the body", async () => {
    const text = await (await get({ authorization: `Bearer ${token}` })).text();
    const r = checkMetrics(text);
    expect(r.output).toBe("");
    expect(r.ok).toBe(true);
  });

  it("after a change the scrape answers at once from the previous computation and says it is stale", async () => {
    await t.prisma.$transaction((tx) => bumpCloudRevision(tx));
    const text = await (await get({ authorization: `Bearer ${token}` })).text();
    expect(text).toMatch(/^schedscope_metrics_stale 1$/m);
    expect(text).toMatch(/^schedscope_metrics_age_seconds [\d.]+$/m);
    await refreshMetrics(t.prisma);
    expect(await (await get({ authorization: `Bearer ${token}` })).text()).toMatch(/^schedscope_metrics_stale 0$/m);
  }, 300_000);

  it("scrapes with the bearer token, and every dashboard query returns data", async () => {
    prometheus = await startPrometheus({ target: base.replace("http://", ""), token });
    const url = prometheus.url;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await query(url, 'up{job="schedscope"}');
      if (up.length && up[0].value[1] === "1") break;
      if (Date.now() > deadline)
        throw new Error(
          `no successful scrape: ${JSON.stringify(await targets(url))}\n${prometheus.logs().slice(-1500)}`,
        );
      await new Promise((r) => setTimeout(r, 500));
    }
    const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, "utf8"));
    const exprs: Array<{ panel: string; expr: string }> = dashboard.panels.flatMap(
      (p: { title: string; targets: Array<{ expr: string }> }) =>
        p.targets.map((x) => ({ panel: p.title, expr: x.expr })),
    );
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    const empty: string[] = [];
    for (const { panel, expr } of exprs) if (!(await query(url, expr)).length) empty.push(`${panel}: ${expr}`);
    expect(empty).toEqual([]);
    // the exact count reached Prometheus unchanged
    const total = await query(url, 'openstack_free_capacity_by_flavor_total{flavor_name="m1.large"}');
    const perHv = await query(url, 'sum(openstack_free_capacity_hypervisor_by_flavor{flavor_name="m1.large"})');
    expect(Number(perHv[0].value[1])).toBe(Number(total[0].value[1]));
  }, 120_000);
});
