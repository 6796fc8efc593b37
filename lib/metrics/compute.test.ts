/**
 * openstack_free_capacity_by_flavor_total equals `npm run -s capacity` for
 * that flavor alone, and the per-hypervisor series sum to it: on the demo
 * cloud (seeded, exported as `npm run -s scenario -- export` does) and on
 * three generated clouds with NUMA cells, PCI pools and a server group (the
 * conformance generator's scenarios, answered by Nova's reference).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoCloud } from "@/lib/demo/seed";
import { DEMO_FLAVORS } from "@/lib/demo/cloud";
import { exportCloud } from "@/lib/cloud/scenario-io";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { computeCapacityMetrics, type MetricsCloud } from "./compute";
import { renderSnapshot } from "./exposition";

const FIXTURES = path.resolve(__dirname, "../scheduler/conformance/fixtures");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-metrics-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The CLI's count for each flavor alone: one scenario file per flavor, one CLI run for all. */
function cliCounts(
  cloud: MetricsCloud,
  label: string,
  limit: number,
): Map<string, { count: number; perHost: Record<string, number> }> {
  const { flavors = [], images: _i, instances: _n, request: _r, ...base } = cloud;
  const files = flavors.map((f, i) => {
    const { is_public: _p, ...flavor } = f;
    const file = path.join(tmp, `${label}-${i}.json`);
    fs.writeFileSync(file, JSON.stringify({ ...base, request: { flavor, num_instances: 1 } }));
    return file;
  });
  const out = execFileSync("npx", ["tsx", "lib/scenario/capacity-cli.ts", "--limit", String(limit), ...files], {
    cwd: path.resolve(__dirname, "../.."),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const lines = out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  return new Map(flavors.map((f, i) => [f.name, { count: lines[i].count, perHost: lines[i].per_host }]));
}

/** Sum of the rendered per-hypervisor series of a flavor, read back from the exposition text. */
function exposedPerHypervisorSum(text: string, flavor: string): number {
  let sum = 0;
  for (const line of text.split("\n"))
    if (line.startsWith("openstack_free_capacity_hypervisor_by_flavor{") && line.includes(`flavor_name="${flavor}"`))
      sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  return sum;
}

function exposedTotal(text: string, flavor: string): number {
  const line = text
    .split("\n")
    .find((l) => l.startsWith(`openstack_free_capacity_by_flavor_total{flavor_name="${flavor}",`));
  return Number(line?.slice(line.lastIndexOf(" ") + 1));
}

async function expectAgreement(cloud: MetricsCloud, label: string, limit?: number) {
  const m = await computeCapacityMetrics(cloud, { limit });
  const cli = cliCounts(cloud, label, limit ?? 1_000_000);
  const text = renderSnapshot(m, null);
  expect(m.flavors.length).toBe(cloud.flavors?.length);
  let somePlaced = false;
  for (const f of m.flavors) {
    const c = cli.get(f.flavor)!;
    expect({ flavor: f.flavor, count: f.count }).toEqual({ flavor: f.flavor, count: c.count });
    // at the limit the weighers' order decides which hosts got the boots (compute.ts weigherFree); else the same hosts
    if (!f.limitReached) expect(Object.fromEntries(f.perHost)).toEqual(c.perHost);
    expect(exposedTotal(text, f.flavor)).toBe(c.count);
    expect(exposedPerHypervisorSum(text, f.flavor)).toBe(c.count);
    if (c.count > 0) somePlaced = true;
  }
  expect(somePlaced).toBe(true);
}

// Flavors beside each generated scenario's own: plain sizes, pinned CPUs, and the scenario's PCI aliases.
const EXTRA = [
  { name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20 },
  { name: "pinned.2", vcpus: 2, memory_mb: 1024, root_gb: 10, extra_specs: { "hw:cpu_policy": "dedicated" } },
];

describe("free slots per flavor = the capacity CLI's count", () => {
  it.each(["r2026.1-2026-0017", "r2025.1-2025-0074", "r2025.1-2025-0023"])(
    "generated cloud %s (NUMA, PCI, a server group)",
    async (name) => {
      const sc = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.scenario.json`), "utf8"));
      expect(sc.hosts.some((h: { numa_topology?: unknown }) => h.numa_topology)).toBe(true);
      expect(sc.hosts.some((h: { pci_device_pools?: unknown[] }) => h.pci_device_pools?.length)).toBe(true);
      expect(sc.server_groups?.length).toBeGreaterThan(0);
      const { request, ...rest } = sc;
      const cloud: MetricsCloud = { ...rest, flavors: [request.flavor, ...EXTRA] };
      // The generator's filter lists check NUMA and PCI but not RAM or vCPUs (and no Placement):
      // plain flavors fit without end there, so both sides stop at the same limit.
      await expectAgreement(cloud, name, 3000);
    },
    120_000,
  );

  describe("the demo cloud", () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase();
      await seedDemoCloud(t.prisma, { hosts: 30 });
    }, 120_000);
    afterAll(async () => t?.cleanup());

    it("every demo flavor", async () => {
      const cloud = (await exportCloud(t.prisma)) as unknown as MetricsCloud;
      expect(cloud.flavors?.map((f) => f.name).sort()).toEqual(DEMO_FLAVORS.map((f) => f.name).sort());
      await expectAgreement(cloud, "demo");
    }, 300_000);
  });
});
