import { describe, expect, it, vi } from "vitest";
import { bigCloud } from "../../bench/big-cloud";
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
      expect(run.traces[0].funnel.map((s) => s.filter)).toEqual(sc.config?.enabled_filters);
      expect(run.traces[0].weighed.columns.map((c) => c.name)).toEqual(run.config.weighers);
    },
  );
});
