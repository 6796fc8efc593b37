import { describe, expect, it } from "vitest";
import { describeReasons, explainFailure, groupReasons } from "./advice";
import { fmtMultiplier, fmtNormalized, fmtRaw, fmtWeight } from "./format";
import { noValidHost, ok, request, stage, weighed } from "@/lib/testing/results";
import { buildFateIndex, buildRunView, chartRows, findFates, multiplierUses, rejectedPage, weighedPage } from "./view";

/** 40 survivors h01..h40 (weight 40..1) after ComputeFilter removed x1, x2. */
function bigRun(alternates = ["h30", "h02"]) {
  const hosts = Array.from({ length: 40 }, (_, i) => `h${String(i + 1).padStart(2, "0")}`);
  const w = weighed(
    ...hosts.map(
      (h, i) =>
        [
          h,
          40 - i,
          {
            RAMWeigher: [1000 - i, (40 - i) / 40, i < 5 ? -1 : 1, i < 5 ? "aggregate gpu" : undefined],
            CPUWeigher: [10, 0, 1],
          },
        ] as [string, number, Record<string, [number, number, number, string?]>],
    ),
  );
  return ok(
    [
      request(
        0,
        [
          stage("ComputeFilter", 42, [
            ["x1", "compute service disabled"],
            ["x2", "compute service down (not heard from)"],
          ]),
        ],
        w,
        "h01",
      ),
    ],
    [alternates],
  );
}

describe("chartRows", () => {
  it.each([
    ["alternates within the top 25", ["h02", "h03"], 25, ["h01", "h02", "h03"]],
    ["an alternate ranked 30th is added", ["h30", "h02"], 26, ["h01", "h02", "h30"]],
    ["top 25 only", [], 25, ["h01"]],
  ])("%s", (_name, alternates, count, marked) => {
    const rows = chartRows(bigRun(alternates as string[]), 0);
    expect(rows).toHaveLength(count as number);
    expect(rows.filter((r) => r.role).map((r) => r.host)).toEqual(marked);
    expect(rows.map((r) => r.rank)).toEqual([...rows.map((r) => r.rank)].sort((a, b) => a - b));
    expect(rows[0]).toMatchObject({ rank: 1, host: "h01", role: "chosen" });
  });

  it("numbers the alternates in the selection's order", () => {
    const rows = chartRows(bigRun(["h30", "h02"]), 0);
    expect(rows.find((r) => r.host === "h30")).toMatchObject({ role: "alternate", alternate: 1, rank: 30 });
    expect(rows.find((r) => r.host === "h02")).toMatchObject({ role: "alternate", alternate: 2, rank: 2 });
  });
});

describe("pages", () => {
  it.each([
    [{}, 25, 40, "h01", "h25"],
    [{ offset: 25 }, 15, 40, "h26", "h40"],
    [{ offset: 10, limit: 5 }, 5, 40, "h11", "h15"],
    [{ q: "H3" }, 10, 10, "h30", "h39"],
    [{ q: "h3", offset: 5, limit: 2 }, 2, 10, "h35", "h36"],
    [{ q: "nope" }, 0, 0, undefined, undefined],
    [{ limit: 100000 }, 40, 40, "h01", "h40"],
  ])("weighedPage(%j)", (query, rows, total, first, last) => {
    const p = weighedPage(bigRun(), 0, query);
    expect(p.rows).toHaveLength(rows);
    expect(p.total).toBe(total);
    expect(p.rows[0]?.host).toBe(first);
    expect(p.rows.at(-1)?.host).toBe(last);
  });

  it("rejectedPage lists every host that fell out with its filter and reason", () => {
    const p = rejectedPage(bigRun(), 0);
    expect(p.total).toBe(2);
    expect(p.rows).toEqual([
      { host: "x1", index: 0, step: 0, filter: "ComputeFilter", stage: "filter", reason: "compute service disabled" },
      {
        host: "x2",
        index: 0,
        step: 0,
        filter: "ComputeFilter",
        stage: "filter",
        reason: "compute service down (not heard from)",
      },
    ]);
    expect(rejectedPage(bigRun(), 0, { q: "X2" }).rows.map((r) => r.host)).toEqual(["x2"]);
    expect(rejectedPage(bigRun(), 5).total).toBe(0);
  });
});

describe("multiplierUses", () => {
  it("says where each weigher's multiplier came from, and for how many hosts", () => {
    expect(multiplierUses(bigRun().requests[0])).toEqual([
      { weigher: "RAMWeigher", multiplier: 1, source: "config", hosts: 35 },
      { weigher: "RAMWeigher", multiplier: -1, source: "aggregate gpu", hosts: 5 },
      { weigher: "CPUWeigher", multiplier: 1, source: "config", hosts: 40 },
    ]);
  });
});

