/** NoValidHost advice from the reason codes of a real engine run. */
import { describe, expect, it } from "vitest";
import { schedule, toResult } from "@/lib/scheduler";
import type { Scenario, ScenarioHost } from "@/lib/scheduler/scenario";
import { explainFailure } from "./advice";

const host = (name: string, over: Partial<ScenarioHost> = {}): ScenarioHost => ({
  name,
  vcpus: 8,
  memory_mb: 16384,
  local_gb: 500,
  ...over,
});

function failure(hosts: ScenarioHost[], config: Scenario["config"] = {}) {
  const request: Scenario["request"] = { project_id: "acme", flavor: { name: "m1", vcpus: 4, memory_mb: 4096 } };
  const result = toResult(schedule({ config: { placement: true, ...config }, hosts, request }));
  return explainFailure(result, request);
}

describe("advice reads reason codes", () => {
  it.each([
    ["VCPU short", [host("a", { vcpus_used: 30 })], {}, /short of VCPU/],
    ["disabled computes", [host("a", { service: { disabled: true } })], {}, /compute service set --enable/],
    [
      "the candidate limit",
      [host("a", { service: { up: false } }), host("b"), host("c")],
      { max_placement_results: 1, enabled_filters: ["ComputeFilter"] },
      /2 hosts matched Placement but were never considered .*raise max_placement_results/,
    ],
    [
      "the candidate limit at 1,200 hosts, counted as people read counts",
      Array.from({ length: 1200 }, (_, i) => host(`h-${i}`, i < 100 ? { service: { up: false } } : {})),
      { max_placement_results: 100, enabled_filters: ["ComputeFilter"] },
      /(^| )1,100 hosts matched Placement but were never considered .*raise max_placement_results/,
    ],
  ])("%s", (_what, hosts, config, advice) => {
    const d = failure(hosts, config as Scenario["config"]);
    expect(d?.error).toBe("NoValidHost");
    expect(d?.advice.join(" ")).toMatch(advice);
  });

  it("groups the last stage's hosts by code", () => {
    const d = failure([host("a", { vcpus_used: 30 }), host("b", { vcpus_used: 31 })]);
    expect(d?.lastReasons.map((g) => g.code)).toEqual(["VCPU_SHORT", "VCPU_SHORT"]);
    expect(d?.lastFilter).toBe("Placement");
  });
});
