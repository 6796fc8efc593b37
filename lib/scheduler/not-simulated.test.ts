/**
 * Filters and weighers a stored profile keeps but Schedscope does not
 * simulate (an out-of-tree ShardFilter, BlazarFilter, ...): with
 * `not_simulated: "pass"` (what the app sets for stored profiles) they pass
 * every host / weigh 0 and the result names them; a scenario file without it
 * fails as Nova's reference does (KeyError).
 */
import { describe, expect, it } from "vitest";
import { schedule } from "./engine";
import { toResult } from "./result";
import type { Scenario } from "./scenario";

const host = (name: string, memory_mb: number) => ({ name, vcpus: 8, memory_mb, local_gb: 100 });
const scenario = (config: Record<string, unknown>): Scenario =>
  ({
    hosts: [host("a", 4096), host("b", 16384)],
    config: { enabled_filters: ["ComputeFilter", "ShardFilter"], weighers: ["RAMWeigher", "BlazarWeigher"], ...config },
    request: { flavor: { name: "f", vcpus: 1, memory_mb: 512, root_gb: 1 } },
  }) as unknown as Scenario;

describe("classes Schedscope does not simulate", () => {
  it.each<[string, Record<string, unknown>, string | null, string | null]>([
    ["a scenario file: Nova's KeyError", {}, "KeyError", null],
    ["a stored profile: passes every host, weighs 0, said on the result", { not_simulated: "pass" }, null, "b"],
    ["on the Placement path too", { not_simulated: "pass", placement: true }, null, "b"],
  ])("%s", (_name, config, error, chosen) => {
    const r = toResult(schedule(scenario(config)));
    expect(r.error).toBe(error);
    expect(r.selections[0]?.host ?? null).toBe(chosen);
    if (chosen) {
      expect(r.release_notes).toEqual([
        "ShardFilter: not simulated: passes every host",
        "BlazarWeigher: not simulated: weighs 0",
      ]);
      const shard = r.requests[0].funnel.find((f) => f.filter === "ShardFilter")!;
      expect([shard.in, shard.out]).toEqual([2, 2]);
    }
  });
});
