/**
 * The demo cloud (prisma/seed.ts -> lib/demo/seed.ts): deterministic,
 * idempotent, internally consistent, and the GPU flavor has alternates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { buildDemoCloud, DEMO_ENABLED_FILTERS, DEMO_PROFILES } from "./cloud";
import { exportCloud, requestFromDb, type ExportedCloud } from "@/lib/cloud/scenario-io";
import { stableStringify } from "../scenario/json";
import { seedDemoCloud } from "./seed";
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
    // two seeds, each now also recording the history's first snapshot: on a loaded machine past 30 s
  }, 90_000);

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

  // The devices each hardware class has (the layout of lib/demo/cloud.ts):
  // what is free in the pools plus what the instances hold must add up to them.
  const PCI_HARDWARE: [string, Record<string, number>][] = [
    ["CUSTOM_GPU_NVIDIA_A40", { "10de:2235": 4 }],
    ["CUSTOM_NFV", { "8086:154c": 32, "8086:1572": 2 }],
  ];

  it("is consistent with itself: every instance in its host's Placement usages, NUMA cells and PCI pools", () => {
    type F = {
      vcpus: number;
      memory_mb: number;
      root_gb: number;
      ephemeral_gb: number;
      extra_specs: Record<string, string>;
    };
    const flavor = new Map(cloud.flavors.map((f) => [f.name as string, f as unknown as F]));
    const instFlavor = new Map(cloud.instances.map((i) => [i.uuid as string, flavor.get(i.flavor as string)!]));
    const alias = new Map(
      ((cloud.config as { pci_alias?: { name: string; vendor_id: string; product_id: string }[] }).pci_alias ?? []).map(
        (a) => [a.name, `${a.vendor_id}:${a.product_id}`],
      ),
    );
    let checked = 0;
    for (const h of cloud.hosts as any[]) {
      const fl: F[] = (h.instances ?? []).map((u: string) => instFlavor.get(u)!);
      expect(fl.every(Boolean), h.name).toBe(true);
      const dedicated = (f: F) => f.extra_specs["hw:cpu_policy"] === "dedicated";
      const onPcpu = (f: F) => dedicated(f) && (h.pcpus ?? 0) > 0;
      const sum = (list: F[], v: (f: F) => number) => list.reduce((s, f) => s + v(f), 0);
      // resources:VCPU=0 and the like (a bare-metal flavor) replace the flavor's own amounts
      const amount = (f: F, rc: string, own: number) =>
        f.extra_specs[`resources:${rc}`] !== undefined ? Number(f.extra_specs[`resources:${rc}`]) : own;
      // Placement: VCPU, PCPU, MEMORY_MB, DISK_GB usages (memory and disk _used include the reservation)
      expect(h.vcpus_used, `${h.name} VCPU`).toBe(
        sum(
          fl.filter((f) => !onPcpu(f)),
          (f) => amount(f, "VCPU", f.vcpus),
        ),
      );
      expect(h.pcpus_used ?? 0, `${h.name} PCPU`).toBe(sum(fl.filter(onPcpu), (f) => f.vcpus));
      expect(h.memory_mb_used, `${h.name} MEMORY_MB`).toBe(
        h.reserved_memory_mb + sum(fl, (f) => amount(f, "MEMORY_MB", f.memory_mb)),
      );
      expect(h.local_gb_used, `${h.name} DISK_GB`).toBe(
        h.reserved_disk_gb + sum(fl, (f) => amount(f, "DISK_GB", f.root_gb + f.ephemeral_gb)),
      );
      expect(h.num_instances, h.name).toBe(fl.length);
      expect(h.vcpus_used).toBeLessThanOrEqual((h.vcpus - h.reserved_vcpus) * h.cpu_allocation_ratio);
      expect(h.memory_mb_used).toBeLessThanOrEqual(h.memory_mb * h.ram_allocation_ratio);
      expect(h.pcpus_used ?? 0).toBeLessThanOrEqual(h.pcpus ?? 0);
      // custom resource classes (resources:X) on the host or its child providers
      const custom = new Map<string, number>();
      for (const f of fl)
        for (const [k, v] of Object.entries(f.extra_specs)) {
          const m = /^resources\d*:(.+)$/.exec(k);
          if (m && !["VCPU", "PCPU", "MEMORY_MB", "DISK_GB"].includes(m[1]) && Number(v) > 0)
            custom.set(m[1], (custom.get(m[1]) ?? 0) + Number(v));
        }
      const used = new Map<string, number>();
      for (const [rc, inv] of Object.entries((h.inventories ?? {}) as Record<string, { used?: number }>))
        if (inv.used) used.set(rc, (used.get(rc) ?? 0) + inv.used);
      for (const c of h.child_providers ?? [])
        for (const [rc, n] of Object.entries((c.usages ?? {}) as Record<string, number>))
          if (n) used.set(rc, (used.get(rc) ?? 0) + n);
      expect(Object.fromEntries(used), `${h.name} custom usages`).toEqual(Object.fromEntries(custom));
      // NUMA cells: pinned CPUs, shared CPU usage, memory and huge pages of the instances with a guest topology
      const numa = fl.filter(
        (f) => dedicated(f) || f.extra_specs["hw:mem_page_size"] !== undefined || f.extra_specs["hw:numa_nodes"],
      );
      const cells = (h.numa_topology?.cells ?? []) as any[];
      if (!cells.length) expect(numa, `${h.name} has no NUMA cells`).toEqual([]);
      else {
        expect(
          sum(cells as never, (c: any) => c.pinned_cpus.length),
          `${h.name} pinned`,
        ).toBe(sum(numa.filter(dedicated), (f) => f.vcpus));
        expect(
          sum(cells as never, (c: any) => c.cpu_usage),
          `${h.name} cpu_usage`,
        ).toBe(
          sum(
            numa.filter((f) => !dedicated(f)),
            (f) => f.vcpus,
          ),
        );
        expect(
          sum(cells as never, (c: any) => c.memory_usage),
          `${h.name} memory_usage`,
        ).toBe(sum(numa, (f) => f.memory_mb));
        // huge pages: KiB in use on the cells = the memory of the instances that asked for a page size
        const hugeKb = sum(cells as never, (c: any) =>
          c.mempages.filter((m: any) => m.size_kb > 4).reduce((t: number, m: any) => t + m.used * m.size_kb, 0),
        );
        const want = sum(
          numa.filter((f) => !["small", undefined].includes(f.extra_specs["hw:mem_page_size"])),
          (f) => f.memory_mb * 1024,
        );
        expect(hugeKb, `${h.name} huge pages`).toBe(want);
      }
      // PCI: free devices in the pools + devices the instances hold = the hardware's
      const held: Record<string, number> = {};
      for (const p of h.pci_device_pools ?? [])
        held[`${p.vendor_id}:${p.product_id}`] = (held[`${p.vendor_id}:${p.product_id}`] ?? 0) + p.count;
      for (const f of fl) {
        const a = f.extra_specs["pci_passthrough:alias"];
        if (!a) continue;
        const [name, count] = a.split(":");
        const dev = alias.get(name)!;
        held[dev] = (held[dev] ?? 0) + Number(count);
      }
      const hardware = Object.assign({}, ...PCI_HARDWARE.filter(([t]) => h.traits?.includes(t)).map(([, d]) => d));
      expect(held, `${h.name} PCI devices`).toEqual(hardware);
      checked++;
    }
    expect(checked).toBe(cloud.hosts.length);
    // the classes with NUMA, PCI and pinned CPUs are exercised
    expect(cloud.hosts.some((h: any) => (h.pcpus_used ?? 0) > 0)).toBe(true);
    expect(cloud.instances.some((i) => i.flavor === "gpu.large" || i.flavor === "gpu.xlarge")).toBe(true);
    expect(cloud.instances.some((i) => i.flavor === "vgpu.small")).toBe(true);
    expect(cloud.instances.filter((i) => i.flavor === "bm.large")).toHaveLength(1);
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
    expect(cloud.config!.enabled_filters).toEqual(DEMO_ENABLED_FILTERS);
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