describe("buildRunView", () => {
  it("summarizes every instance and details the first", () => {
    const v = buildRunView(bigRun());
    expect(v.error).toBeNull();
    expect(v.diagnosis).toBeNull();
    expect(v.instances[0]).toMatchObject({
      index: 0,
      chosen: "h01",
      alternates: ["h30", "h02"],
      hostsIn: 42,
      survivors: 40,
      rejected: 2,
    });
    expect(v.instances[0].funnel).toEqual([
      {
        filter: "ComputeFilter",
        stage: "filter",
        in: 42,
        out: 40,
        removed: 2,
        reasons: [
          { reason: "compute service disabled", count: 1 },
          { reason: "compute service down (not heard from)", count: 1 },
        ],
        otherReasons: 0,
      },
    ]);
    expect(v.detail0?.weigherNames).toEqual(["RAMWeigher", "CPUWeigher"]);
    expect(v.detail0?.table.rows).toHaveLength(25);
    expect(v.detail0?.whyNot.total).toBe(2);
  });

  it("keeps the top 3 reasons of a stage and counts the others", () => {
    const rej: Array<[string, string]> = [
      ["a", "r1"],
      ["b", "r1"],
      ["c", "r2"],
      ["d", "r3"],
      ["e", "r4"],
      ["f", "r5"],
      ["g", "r1"],
    ];
    const v = buildRunView(ok([request(0, [stage("F", 8, rej)], weighed(["z", 0]))]));
    expect(v.instances[0].funnel[0].reasons).toEqual([
      { reason: "r1", count: 3 },
      { reason: "r2", count: 1 },
      { reason: "r3", count: 1 },
    ]);
    expect(v.instances[0].funnel[0].otherReasons).toBe(2);
  });
});

describe("why not host X (fate index)", () => {
  const run = ok(
    [
      request(
        0,
        [stage("ComputeFilter", 4, [["cmp-042", "compute service disabled"]])],
        weighed(["cmp-001", 2], ["cmp-002", 1], ["cmp-0420", 0]),
      ),
      request(
        1,
        [stage("NumInstancesFilter", 3, [["cmp-0420", "1 instances already (max 1)"]])],
        weighed(["cmp-002", 1], ["cmp-001", 0]),
      ),
    ],
    [["cmp-001"], ["cmp-001"]],
  );
  const idx = buildFateIndex(run);

  it.each([
    ["cmp-042", ["cmp-042", "cmp-0420"], "rejected:ComputeFilter,skipped"],
    ["CMP-001", ["cmp-001"], "weighed:1:chosen,weighed:2:alternate"],
    ["0420", ["cmp-0420"], "weighed:3:null,rejected:NumInstancesFilter"],
    ["nothing", [], ""],
    ["  ", [], ""],
  ])("search %j", (q, hosts, firstSteps) => {
    const r = findFates(idx, q);
    expect(r.hosts.map((h) => h.host)).toEqual(hosts);
    const steps = r.hosts[0]?.steps.map((s) =>
      s.kind === "rejected" ? `rejected:${s.filter}` : s.kind === "weighed" ? `weighed:${s.rank}:${s.role}` : s.kind,
    );
    expect((steps ?? []).join(",")).toBe(firstSteps);
  });

  it("gives the reason and weight", () => {
    const [h] = findFates(idx, "cmp-042").hosts;
    expect(h.steps[0]).toMatchObject({ kind: "rejected", reason: "compute service disabled" });
    const [g] = findFates(idx, "cmp-002").hosts;
    expect(g.steps[0]).toMatchObject({ kind: "weighed", rank: 2, weight: 1, survivors: 3 });
  });

  it("limits the hosts listed but counts them all", () => {
    const r = findFates(idx, "cmp", 2);
    expect(r.hosts).toHaveLength(2);
    expect(r.total).toBe(4);
  });
});

