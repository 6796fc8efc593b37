/**
 * loadCloudSnapshot at scale, and the UI read functions against it.
 * Times are printed, not asserted (the machines are shared).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { exportCloud } from "@/lib/cloud/scenario-io";
import * as q from "./queries";
import * as runs from "@/lib/runs/queries";
import { seedDemoCloud } from "../demo/seed";
import { loadScenarioHost, loadSnapshot, ProfileNotFoundError } from "./snapshot";

describe.each(PROVIDERS)("snapshot of a 10,000-host cloud (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabaseOf(provider, inject("postgresUrl"));
    const r = await seedDemoCloud(t.prisma, { hosts: 10000 });
    if (r.seeded) {
      console.log(
        `${provider}: seed 10,000 hosts: ${(r.totalMs / 1000).toFixed(2)} s (build ${r.buildMs.toFixed(0)} ms, validate ${r.validateMs.toFixed(0)} ms, ` +
          `write ${r.writeMs.toFixed(0)} ms; ${r.instances} instances)`,
      );
    }
  }, 180_000);
  afterAll(async () => t?.cleanup());

  it("loads every host, in order, with its instances", async () => {
    const times: number[] = [];
    let snap = await loadSnapshot(t.prisma);
    times.push(snap.loadMs);
    for (let i = 0; i < 2; i++) {
      snap = await loadSnapshot(t.prisma);
      times.push(snap.loadMs);
    }
    console.log(
      `${provider}: loadSnapshot, 10,000 hosts: ${times.map((ms) => ms.toFixed(0)).join(" / ")} ms (cold / warm / warm)`,
    );
    const { scenario } = snap;
    expect(scenario.hosts).toHaveLength(10000);
    expect(scenario.hosts[0].name).toBe("cmp-a1-00001");
    // az3 ends with the nodes of the Ironic service host
    expect(scenario.hosts.at(-1)).toMatchObject({ name: "ironic-a3-01", node: "bm-a3-003" });
    const instances = scenario.hosts.reduce((s, h) => s + h.instances!.length, 0);
    expect(instances).toBe(await t.prisma.instance.count({ where: { hostId: { not: null } } }));
    expect(scenario.hosts.every((h) => h.num_instances === h.instances!.length)).toBe(true);
    expect(snap.profileName).toBe("default");
    expect(scenario.config!.enabled_filters).toContain("AggregateInstanceExtraSpecsFilter");
    expect(scenario.aggregates!.find((a) => a.name === "az1")!.hosts).toHaveLength(4000);
    // one host alone is the same object the snapshot has
    expect(await loadScenarioHost(t.prisma, "cmp-a2-00017")).toEqual(
      scenario.hosts.find((h) => h.name === "cmp-a2-00017"),
    );
  });

  it("gives the engine a forced-down compute service as down, whatever its last heartbeat (Nova's service_is_up)", async () => {
    const name = "cmp-a1-00003";
    await t.prisma.computeHost.update({ where: { name }, data: { serviceUp: true, forcedDown: true } });
    try {
      const host = await loadScenarioHost(t.prisma, name);
      expect(host?.service).toMatchObject({ up: false, forced_down: true });
      const listed = await q.listHosts(t.prisma, { state: "up", search: name, searchNameOnly: true });
      expect(listed.map((h) => h.name)).not.toContain(name);
    } finally {
      await t.prisma.computeHost.update({ where: { name }, data: { forcedDown: false } });
    }
  });

  it("takes the config of a named profile, and says when it does not exist", async () => {
    const snap = await loadSnapshot(t.prisma, { profileName: "stacking" });
    expect(snap.scenario.config!.ram_weight_multiplier).toBe(-1);
    await expect(loadSnapshot(t.prisma, { profileName: "nope" })).rejects.toBeInstanceOf(ProfileNotFoundError);
  });

  it("pages, sorts and searches hosts in SQL", async () => {
    const t0 = performance.now();
    const page = await q.listHostsPage(t.prisma, { sort: "freeRamMb", dir: "desc", page: 3, pageSize: 25 });
    console.log(`listHostsPage (sorted by free RAM, page 3 of 25): ${(performance.now() - t0).toFixed(0)} ms`);
    expect(page.total).toBe(10000);
    expect(page.pages).toBe(400);
    expect(page.rows).toHaveLength(25);
    const free = page.rows.map((r) => r.freeRamMb);
    expect([...free].sort((a, b) => b - a)).toEqual(free);
    const p2 = await q.listHostsPage(t.prisma, { sort: "freeRamMb", dir: "desc", page: 2, pageSize: 25 });
    expect(p2.rows.at(-1)!.freeRamMb).toBeGreaterThanOrEqual(free[0]);

    const found = await q.listHostsPage(t.prisma, { search: "A3-0249", pageSize: 50 });
    expect(found.rows.map((r) => r.name)).toEqual(Array.from({ length: 8 }, (_, i) => `cmp-a3-0249${i}`));
    const az2 = await q.listHostsPage(t.prisma, { availabilityZone: "az2", pageSize: 1 });
    expect(az2.total).toBe(3500);
    const disabled = await q.listHosts(t.prisma, { state: "disabled" });
    expect(disabled.length).toBeGreaterThan(0);
    expect(disabled.every((h) => h.state === "disabled" && h.disabledReason)).toBe(true);
    const gpu = await q.listHostsPage(t.prisma, { aggregate: "gpu-a40", pageSize: 5 });
    expect(gpu.rows.every((r) => r.aggregates.includes("gpu-a40") && r.availabilityZone === "az1")).toBe(true);
  });

  it("sums capacity per AZ, cell and aggregate consistently with the snapshot", async () => {
    const { scenario } = await loadSnapshot(t.prisma);
    const total = (k: "vcpus_used" | "memory_mb_used") => scenario.hosts.reduce((s, h) => s + (h[k] ?? 0), 0);
    for (const rows of [await q.capacityByAvailabilityZone(t.prisma), await q.capacityByCell(t.prisma)]) {
      expect(rows.reduce((s, r) => s + r.hosts, 0)).toBe(10000);
      expect(rows.reduce((s, r) => s + r.vcpusUsed, 0)).toBe(total("vcpus_used"));
      expect(rows.reduce((s, r) => s + r.memoryMbUsed, 0)).toBe(total("memory_mb_used"));
    }
    const byAz = await q.capacityByAvailabilityZone(t.prisma);
    expect(byAz.map((r) => [r.name, r.hosts])).toEqual([
      ["az1", 4000],
      ["az2", 3500],
      ["az3", 2500],
    ]);
    const byAgg = await q.capacityByAggregate(t.prisma);
    expect(byAgg.find((r) => r.name === "gpu-a40")!.hosts).toBe(300);
  });

  it("exports the whole cloud (printed time)", async () => {
    const t0 = performance.now();
    const doc = await exportCloud(t.prisma);
    console.log(
      `exportCloud, 10,000 hosts: ${(performance.now() - t0).toFixed(0)} ms (${doc.instances.length} instances listed)`,
    );
    expect(doc.hosts).toHaveLength(10000);
  });
});

describe.each(PROVIDERS)("read functions on a small cloud (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabaseOf(provider, inject("postgresUrl"));
    await seedDemoCloud(t.prisma, { hosts: 60 });
  });
  afterAll(async () => t?.cleanup());

  it("getHost returns the details and the engine's view", async () => {
    const h = await q.getHost(t.prisma, "cmp-a1-001");
    expect(h).not.toBeNull();
    expect(h!.aggregates).toEqual(["az1", "gpu-a40"]);
    expect(h!.traits).toContain("HW_GPU_API_VULKAN");
    expect(h!.instances.length).toBe(h!.numInstances);
    expect(h!.scenario).toMatchObject({ name: "cmp-a1-001", cell: "cell1", vcpus: h!.vcpus });
    expect(await q.getHost(t.prisma, "nope")).toBeNull();
  });

  it("lists the rest", async () => {
    const aggs = await q.listAggregates(t.prisma);
    expect(aggs[0]).toMatchObject({ name: "az1", availabilityZone: "az1" });
    expect((await q.getAggregate(t.prisma, "gpu-a40"))!.hosts.length).toBeGreaterThanOrEqual(6);
    const flavors = await q.listFlavors(t.prisma);
    expect(flavors[0].name).toBe("m1.tiny");
    expect((await q.getFlavor(t.prisma, "gpu.xlarge"))!.extraSpecs["aggregate_instance_extra_specs:gpu"]).toBe("true");
    expect((await q.listImages(t.prisma)).length).toBe(6);
    const groups = await q.listServerGroups(t.prisma);
    expect(groups.find((g) => g.policy === "affinity")!.hosts).toHaveLength(1);
    const inst = await q.listInstances(t.prisma, { host: "cmp-a1-001", pageSize: 2 });
    expect(inst.rows.every((i) => i.host === "cmp-a1-001")).toBe(true);
    expect((await q.getActiveProfile(t.prisma))!.name).toBe("default");
    expect((await q.listProfiles(t.prisma)).map((p) => p.name)).toEqual([
      "default",
      "filters-only",
      "nfv",
      "placement",
      "stacking",
    ]);
    expect((await runs.listRuns(t.prisma)).total).toBe(0);
    expect(await runs.getRun(t.prisma, 1)).toBeNull();
    expect((await q.cloudCounts(t.prisma)).hosts).toBe(60);
  });
});

describe("SQLite and PostgreSQL read the same cloud the same way", () => {
  const dbs: TestDatabase[] = [];
  beforeAll(async () => {
    for (const p of PROVIDERS) {
      const t = await createTestDatabaseOf(p, inject("postgresUrl"));
      dbs.push(t);
      await seedDemoCloud(t.prisma, { hosts: 200 });
    }
  }, 120_000);
  afterAll(async () => {
    for (const t of dbs) await t.cleanup();
  });

  // each read, as the pages call it; the answers must be equal, value for value and in the same order
  const reads: [string, (t: TestDatabase) => Promise<unknown>][] = [
    ["the engine's snapshot", async (t) => (await loadSnapshot(t.prisma)).scenario],
    ["one host as the engine sees it", (t) => loadScenarioHost(t.prisma, "cmp-a2-017")],
    ["the export", (t) => exportCloud(t.prisma)],
    [
      "hosts sorted by RAM usage, descending",
      (t) => q.listHostsPage(t.prisma, { sort: "ram_usage", dir: "desc", page: 2, pageSize: 25 }),
    ],
    ["hosts sorted by vCPU usage", (t) => q.listHostsPage(t.prisma, { sort: "vcpu_usage", pageSize: 40 })],
    ["a case-insensitive search", (t) => q.listHostsPage(t.prisma, { search: "A3-01", pageSize: 50 })],
    ["hosts sorted by name, descending", (t) => q.listHostsPage(t.prisma, { sort: "name", dir: "desc", pageSize: 30 })],
    ["hosts out of rotation", (t) => q.problemHosts(t.prisma)],
    [
      "hosts of one zone, by state",
      (t) => q.listHostsPage(t.prisma, { availabilityZone: "az2", sort: "state", dir: "desc" }),
    ],
    ["capacity per zone, cell and aggregate", (t) => q.capacityOverview(t.prisma)],
    ["instances found by a search in capitals", (t) => q.listInstances(t.prisma, { search: "AB", pageSize: 30 })],
    [
      "an aggregate's members found by a search in capitals",
      (t) => q.getAggregate(t.prisma, "az1", { search: "A1-01" }),
    ],
    ["the schedule form's choices", (t) => runs.scheduleFormOptions(t.prisma)],
  ];
  it.each(reads)("%s", async (_name, read) => {
    const [sqlite, postgresql] = await Promise.all(dbs.map(read));
    expect(JSON.stringify(sqlite)).not.toMatch(/^(null|\[\]|\{"rows":\[\])/); // something to compare
    const strip = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x) => (k === "ms" || k === "loadMs" ? 0 : x)));
    expect(strip(postgresql)).toEqual(strip(sqlite));
  });

  it("a search takes LIKE's own characters literally on both", async () => {
    for (const t of dbs) {
      expect((await q.listHostsPage(t.prisma, { search: "1-0", pageSize: 1 })).total).toBeGreaterThan(0);
      expect((await q.listHostsPage(t.prisma, { search: "1_0", pageSize: 1 })).total).toBe(0);
      expect((await q.listHostsPage(t.prisma, { search: "%", pageSize: 1 })).total).toBe(0);
    }
  });
});
