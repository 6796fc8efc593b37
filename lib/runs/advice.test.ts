/** NoValidHost advice from the reason codes of a real engine run. */
import { describe, expect, it } from "vitest";
import { schedule, toResult } from "@/lib/scheduler";
import type { Scenario, ScenarioHost } from "@/lib/scheduler/scenario";
import { buildDemoCloud, DEFAULT_PROFILE_CONFIG, DEMO_FLAVORS } from "@/lib/demo/cloud";
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

describe("advice per code, from the filters' codes", () => {
  const run = (scenario: Scenario) => {
    const result = toResult(schedule(scenario));
    return { result, d: explainFailure(result, scenario.request) };
  };
  const base = (config: Scenario["config"], hosts: ScenarioHost[], request: Partial<Scenario["request"]> = {}) =>
    ({
      config,
      hosts,
      aggregates: [{ name: "big", hosts: ["a"], metadata: { highmem: "false", filter_tenant_id: "other" } }],
      request: { project_id: "acme", flavor: { name: "r1", vcpus: 1, memory_mb: 512 }, ...request },
    }) as Scenario;

  it.each([
    [
      "AGGREGATE_EXTRA_SPEC_MISSING / _MISMATCH: what the flavor asks, read from the flavor",
      base({ enabled_filters: ["AggregateInstanceExtraSpecsFilter"] }, [host("a"), host("b")], {
        flavor: {
          name: "r1",
          vcpus: 1,
          memory_mb: 512,
          extra_specs: { "aggregate_instance_extra_specs:highmem": "true" },
        },
      }),
      ["AGGREGATE_EXTRA_SPEC_MISMATCH", "AGGREGATE_EXTRA_SPEC_MISSING"],
      /Add highmem=true to the metadata of an aggregate.*remove aggregate_instance_extra_specs:highmem from flavor r1/,
    ],
    [
      "TENANT_NOT_ALLOWED",
      base({ enabled_filters: ["AggregateMultiTenancyIsolation"] }, [host("a")]),
      ["TENANT_NOT_ALLOWED"],
      /reserved for other projects .*instead of acme/,
    ],
    [
      "TOO_MANY_INSTANCES and DOWN in one stage each: the last stage's advice",
      base({ enabled_filters: ["ComputeFilter", "NumInstancesFilter"], max_instances_per_host: 1 }, [
        host("a", { num_instances: 1 }),
        host("b", { service: { up: false } }),
      ]),
      ["TOO_MANY_INSTANCES"],
      /max_instances_per_host instances already/,
    ],
    [
      "TRAIT_MISSING in Placement: the flavor's required trait",
      base({ placement: true, enabled_filters: [] }, [host("a")], {
        flavor: { name: "r1", vcpus: 1, memory_mb: 512, extra_specs: { "trait:CUSTOM_NVME": "required" } },
      }),
      ["TRAIT_MISSING"],
      /Add trait CUSTOM_NVME to hosts that have it/,
    ],
    [
      "ANTI_AFFINITY_THIS_REQUEST: a multi-instance boot runs out of hosts for its own instances",
      {
        ...base({ enabled_filters: ["ServerGroupAntiAffinityFilter"] }, [host("a"), host("b")], {
          num_instances: 3,
          server_group: "web",
        }),
        server_groups: [{ name: "web", policy: "anti-affinity", members: [] }],
      } as Scenario,
      ["ANTI_AFFINITY_THIS_REQUEST"],
      /own instances are members .*a request for 3 instances needs/,
    ],
  ])("%s", (_what, scenario, codes, advice) => {
    const { d } = run(scenario);
    expect(uniqueCodes(d?.lastReasons)).toEqual(codes);
    expect(d?.advice.join(" ")).toMatch(advice);
  });

  it("never reads the message text: the same codes with other words give the same advice", () => {
    const scenario = base({ enabled_filters: ["ComputeFilter"] }, [
      host("a", { service: { disabled: true } }),
      host("b", { service: { up: false } }),
    ]);
    const { result, d } = run(scenario);
    const reworded = structuredClone(result);
    for (const f of reworded.requests[0].funnel) f.reasons = f.reasons.map(() => "zzz");
    const again = explainFailure(reworded, scenario.request);
    expect(again?.advice).toEqual(d?.advice);
    expect(d?.advice.join(" ")).toMatch(/compute service set --enable.*Bring nova-compute back up/);
  });
});

function uniqueCodes(groups: { code?: string }[] | undefined): string[] {
  return [...new Set((groups ?? []).map((g) => g.code ?? ""))].sort();
}

it("the demo cloud's r1.2xlarge in az3 (as e2e/schedule.spec.ts asks it in the browser): advice from the flavor", () => {
  const cloud = buildDemoCloud() as Scenario;
  const flavor = DEMO_FLAVORS.find((f) => f.name === "r1.2xlarge");
  const request = { flavor, availability_zone: "az3" } as Scenario["request"];
  const d = explainFailure(toResult(schedule({ ...cloud, config: DEFAULT_PROFILE_CONFIG, request })), request);
  expect(d?.lastFilter).toBe("AggregateInstanceExtraSpecsFilter");
  expect(d?.advice.join(" ")).toContain("Add highmem=true to the metadata of an aggregate whose hosts have capacity");
  expect(d?.advice.join(" ")).toContain("remove aggregate_instance_extra_specs:highmem from flavor r1.2xlarge");
});
