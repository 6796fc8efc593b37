import { describe, expect, it, vi } from "vitest";
import { bigCloud } from "../demo/big-cloud";
import { schedule } from "./engine";
import { toResult } from "./result";
import { warmUpEngine, warmUpScenarios } from "./warm-up";

describe("warmUpEngine", () => {
  it("runs every filter and weigher without an error and changes no later answer", () => {
    const sc = bigCloud(60, 3);
    const before = { ...toResult(schedule(sc)), timing: null };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(warmUpEngine(100, 1)).toBeGreaterThan(0);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect({ ...toResult(schedule(sc)), timing: null }).toEqual(before);
  });

  // A request that failed at its first filter would leave the host loops, weighers and consume step cold.
  it.each(warmUpScenarios(200).map((sc, i) => [i, sc] as const))(
    "request %i places every instance, past every filter and weigher",
    (_, sc) => {
      const run = schedule(sc);
      expect(run.error).toBeNull();
      expect(run.selections).toHaveLength(sc.request.num_instances ?? 1);
      for (const trace of run.traces) {
        expect(trace.funnel.filter((s) => s.stage === "filter").at(-1)?.out).toBeGreaterThan(1);
        expect(trace.weighed.columns.map((c) => c.name)).toEqual(run.config.weighers);
      }
      expect(run.traces[0].funnel.filter((s) => s.stage === "filter").map((s) => s.filter)).toEqual(
        sc.config?.enabled_filters,
      );
    },
  );

  it("fits its NUMA request to host cells, has GPUs on both NUMA nodes, and claims on the Placement path", () => {
    const runs = warmUpScenarios(200).map((sc) => schedule(sc));
    const numa = runs.filter((r) => r.spec?.numaTopology);
    expect(numa).toHaveLength(1);
    for (const s of numa[0].selections) expect(s.placement.numa?.length).toBeGreaterThan(0);
    const nodes = new Set(
      numa[0].hosts.flatMap((h) => h.pciStats.pools.filter((p) => p.count > 0).map((p) => p.numaNode)),
    );
    expect([...nodes].sort()).toEqual([0, 1]);
    const placement = runs.filter((r) => r.placement);
    expect(placement).toHaveLength(3);
    for (const r of placement) expect(r.placement?.claims.every((c) => c.claimed !== null)).toBe(true);
  });

  // A query asked before is answered from kept answers: a round asking only those would leave the provider loop cold.
  it("asks Placement queries in each round that no earlier round asked", () => {
    const queries = [0, 1, 2].map((round) =>
      warmUpScenarios(200, round)
        .map((sc) => schedule(sc).placement?.query)
        .filter((q) => q !== undefined && q !== null),
    );
    const all = queries.flat();
    expect(queries.map((q) => q.length)).toEqual([3, 3, 3]);
    expect(new Set(all).size).toBe(all.length);
  });
});
