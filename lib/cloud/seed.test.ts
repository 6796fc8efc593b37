/**
 * The demo cloud (prisma/seed.ts -> lib/cloud/seed-demo.ts): deterministic,
 * idempotent, internally consistent, and the GPU flavor has alternates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { buildDemoCloud, DEMO_PROFILES } from "./demo-cloud";
import { exportCloud, requestFromDb, type ExportedCloud } from "./import-export";
import { stableStringify } from "./json";
import { seedDemoCloud } from "./seed-demo";
import { assertNovaReferenceAvailable, runNovaReference, tableFingerprint } from "@/lib/testing/cloud";

describe("buildDemoCloud", () => {
  it("is a pure function of (hosts, seed)", () => {
    expect(stableStringify(buildDemoCloud({ hosts: 200 }))).toBe(stableStringify(buildDemoCloud({ hosts: 200 })));
    expect(stableStringify(buildDemoCloud({ hosts: 200, seed: 7 }))).not.toBe(
      stableStringify(buildDemoCloud({ hosts: 200 })),
    );
  });
  it("refuses a cloud too small for its layout", () => {
    expect(() => buildDemoCloud({ hosts: 5 })).toThrow(/at least 30 hosts/);
  });
});

describe("seedDemoCloud (200 hosts)", () => {
  let t: TestDatabase;
  let cloud: ExportedCloud;
  beforeAll(async () => {
    t = await createTestDatabase();
    const r = await seedDemoCloud(t.prisma);
    expect(r.seeded).toBe(true);
    if (r.seeded) console.log(`seed 200 hosts: ${r.totalMs.toFixed(0)} ms (${r.instances} instances)`);
    cloud = await exportCloud(t.prisma);
  });
  afterAll(async () => t?.cleanup());

  it("is idempotent: a second run changes nothing", async () => {
    const before = await tableFingerprint(t.prisma);
    const r = await seedDemoCloud(t.prisma);
    expect(r).toEqual({ seeded: false, existingHosts: 200 });
    expect(await tableFingerprint(t.prisma)).toBe(before);
  });

  it("is deterministic: another database gets the same cloud, --force rebuilds the same", async () => {
    const other = await createTestDatabase();
    try {
      await seedDemoCloud(other.prisma);
      expect(stableStringify(await exportCloud(other.prisma))).toBe(stableStringify(cloud));
      const again = await seedDemoCloud(other.prisma, { force: true });
      expect(again.seeded).toBe(true);
      expect(stableStringify(await exportCloud(other.prisma))).toBe(stableStringify(cloud));
    } finally {
      await other.cleanup();
    }
  });

  it("has the promised layout", () => {
    expect(cloud.hosts).toHaveLength(200);
    expect(cloud.hosts[0].name).toBe("cmp-a1-001");
    expect(new Set(cloud.hosts.map((h) => h.cell))).toEqual(new Set(["cell1", "cell2"]));
    const azs = cloud.aggregates!.filter((a) => a.availability_zone).map((a) => a.availability_zone);
    expect(azs).toEqual(["az1", "az2", "az3"]);
    const names = cloud.aggregates!.map((a) => a.name);
    expect(names).toEqual(expect.arrayContaining(["gpu-a40", "ssd-nvme", "highmem", "tenant-acme", "batch-dense"]));
    const md = Object.fromEntries(cloud.aggregates!.map((a) => [a.name, a.metadata]));
    expect(md["gpu-a40"]).toMatchObject({ gpu: "true", ram_weight_multiplier: "-1.0" });
    expect(md["tenant-acme"]!.filter_tenant_id).toMatch(/^[0-9a-f]{32}$/);
    expect(md["batch-dense"]).toMatchObject({ max_instances_per_host: "80", max_io_ops_per_host: "16" });
    const disabled = cloud.hosts.filter((h) => h.service?.disabled);
    expect(disabled.length).toBeGreaterThan(0);
    expect(disabled.every((h) => typeof h.service?.disabled_reason === "string")).toBe(true);
    expect(cloud.hosts.some((h) => h.service?.up === false)).toBe(true);
    expect(cloud.flavors.map((f) => f.name)).toEqual(expect.arrayContaining(["m1.tiny", "m1.large", "gpu.xlarge"]));
    expect(cloud.images.map((i) => i.name)).toEqual(
      expect.arrayContaining(["ubuntu-22.04", "rhel-9.2", "windows-server-2022", "cirros-0.6.2"]),
    );
    expect(new Set(cloud.server_groups!.map((g) => g.policy))).toEqual(
      new Set(["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"]),
    );
  });

  it("keeps every host's usage equal to the sum of its instances", () => {
    const flavor = new Map(
      cloud.flavors.map((f) => [
        f.name as string,
        f as { vcpus: number; memory_mb: number; root_gb: number; ephemeral_gb: number },
      ]),
    );
    const instFlavor = new Map(cloud.instances.map((i) => [i.uuid as string, flavor.get(i.flavor as string)!]));
    for (const h of cloud.hosts) {
      const fl = (h.instances ?? []).map((u) => instFlavor.get(u)!);
      expect(fl.every(Boolean)).toBe(true);
      expect(h.vcpus_used).toBe(fl.reduce((s, f) => s + f.vcpus, 0));
      expect(h.memory_mb_used).toBe(h.reserved_memory_mb! + fl.reduce((s, f) => s + f.memory_mb, 0));
      expect(h.local_gb_used).toBe(h.reserved_disk_gb! + fl.reduce((s, f) => s + f.root_gb + f.ephemeral_gb, 0));
      expect(h.num_instances).toBe(fl.length);
      expect(h.vcpus_used!).toBeLessThanOrEqual(h.vcpus * h.cpu_allocation_ratio!);
      expect(h.memory_mb_used!).toBeLessThanOrEqual(h.memory_mb * h.ram_allocation_ratio!);
    }
  });

  it("places server group members as their policy says", () => {
    const hostOf = new Map(cloud.hosts.flatMap((h) => (h.instances ?? []).map((u) => [u, h.name] as const)));
    for (const g of cloud.server_groups!) {
      const hosts = g.members!.map((u) => hostOf.get(u));
      expect(hosts.every(Boolean)).toBe(true);
      if (g.policy === "anti-affinity") expect(new Set(hosts).size).toBe(hosts.length);
      if (g.policy === "affinity") expect(new Set(hosts).size).toBe(1);
      expect(g.members!.length).toBeGreaterThan(1);
    }
  });

  it("stores the demo profiles, 'default' active", async () => {
    const profiles = await t.prisma.schedulerProfile.findMany({ orderBy: { name: "asc" } });
    expect(profiles.map((p) => [p.name, p.active])).toEqual(
      DEMO_PROFILES.map((p) => [p.name, p.active]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const stacking = JSON.parse(profiles.find((p) => p.name === "stacking")!.config);
    expect(stacking.ram_weight_multiplier).toBe(-1);
    expect(cloud.config!.enabled_filters!.slice(0, 6)).toEqual([
      "ComputeFilter",
      "AvailabilityZoneFilter",
      "ComputeCapabilitiesFilter",
      "ImagePropertiesFilter",
      "ServerGroupAntiAffinityFilter",
      "ServerGroupAffinityFilter",
    ]);
  });

  it("schedules the GPU flavor with at least 3 candidates, so 2 alternates (answered by Nova)", async () => {
    assertNovaReferenceAvailable();
    const request = await requestFromDb(t.prisma, { flavor: "gpu.xlarge", image: "ubuntu-22.04" });
    const result = runNovaReference(await exportCloud(t.prisma, { request })) as {
      error: string | null;
      selections: { host: string; alternates: string[] }[];
      requests: { weighed: { host: string }[] }[];
    };
    expect(result.error).toBeNull();
    expect(result.requests[0].weighed.length).toBeGreaterThanOrEqual(3);
    expect(result.selections[0].alternates).toHaveLength(2);
    expect(result.selections[0].host).toMatch(/^cmp-a1-/);
  }, 180_000);

  it("has NFV and GPU hosts whose NUMA cells and PCI pools match their instances", () => {
    const nfv = cloud.hosts.filter((h) => (h as any).pcpus > 0) as any[];
    const gpu = cloud.hosts.filter(
      (h) =>
        (h as any).pci_device_pools?.some?.((p: any) => p.vendor_id === "10de") ||
        cloud.aggregates!.find((a) => a.name === "gpu-a40")!.hosts!.includes(h.name),
    ) as any[];
    expect(nfv.length).toBeGreaterThanOrEqual(4);
    expect(gpu.length).toBeGreaterThanOrEqual(3);
    for (const h of nfv) {
      expect(h.numa_topology.cells).toHaveLength(2);
      for (const c of h.numa_topology.cells) {
        expect(c.cpuset.filter((x: number) => c.pcpuset.includes(x))).toEqual([]);
        expect(c.pinned_cpus.every((x: number) => c.pcpuset.includes(x))).toBe(true);
        expect(c.mempages.map((m: any) => m.size_kb)).toEqual([4, 2048, 1048576]);
        expect(c.siblings.every((s: number[]) => s.length === 2)).toBe(true);
      }
      const pinned = h.numa_topology.cells.reduce((s: number, c: any) => s + c.pinned_cpus.length, 0);
      expect(h.pcpus_used).toBe(pinned);
      expect(h.pci_device_pools.some((p: any) => p.tags.dev_type === "type-VF" && p.tags.physical_network)).toBe(true);
    }
    expect(nfv.some((h) => h.pcpus_used > 0)).toBe(true);
    expect((cloud.config as { pci_alias?: unknown }).pci_alias).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "a40" })]),
    );
  });

  it.each([
    ["c1.xlarge", "pinned CPUs"],
    ["n1.dpdk", "pinned CPUs, 2 MiB pages and a VF"],
    ["gpu.xlarge", "pinned CPUs and two A40s"],
  ])(
    "under the nfv profile, %s (%s) fits some hosts and not others (answered by Nova)",
    async (flavor) => {
      assertNovaReferenceAvailable();
      const request = await requestFromDb(t.prisma, { flavor, image: "rhel-9.2" });
      const result = runNovaReference(await exportCloud(t.prisma, { request, profileName: "nfv" })) as {
        error: string | null;
        selections: { host: string; numa?: { host_cell: number; pcpuset: number[] }[] | null }[];
        requests: { funnel: { filter: string; in: number; out: number }[] }[];
      };
      expect(result.error).toBeNull();
      const numa = result.requests[0].funnel.find((f) => f.filter === "NUMATopologyFilter")!;
      expect(numa.out).toBeGreaterThan(0);
      expect(numa.out).toBeLessThan(numa.in);
      expect(result.selections[0].numa![0].pcpuset.length).toBeGreaterThan(0);
    },
    180_000,
  );
});
