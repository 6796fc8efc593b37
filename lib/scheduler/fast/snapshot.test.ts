import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bigCloud, bigNumaCloud } from "../../demo/big-cloud";
import { schedule } from "../engine";
import type { HostState } from "../host-state";
import { snapshotHostStates } from "./snapshot";
import { toResult } from "../result";
import { freezeScenario, type Scenario } from "../scenario";

const answer = (sc: Scenario) => ({ ...toResult(schedule(sc)), timing: null });

describe("host states built from a scenario", () => {
  it("share what a frozen host says across requests, and requests do not leak into each other", () => {
    const sc = freezeScenario(bigCloud(40, 5));
    const [a, b] = [snapshotHostStates(sc), snapshotHostStates(sc)];
    expect(a[0]).not.toBe(b[0]);
    expect(a[0].metric("cpu.percent")).toBe(b[0].metric("cpu.percent"));
    // a later request's hosts read their metrics from one table, each its own values
    const c = snapshotHostStates(sc);
    expect(c[1].metricTable).toBe(c[0].metricTable);
    expect(c.map((h) => h.metric("cpu.percent"))).toEqual(
      snapshotHostStates(structuredClone(sc)).map((h) => h.metric("cpu.percent")),
    );
    expect(a[0].service).toBe(b[0].service);
    // hosts whose service, supported instances and metric names read the same share one of each
    expect(a[1].service).toBe(a[0].service);
    expect(a[1].supportedInstances).toBe(a[0].supportedInstances);
    expect(a[1].metricNames).toBe(a[0].metricNames);
    // five instances consume five hosts; the next request starts from the snapshot again
    expect(answer(sc)).toEqual(answer(sc));
    expect(answer(sc)).toEqual(answer(structuredClone(sc)));
  });

  it("share a frozen host's NUMA cells, and pinning CPUs in one request leaves the next one's cells alone", () => {
    const sc = freezeScenario(bigNumaCloud(300, 5));
    const [a, b] = [snapshotHostStates(sc), snapshotHostStates(sc)];
    expect(a[0].numaCells).toBe(b[0].numaCells);
    expect(a[0].pciStats).toBe(b[0].pciStats);
    const counts = () => JSON.stringify(snapshotHostStates(sc).map((h) => h.pciStats.pools.map((p) => p.count)));
    const pools = counts();
    const first = answer(sc);
    expect(first.selections).toHaveLength(5);
    expect(first.selections[0].numa?.[0].cpu_pinning).not.toEqual({});
    expect(answer(sc)).toEqual(first);
    expect(answer(structuredClone(sc))).toEqual(first);
    // the requests took GPUs from their own copies of the shared pools
    expect(first.selections.some((s) => s.pci?.length)).toBe(true);
    expect(counts()).toBe(pools);
  });

  it("explain a NUMA no-fit per request on a frozen host: another guest gets its own reason", () => {
    const sc = freezeScenario(bigNumaCloud(200, 1));
    const flavor = (pcpus: number, nodes?: number): Scenario => {
      const request = structuredClone(sc.request);
      request.flavor.vcpus = pcpus;
      if (nodes) request.flavor.extra_specs = { ...request.flavor.extra_specs, "hw:numa_nodes": String(nodes) };
      return { ...sc, request };
    };
    const numaReasons = (s: Scenario) =>
      toResult(schedule(s)).requests[0].funnel.find((f) => f.filter === "NUMATopologyFilter")?.reasons;
    for (const s of [flavor(4), flavor(24), flavor(24, 2), flavor(4)]) {
      const fresh = numaReasons(structuredClone(s));
      expect(fresh?.length).toBeGreaterThan(0);
      expect(numaReasons(s)).toEqual(fresh);
    }
  });

  it("copy every field of a frozen host's state into each request's, except what a request changes", () => {
    const sc = freezeScenario(bigNumaCloud(4, 1));
    const built = snapshotHostStates(sc)[1] as unknown as Record<string, unknown>;
    // what an earlier request may have left on the state it was given
    const used = snapshotHostStates(sc)[1];
    used.instances.add("an-instance-of-another-request");
    used.freeRamMb -= 1024;
    const copy = snapshotHostStates(sc)[1] as unknown as Record<string, unknown>;
    const startsOver = new Set(["instanceSet", "numaLimits", "updated", "aggregates", "pciStats"]);
    // where the metric values and NUMA summaries are kept moves (into the snapshot's tables): the values do not
    const moved = new Set(["metricTable", "metricAt", "numaTable", "numaAt", "summarized"]);
    for (const key of Object.keys(built)) {
      if (startsOver.has(key) || moved.has(key)) continue;
      expect(copy[key], key).toStrictEqual(built[key]);
    }
    expect(Object.keys(copy).sort()).toEqual(Object.keys(built).sort());
    const metric = (s: Record<string, unknown>) => (s as unknown as HostState).metric("cpu.percent");
    expect(metric(copy)).toBe(metric(built));
    expect((copy as unknown as { instances: Set<string> }).instances.has("an-instance-of-another-request")).toBe(false);
  });

  it("leave nothing of one request on a frozen host for the next: NUMA limits, pinned CPUs, devices, group members", () => {
    const numa = freezeScenario(bigNumaCloud(300, 4));
    const config = numa.config ?? {};
    const filters = (config.enabled_filters as string[]).filter((f) => f !== "NUMATopologyFilter");
    // the same cloud without NUMATopologyFilter: no request of it ever set NUMA limits
    const withoutFilter: Scenario = { ...numa, config: { ...config, enabled_filters: filters } };
    const grouped: Scenario = {
      ...numa,
      server_groups: [{ uuid: "g-1", name: "spread", policy: "anti-affinity", members: [] }],
      request: { ...numa.request, server_group: "g-1" },
    };
    for (const sc of [numa, withoutFilter, grouped, numa, withoutFilter, grouped])
      expect(answer(sc)).toEqual(answer(structuredClone(sc)));
  });

  it("fit a frozen host's NUMA cells without the limits an earlier request's NUMATopologyFilter set", () => {
    // Cell 0 is full at a CPU allocation ratio of 1.0. With the filter's
    // limits the guest goes to cell 1; without them (no NUMATopologyFilter)
    // Nova's consume packs it onto the busier cell 0.
    const cell = (id: number, used: number) => ({
      id,
      cpuset: [4 * id, 4 * id + 1, 4 * id + 2, 4 * id + 3],
      memory: 16384,
      cpu_usage: used,
    });
    const cloud = {
      hosts: [
        {
          name: "numa-1",
          vcpus: 8,
          memory_mb: 32768,
          local_gb: 100,
          cpu_allocation_ratio: 1.0,
          numa_topology: { cells: [cell(0, 4), cell(1, 0)] },
        },
      ],
      aggregates: [],
      request: {
        flavor: { name: "n1", vcpus: 2, memory_mb: 1024, root_gb: 1, extra_specs: { "hw:numa_nodes": "1" } },
      },
    };
    const withFilter = { enabled_filters: ["NUMATopologyFilter"], packing_host_numa_cells_allocation_strategy: true };
    const a = freezeScenario({ ...cloud, config: withFilter } as Scenario);
    const b: Scenario = { ...a, config: { ...withFilter, enabled_filters: ["ComputeFilter"] } };
    const cellOf = (sc: Scenario) => answer(sc).selections[0]?.numa?.[0];
    expect(cellOf(a)?.host_cell).toBe(1);
    expect(cellOf(b)).toEqual(cellOf(structuredClone(b)));
    expect(cellOf(b)?.host_cell).toBe(0);
  });

  it("read a host that is not frozen afresh every time", () => {
    const sc = bigCloud(3, 1);
    expect(snapshotHostStates(sc)[0].metric("cpu.percent")).toBe(
      Math.trunc((sc.hosts[0].metrics as Array<{ value: number }>)[0].value * 100),
    );
    sc.hosts[0].metrics = [{ name: "cpu.percent", value: 12.5 }];
    expect(snapshotHostStates(sc)[0].metric("cpu.percent")).toBe(1250);
  });
});

