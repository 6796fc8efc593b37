/**
 * The Placement path piece by piece. Expected query strings are the ones
 * Nova's own ResourceRequest.to_querystring printed for the same request
 * through ../shared/nova-reference/placement_reference.py.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { schedule } from "../engine";
import { toResult } from "../result";
import { freezeScenario, type Scenario, type ScenarioFlavor, type ScenarioHost } from "../scenario";
import { resourceExtraSpecErrors } from "./resource-request";

function host(name: string, over: Partial<ScenarioHost> = {}): ScenarioHost {
  return {
    name,
    vcpus: 32,
    memory_mb: 65536,
    local_gb: 1000,
    supported_instances: [["x86_64", "kvm", "hvm"]],
    ...over,
  };
}

function run(over: Partial<Scenario> & { hosts: ScenarioHost[] }, flavor: Partial<ScenarioFlavor> = {}) {
  const s: Scenario = {
    ...over,
    config: { placement: true, enabled_filters: ["ComputeFilter"], weighers: ["RAMWeigher"], ...over.config },
    request: {
      project_id: "proj-a",
      ...over.request,
      flavor: { name: "m1", vcpus: 4, memory_mb: 8192, root_gb: 40, ...flavor },
    },
  };
  return toResult(schedule(s));
}

describe("the resource request and its query string", () => {
  it.each([
    [
      "flavor sizes and the always-on disabled-compute filter",
      {},
      {},
      "limit=1000&resources=DISK_GB%3A40%2CMEMORY_MB%3A8192%2CVCPU%3A4&root_required=%21COMPUTE_STATUS_DISABLED",
    ],
    [
      "flavor and image traits, the isolated aggregate and image metadata request filters",
      { enable_isolated_aggregate_filtering: true, image_metadata_prefilter: true },
      {
        flavor: {
          memory_mb: 16384,
          root_gb: 80,
          extra_specs: { "trait:CUSTOM_MAINTENANCE": "forbidden", "trait:HW_CPU_X86_AVX512F": "required" },
        },
        image: { properties: { hw_architecture: "x86_64", "trait:CUSTOM_LICENSED_WINDOWS": "required" } },
        aggregates: [{ name: "gpu", hosts: ["h"], metadata: { "trait:CUSTOM_GPU": "required" } }],
      },
      "limit=1000&member_of=%21in%3Ae90fd577-aeb2-54b0-826c-70c7ce7f75b4&required=CUSTOM_LICENSED_WINDOWS%2CHW_CPU_X86_AVX512F%2C%21CUSTOM_MAINTENANCE&resources=DISK_GB%3A80%2CMEMORY_MB%3A16384%2CVCPU%3A4&root_required=HW_ARCH_X86_64%2C%21COMPUTE_STATUS_DISABLED",
    ],
    [
      "resources:VCPU=0 removes the class; swap counts in whole GB",
      {},
      { flavor: { swap: 1536, extra_specs: { "resources:VCPU": "0" } } },
      "limit=1000&resources=DISK_GB%3A42%2CMEMORY_MB%3A8192&root_required=%21COMPUTE_STATUS_DISABLED",
    ],
    [
      "a bad amount is ignored, as Nova logs and ignores it",
      {},
      { flavor: { extra_specs: { "resources:VCPU": "abc" } } },
      "limit=1000&resources=DISK_GB%3A40%2CMEMORY_MB%3A8192%2CVCPU%3A4&root_required=%21COMPUTE_STATUS_DISABLED",
    ],
    [
      "boot from volume asks no root disk; a different_host hint drops the limit",
      {},
      { is_bfv: true, scheduler_hints: { different_host: ["x"] } },
      "resources=MEMORY_MB%3A8192%2CVCPU%3A4&root_required=%21COMPUTE_STATUS_DISABLED",
    ],
    [
      "granular groups and group_policy",
      {},
      {
        flavor: { extra_specs: { "resources1:VGPU": "1", "trait1:CUSTOM_GOLD": "required", group_policy: "isolate" } },
      },
      "group_policy=isolate&limit=1000&required1=CUSTOM_GOLD&resources=DISK_GB%3A40%2CMEMORY_MB%3A8192%2CVCPU%3A4&resources1=VGPU%3A1&root_required=%21COMPUTE_STATUS_DISABLED",
    ],
  ])("%s", (_what, config, req, query) => {
    const { flavor, aggregates, ...request } = req as Record<string, unknown>;
    const r = run(
      {
        hosts: [host("h")],
        config: config as Scenario["config"],
        aggregates: aggregates as Scenario["aggregates"],
        request: request as unknown as Scenario["request"],
      },
      flavor as Partial<ScenarioFlavor>,
    );
    expect(r.placement?.query).toBe(query);
  });

  it("hw:cpu_policy=dedicated asks PCPU, then VCPU as the fallback query", () => {
    const r = run(
      { hosts: [host("h", { pcpus: 8 })] },
      { extra_specs: { "hw:cpu_policy": "dedicated", "hw:cpu_thread_policy": "isolate" } },
    );
    expect(r.placement?.query).toBe(
      "limit=1000&required=%21HW_CPU_HYPERTHREADING&resources=DISK_GB%3A40%2CMEMORY_MB%3A8192%2CPCPU%3A4&root_required=%21COMPUTE_STATUS_DISABLED",
    );
    expect(r.placement?.fallback_query).toBe(
      "limit=1000&resources=DISK_GB%3A40%2CMEMORY_MB%3A8192%2CVCPU%3A4&root_required=%21COMPUTE_STATUS_DISABLED",
    );
    expect(r.placement?.candidates).toBe(2);
  });

  it.each([
    [{ "resources:VCPU": "abc" }, ['flavor.extra_specs["resources:VCPU"]: must be a non-negative integer, got "abc"']],
    [
      { "resources1:BOGUS": "1" },
      ['flavor.extra_specs["resources1:BOGUS"]: unknown resource class BOGUS (standard or CUSTOM_*)'],
    ],
    [{ "resources:CUSTOM_X": "2", "hw:cpu_policy": "dedicated" }, []],
  ])("extra specs %j are validated for forms: %j", (specs, errors) => {
    expect(resourceExtraSpecErrors(specs)).toEqual(errors);
  });
});

describe("allocation candidates say why a host is not one", () => {
  it.each([
    ["VCPU", host("x", { vcpus: 8, vcpus_used: 29 }), "VCPU: 3 free, needs 4", "VCPU_SHORT"],
    [
      "reserved memory",
      host("x", { reserved_memory_mb: 60000 }),
      "MEMORY_MB: 5,536 free, needs 8,192",
      "MEMORY_MB_SHORT",
    ],
    [
      "a disabled compute",
      host("x", { service: { disabled: true } }),
      "compute service disabled (COMPUTE_STATUS_DISABLED)",
      "DISABLED",
    ],
    ["a missing trait", host("x"), "lacks trait CUSTOM_NVME", "TRAIT_MISSING"],
    [
      "max_unit",
      host("x", { inventories: { VGPU: { total: 4, max_unit: 1 } } }),
      "VGPU: needs 2, above max_unit 1",
      "RESOURCE_UNIT",
    ],
  ])("%s", (what, bad, message, code) => {
    const flavor: Partial<ScenarioFlavor> =
      what === "a missing trait"
        ? { extra_specs: { "trait:CUSTOM_NVME": "required" } }
        : what === "max_unit"
          ? { extra_specs: { "resources:VGPU": "2" } }
          : {};
    const good = host("good", {
      traits: ["CUSTOM_NVME"],
      inventories: { VGPU: { total: 4 } },
    });
    const r = run({ hosts: [bad, good] }, flavor);
    const stage = r.requests[0].funnel[0];
    expect(stage).toMatchObject({
      filter: "Placement",
      in: 2,
      out: 1,
      rejected: ["x"],
      reasons: [message],
      codes: [code],
    });
  });

  it("tenant aggregates match the whole filter_tenant_id value, not comma-split items", () => {
    const r = run({
      hosts: [host("mine"), host("shared"), host("other")],
      config: { limit_tenants_to_placement_aggregate: true },
      aggregates: [
        { name: "a", hosts: ["mine"], metadata: { filter_tenant_id: "proj-a" } },
        { name: "ab", hosts: ["shared"], metadata: { filter_tenant_id: "proj-a,proj-b" } },
      ],
    });
    expect(r.requests[0].funnel[0].rejected).toEqual(["shared", "other"]);
    expect(r.requests[0].funnel[0].reasons[0]).toBe("not in an aggregate of project proj-a");
  });

  it("the default zone nova is no constraint: Nova places the instance", () => {
    const r = run({ hosts: [host("a"), host("b")], request: { availability_zone: "nova" } as Scenario["request"] });
    expect(r.error).toBeNull();
    expect(r.requests[0].funnel[0].out).toBe(2);
  });

  it("10,000 hosts and max_placement_results 1,000: 9,000 were never considered, and why", () => {
    const hosts = Array.from({ length: 10000 }, (_, i) => host(`cmp-${i}`));
    const r = run({ hosts, config: { max_placement_results: 1000, enabled_filters: [] } });
    const stage = r.requests[0].funnel[0];
    expect([stage.in, stage.out, stage.rejected.length]).toEqual([10000, 1000, 9000]);
    expect(new Set(stage.codes)).toEqual(new Set(["NOT_IN_CANDIDATE_LIMIT"]));
    expect(stage.reasons[0]).toBe(
      "matched, but not among the first 1,000 allocation candidates (max_placement_results = 1000): never considered by the filters",
    );
    expect(r.placement).toMatchObject({ matched: 10000, candidates: 1000 });
    // randomize_allocation_candidates is off: the first 1,000 of Placement's list, which the
    // reference pins to provider creation order (= scenario order)
    expect(stage.rejected[0]).toBe("cmp-1000");
    expect(stage.rejected.at(-1)).toBe("cmp-9999");
    expect(r.requests[0].weighed.map((w) => w.host).sort()).toEqual(
      hosts
        .slice(0, 1000)
        .map((h) => h.name)
        .sort(),
    );
  });

  it("the NoValidHost summary counts the hosts the limit kept out beside what removed the others", () => {
    // the first 1,000 hosts' services are down (Placement does not know); the other 9,000 never get to the filters
    const hosts = Array.from({ length: 10000 }, (_, i) => host(`cmp-${i}`, i < 1000 ? { service: { up: false } } : {}));
    const r = run({ hosts, config: { max_placement_results: 1000 } });
    expect(r.error).toBe("NoValidHost");
    expect(r.diagnosis?.summary).toMatch(
      /^0\/10,000 hosts available: 9,000 not among the first 1,000 allocation candidates, 1,000 /,
    );
  });
});

describe("a frozen cloud (the app's cached snapshot) asked again", () => {
  it("starts from what the hosts report every time: one request's claims do not leak into the next", () => {
    const scenario: Scenario = {
      config: { placement: true, enabled_filters: [], weighers: ["RAMWeigher"] },
      hosts: [host("big-1", { memory_mb: 131072, reserved_memory_mb: 110592 }), host("mid-1")],
      request: {
        project_id: "proj-a",
        num_instances: 2,
        flavor: { name: "m1", vcpus: 4, memory_mb: 12288, root_gb: 40 },
      } as Scenario["request"],
    };
    const fresh = toResult(schedule(structuredClone(scenario)));
    const frozen = freezeScenario(structuredClone(scenario));
    const answers = [0, 1, 2].map(() => toResult(schedule(frozen)));
    expect(fresh.placement?.claims).toEqual([
      { index: 0, tried: [], claimed: "big-1" },
      { index: 1, tried: ["big-1"], claimed: "mid-1" },
    ]);
    for (const a of answers) expect({ ...a, timing: null }).toEqual({ ...fresh, timing: null });
  });
});

describe("claims", () => {
  it("a claim that fails moves down the list; the failed host stays for the next instance", () => {
    // big-1's reserved memory is invisible to the host state but not to Placement.
    const r = run(
      {
        hosts: [
          host("big-1", { memory_mb: 131072, reserved_memory_mb: 110592 }),
          host("mid-1", { memory_mb_used: 16384 }),
          host("mid-2", { memory_mb_used: 32768 }),
        ],
        request: { num_instances: 3 } as Scenario["request"],
      },
      { memory_mb: 12288 },
    );
    expect(r.placement?.claims).toEqual([
      { index: 0, tried: [], claimed: "big-1" },
      { index: 1, tried: ["big-1"], claimed: "mid-1" },
      { index: 2, tried: ["big-1"], claimed: "mid-1" },
    ]);
    expect(r.selections.map((s) => s.host)).toEqual(["big-1", "mid-1", "mid-1"]);
  });

  it("NoValidHost before any query when no aggregate is the project's and one is required", () => {
    const r = run({
      hosts: [host("a")],
      config: { limit_tenants_to_placement_aggregate: true, placement_aggregate_required_for_tenants: true },
    });
    expect(r).toMatchObject({ error: "NoValidHost", requests: [], placement: { query: null, candidates: 0 } });
    expect(r.diagnosis?.summary).toBe("0/1 hosts available: No hosts available for tenant proj-a");
  });
});

describe("the NoValidHost summary groups by reason code", () => {
  it("names what Placement removed, not a filter that saw no host", () => {
    const hosts = [
      ...Array.from({ length: 3 }, (_, i) => host(`small-${i}`, { vcpus: 1, cpu_allocation_ratio: 1 })),
      host("off", { service: { disabled: true } }),
    ];
    const r = run({ hosts });
    expect(r.error).toBe("NoValidHost");
    expect(r.diagnosis).toMatchObject({
      summary: "0/4 hosts available: 3 VCPU short, 1 compute service disabled (COMPUTE_STATUS_DISABLED)",
      lastFilter: "Placement",
    });
    expect(r.diagnosis?.groups?.map((g) => [g.code, g.count])).toEqual([
      ["VCPU_SHORT", 3],
      ["DISABLED", 1],
    ]);
  });
});

describe("Placement looks names up lazily: an empty step answers 200 before a later name is looked up", () => {
  // research_context.py: root traits, then per group (sorted query order) classes,
  // member_of, traits, capacity, candidates; the first empty step stops the search.
  // The same cases with hw:cpu_policy=dedicated are the fixtures placement-lazy-validation-*
  // (Nova's answers: a refused fallback query is Zed's TypeError).
  // run() adds the flavor to the request.
  const scsi = {
    config: { image_metadata_prefilter: true },
    request: { image: { properties: { hw_disk_bus: "scsi" } } },
  } as unknown as Partial<Scenario>;
  it.each<[string, Partial<Scenario>, ScenarioHost[], Record<string, string>, boolean]>([
    [
      "no host has the root trait (image hw_disk_bus=scsi): the unknown trait is never looked up",
      scsi,
      [host("a")],
      { "trait:HW_CPU_X86_BOGUS": "required" },
      false,
    ],
    [
      "a host has the root trait: the unknown trait is a 400",
      scsi,
      [host("a", { traits: ["COMPUTE_STORAGE_BUS_SCSI"] })],
      { "trait:HW_CPU_X86_BOGUS": "required" },
      true,
    ],
    [
      "no root trait asked: the unknown trait is a 400",
      {},
      [host("a")],
      { "trait:HW_CPU_X86_BOGUS": "required" },
      true,
    ],
    [
      "no host has room for the group: traits are looked up before capacity, a 400",
      {},
      [host("a", { vcpus: 2 })],
      { "trait:HW_CPU_X86_BOGUS": "required" },
      true,
    ],
    [
      "the project's aggregate has no host (member_of matches nothing): the unknown trait is never looked up",
      {
        config: { limit_tenants_to_placement_aggregate: true },
        aggregates: [{ name: "empty", hosts: [], metadata: { filter_tenant_id: "proj-a" } }],
      },
      [host("a")],
      { "trait:HW_CPU_X86_BOGUS": "required" },
      false,
    ],
    [
      "an unknown resource class is looked up before the group's capacity",
      {},
      [host("a", { vcpus: 2 })],
      { "resources:CUSTOM_NOPE": "1" },
      true,
    ],
  ])("%s", (_, over, hosts, extra_specs, refused) => {
    const r = run({ ...over, hosts } as Partial<Scenario> & { hosts: ScenarioHost[] }, { extra_specs });
    expect(r.error).toBe("NoValidHost");
    expect(r.diagnosis?.groups?.some((g) => g.code === "PLACEMENT_REFUSED")).toBe(refused);
  });
});

// The trees and Ironic cases below were answered the same by placement_reference.py.
describe("provider trees (child providers under compute nodes)", () => {
  const gpu = (name: string, total: number, used: number, traits: string[] = []) => ({
    name,
    inventories: { VGPU: { total } },
    usages: { VGPU: used },
    traits,
  });

  it("one allocation request per way to fit, in provider creation order; Nova claims a host's first only", () => {
    // gpu-3's first request takes the GPU with one vGPU left: the second instance cannot claim gpu-3 again.
    const r = run(
      {
        hosts: [
          host("gpu-2", { memory_mb_used: 32768, child_providers: [gpu("gpu-2_a", 16, 16), gpu("gpu-2_b", 16, 4)] }),
          host("gpu-3", { child_providers: [gpu("gpu-3_a", 16, 15), gpu("gpu-3_b", 16, 0)] }),
        ],
        request: { num_instances: 2 } as Scenario["request"],
      },
      { extra_specs: { "resources:VGPU": "1" } },
    );
    const vm = { DISK_GB: 40, MEMORY_MB: 8192, VCPU: 4 };
    expect(r.placement?.allocation_requests).toEqual([
      { "gpu-2": vm, "gpu-2_b": { VGPU: 1 } },
      { "gpu-3": vm, "gpu-3_a": { VGPU: 1 } },
      { "gpu-3": vm, "gpu-3_b": { VGPU: 1 } },
    ]);
    expect(r.placement?.claims).toEqual([
      { index: 0, tried: [], claimed: "gpu-3", allocations: { "gpu-3": vm, "gpu-3_a": { VGPU: 1 } } },
      { index: 1, tried: ["gpu-3"], claimed: "gpu-2", allocations: { "gpu-2": vm, "gpu-2_b": { VGPU: 1 } } },
    ]);
  });

  it.each<[string, Record<string, string>, string | null, number]>([
    ["isolate: two PFs, both orders of the groups", { group_policy: "isolate" }, null, 2],
    ["none: the groups may also share a PF", { group_policy: "none" }, null, 4],
    ["no group_policy with two numbered groups: Placement answers 400", {}, "PLACEMENT_REFUSED", 0],
  ])("granular groups, %s", (_, policy, refused, candidates) => {
    const pf = (name: string) => ({
      name,
      parent: "nic",
      inventories: { SRIOV_NET_VF: { total: 8 } },
      traits: ["CUSTOM_PHYSNET_DATA"],
    });
    // children listed before their parent
    const r = run(
      { hosts: [host("net-1", { child_providers: [pf("pf0"), pf("pf1"), { name: "nic" }] })] },
      {
        extra_specs: {
          "resources1:SRIOV_NET_VF": "1",
          "trait1:CUSTOM_PHYSNET_DATA": "required",
          "resources2:SRIOV_NET_VF": "1",
          "trait2:CUSTOM_PHYSNET_DATA": "required",
          ...policy,
        },
      },
    );
    expect(r.placement?.candidates).toBe(candidates);
    expect(r.error).toBe(candidates ? null : "NoValidHost");
    expect(r.diagnosis?.groups?.[0]?.code ?? null).toBe(refused);
  });

  it("a child whose parent is unknown is refused by Placement", () => {
    const r = run({ hosts: [host("a", { child_providers: [{ name: "x", parent: "nope" }] })] });
    expect(r.error).toBe("PlacementSetupError");
  });
});

describe("several nodes on one service host (Ironic)", () => {
  const node = (n: string, rc: string, deployed = false): ScenarioHost =>
    host("ironic-1", {
      node: n,
      vcpus: 0,
      memory_mb: 0,
      local_gb: 0,
      hypervisor_type: "ironic",
      inventories: { [rc]: { total: 1, reserved: deployed ? 1 : 0, used: deployed ? 1 : 0 } },
    });

  it("one provider per node; only Placement tells a deployed node from a free one; results name the nodes", () => {
    const r = run(
      {
        hosts: [
          node("bm-1", "CUSTOM_BAREMETAL_GOLD", true),
          node("bm-2", "CUSTOM_BAREMETAL_GOLD"),
          node("bm-3", "CUSTOM_BAREMETAL_SILVER"),
        ],
      },
      {
        extra_specs: {
          "resources:CUSTOM_BAREMETAL_GOLD": "1",
          "resources:VCPU": "0",
          "resources:MEMORY_MB": "0",
          "resources:DISK_GB": "0",
        },
      },
    );
    expect(r.requests[0].funnel[0]).toMatchObject({
      rejected: ["ironic-1", "ironic-1"],
      rejected_nodes: ["bm-1", "bm-3"],
    });
    expect(r.selections).toEqual([{ host: "ironic-1", node: "bm-2", alternates: [], alternate_nodes: [] }]);
    expect(r.placement?.claims).toEqual([
      { index: 0, tried: [], claimed: "ironic-1", tried_nodes: [], claimed_node: "bm-2" },
    ]);
  });

  it("without Placement every node of the listed host is an aggregate member and nothing is consumed", () => {
    const r = run(
      {
        hosts: [node("bm-1", "CUSTOM_BAREMETAL_GOLD", true), node("bm-2", "CUSTOM_BAREMETAL_GOLD"), host("cmp")],
        aggregates: [{ name: "bm", hosts: ["ironic-1"], metadata: { baremetal: "true" } }],
        config: { placement: false, enabled_filters: ["AggregateInstanceExtraSpecsFilter"] },
        request: { num_instances: 2 } as Scenario["request"],
      },
      { vcpus: 0, memory_mb: 0, root_gb: 0, extra_specs: { "aggregate_instance_extra_specs:baremetal": "true" } },
    );
    expect(r.requests[0].funnel[0]).toMatchObject({ rejected: ["cmp"], rejected_nodes: ["cmp"] });
    expect(r.selections.map((s) => [s.host, s.node])).toEqual([
      ["ironic-1", "bm-1"],
      ["ironic-1", "bm-1"],
    ]);
  });
});

describe("a query whose answer real Placement does not fix", () => {
  // From placement-gen.py --nested (seed 9911): group_policy=isolate, the unnumbered group and two numbered
  // ones taking SR-IOV VFs from one node's physical functions. Nova's reference, run three times on it,
  // returned 3, 5 and 3 allocation requests, different ones each time.
  const text = readFileSync(path.join(__dirname, "testdata/isolate-shared-amounts.scenario.json"), "utf8");

  it("says on the result that real Placement may answer it differently", () => {
    const result = toResult(schedule(JSON.parse(text) as Scenario));
    expect(result.placement?.order_dependent).toBe(true);
  });

  it("says nothing of the kind when each group takes from its own provider", () => {
    const sc = JSON.parse(text) as Scenario;
    sc.request.flavor.extra_specs = { "resources1:SRIOV_NET_VF": "2", "trait1:CUSTOM_PHYSNET_MGMT": "required" };
    const result = toResult(schedule(sc));
    expect(result.placement?.query).toContain("resources1=SRIOV_NET_VF");
    expect(result.placement?.order_dependent).toBeUndefined();
  });
});