describe("NoValidHost explained", () => {
  const gpuReq = {
    flavor: {
      name: "gpu.large",
      vcpus: 8,
      memory_mb: 65536,
      extra_specs: { "aggregate_instance_extra_specs:gpu": "true", "trait:HW_GPU_API_VULKAN": "required" },
    },
    availability_zone: "az2",
  };
  it.each([
    {
      name: "aggregate metadata missing",
      last: stage(
        "AggregateInstanceExtraSpecsFilter",
        15,
        Array.from(
          { length: 15 },
          (_, i) =>
            [`h${i}`, "missing aggregate metadata gpu=true", "AGGREGATE_EXTRA_SPEC_MISSING"] as [
              string,
              string,
              string,
            ],
        ),
      ),
      explanation:
        "The last 15 hosts were removed by AggregateInstanceExtraSpecsFilter: missing aggregate metadata gpu=true (15 hosts).",
      advice:
        /Add gpu=true to the metadata of an aggregate whose hosts have capacity.*remove aggregate_instance_extra_specs:gpu from flavor gpu.large/s,
    },
    {
      name: "availability zone",
      last: stage("AvailabilityZoneFilter", 2, [
        ["a", "in availability zone az1, not az2"],
        ["b", "in availability zone az3, not az2"],
      ]),
      explanation:
        "The last 2 hosts were removed by AvailabilityZoneFilter: in availability zone az1, not az2 (1 host); in availability zone az3, not az2 (1 host).",
      advice: /availability zone az2/,
    },
    {
      name: "disabled hosts",
      last: stage("ComputeFilter", 1, [["a", "compute service disabled (maintenance)", "DISABLED"]]),
      explanation: "The last host was removed by ComputeFilter: compute service disabled (maintenance) (1 host).",
      advice: /openstack compute service set --enable HOST nova-compute/,
    },
    {
      name: "disabled hosts, stored before codes: the stage's advice, without guessing from the text",
      last: stage("ComputeFilter", 1, [["a", "compute service disabled (maintenance)"]]),
      explanation: "The last host was removed by ComputeFilter: compute service disabled (maintenance) (1 host).",
      advice: /^Enable or bring up the compute service of a host with capacity/,
    },
    {
      name: "placement traits",
      last: stage(
        "placement:traits",
        3,
        [
          ["a", "missing required trait HW_GPU_API_VULKAN"],
          ["b", "missing required trait HW_GPU_API_VULKAN"],
          ["c", "missing required trait HW_GPU_API_VULKAN"],
        ],
        "placement",
      ),
      explanation:
        "The last 3 hosts were removed by Placement: traits: missing required trait HW_GPU_API_VULKAN (3 hosts).",
      // a result stored before codes: the stage is the code, the flavor says which trait
      advice: /Add trait HW_GPU_API_VULKAN to hosts that have it/,
    },
    {
      name: "a filter without specific advice",
      last: stage("SomeCustomFilter", 1, [["a", "nope"]]),
      explanation: "The last host was removed by SomeCustomFilter: nope (1 host).",
      advice: /some host passes SomeCustomFilter/,
    },
  ])("$name", ({ last, explanation, advice }) => {
    const r = noValidHost([request(0, [stage("ComputeFilter", last.in), last], [])], last.filter);
    const d = explainFailure(r, gpuReq)!;
    expect(d.kind).toBe("no-valid-host");
    expect(d.lastFilter).toBe(last.filter);
    expect(d.explanation).toBe(explanation);
    expect(d.advice.join(" ")).toMatch(advice);
  });

  it("says which instance failed when an earlier one was placed", () => {
    const r = noValidHost(
      [
        request(0, [stage("F", 1)], weighed(["a", 0])),
        request(
          1,
          [
            stage("ServerGroupAntiAffinityFilter", 1, [
              ["a", "already running 1 of anti-affinity group g (max 1 per host)"],
            ]),
          ],
          [],
        ),
      ],
      "ServerGroupAntiAffinityFilter",
    );
    r.requests[0].chosen = "a";
    const d = explainFailure(r, { flavor: { name: "m1", vcpus: 1, memory_mb: 1 }, num_instances: 2 })!;
    expect(d.instance).toBe(2);
    expect(d.explanation).toMatch(/^The last host for instance 2 was removed by ServerGroupAntiAffinityFilter/);
    expect(d.advice.at(-1)).toMatch(/request fewer instances \(1\)/);
  });

  it("explains Nova's other errors and empty clouds", () => {
    const err = {
      error: "ComputeHostMetricNotFound",
      message: "metric cpu.percent not found",
      selections: [],
      requests: [],
      timing: { engine_ms: 0 },
    };
    expect(explainFailure(err)).toMatchObject({
      kind: "error",
      error: "ComputeHostMetricNotFound",
      summary: "metric cpu.percent not found",
    });
    const empty = noValidHost([request(0, [], [])], null, "0/0 hosts available");
    expect(explainFailure(empty)?.explanation).toMatch(/no hosts/);
    expect(explainFailure(ok([request(0, [], weighed(["a", 0]))]))).toBeNull();
  });

  it("groups and describes reasons", () => {
    const g = groupReasons(["x", "y", "x", "z", "w", "x", "v"]);
    expect(g[0]).toEqual({ reason: "x", count: 3 });
    expect(describeReasons(g, 2)).toBe("x (3 hosts); y (1 host); other reasons (3 hosts)");
  });
});

describe("fmtWeight", () => {
  it.each([
    [1.37, "1.3700"],
    [-0.5, "\u22120.5000"],
    [-0.00001, "0.0000"],
    [0, "0.0000"],
    [1000000, "1000000.0000"],
  ])("%s -> %s", (n, s) => expect(fmtWeight(n)).toBe(s));
});

describe("other formats", () => {
  it.each([
    [fmtRaw(-0), "0"],
    [fmtRaw(647168), "647,168"],
    [fmtRaw(-1.23456), "\u22121.235"],
    [fmtMultiplier(-0), "0"],
    [fmtMultiplier(-1), "\u22121"],
    [fmtMultiplier(1000000), "1000000"],
    [fmtNormalized(-0), "0.000"],
    [fmtNormalized(0.66666), "0.667"],
  ])("%s", (got, want) => expect(got).toBe(want));
});