// The app schedules on a frozen snapshot (the engine reads its derived host
// states and changes copies of the hosts it consumes); the CLI and the
// conformance corpus on parsed JSON (states built afresh). Every fixture,
// NUMA, PCI and Placement ones included, must answer the same both ways,
// twice in a row on the frozen one.
const FIXTURES = path.join(__dirname, "..", "conformance", "fixtures");
const SAMPLE = readdirSync(FIXTURES)
  .filter((f) => f.endsWith(".scenario.json"))
  .sort();

describe("a frozen snapshot answers as the scenario read afresh", () => {
  it.each(SAMPLE)("%s", (file) => {
    const text = readFileSync(path.join(FIXTURES, file), "utf8");
    const fresh = answer(JSON.parse(text) as Scenario);
    const frozen = freezeScenario(JSON.parse(text) as Scenario);
    expect(answer(frozen)).toEqual(fresh);
    expect(answer(frozen)).toEqual(fresh);
    // Other requests on the same snapshot, in between, leave nothing for the
    // next: two more instances, and no NUMA or PCI filter (no limits set).
    const read = () => JSON.parse(text) as Scenario;
    const { request, config } = read();
    const variants: Array<Partial<Scenario>> = [
      { request: { ...request, num_instances: (request.num_instances ?? 1) + 2 } },
    ];
    const filters = config?.enabled_filters;
    if (Array.isArray(filters)) {
      const without = filters.filter((f) => f !== "NUMATopologyFilter" && f !== "PciPassthroughFilter");
      variants.push({ config: { ...config, enabled_filters: without } });
    }
    for (const v of variants) expect(answer({ ...frozen, ...v })).toEqual(answer({ ...read(), ...structuredClone(v) }));
    expect(answer(frozen)).toEqual(fresh);
  });
});
