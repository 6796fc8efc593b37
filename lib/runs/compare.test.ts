import { describe, expect, it } from "vitest";
import { schedule, toResult } from "@/lib/scheduler";
import { compareResults, releaseDifferences, sameVerdict, type Verdict, weigherChanges } from "./compare";
import { noValidHost, ok, request, stage, weighed } from "@/lib/testing/results";
import type { FunnelStep } from "@/lib/scheduler/result";

const F = "ComputeFilter";
const AZ = "AvailabilityZoneFilter";
const AGG = "AggregateInstanceExtraSpecsFilter";

/** A run of one instance: its filter stages, weighed hosts (best first) and alternates. */
const oneInstance = (stages: FunnelStep[], weights: Array<[string, number]>, alternates: string[]) =>
  ok([request(0, stages, weighed(...weights))], [alternates]);

// A: 4 hosts, h4 disabled; ranking h1 > h2 > h3
const A_STAGES = [stage(F, 4, [["h4", "compute service disabled"]]), stage(AGG, 3)];
const A_WEIGHTS: Array<[string, number]> = [
  ["h1", 3],
  ["h2", 2],
  ["h3", 1],
];
const A = oneInstance(A_STAGES, A_WEIGHTS, ["h2", "h3"]);

type Row = {
  name: string;
  b: ReturnType<typeof ok>;
  expect: {
    chosenChanged: boolean;
    alternatesAdded?: string[];
    alternatesRemoved?: string[];
    alternatesChanged?: boolean;
    /** [host, rankA, rankB, moved] */
    ranks: Array<[string, number | null, number | null, number | null]>;
    sameRank: number;
    /** [host, verdict A, verdict B] as "passed" | "rejected:Filter" | "absent" */
    verdicts: Array<[string, string, string]>;
    /** [filter, nowRejects, noLongerRejects] */
    filters: Array<[string, string[], string[]]>;
    identical: boolean;
  };
};

/** Run A again as far as instance 0's choice, alternates, ranks and verdicts go. */
const NOTHING_MOVED = {
  chosenChanged: false,
  alternatesChanged: false,
  ranks: [],
  sameRank: 3,
  verdicts: [],
  filters: [],
} satisfies Partial<Row["expect"]>;

const show = (v: Verdict) => (v.kind === "rejected" ? `rejected:${v.filter}` : v.kind);

const ROWS: Row[] = [
  {
    name: "the same run",
    b: A,
    expect: { ...NOTHING_MOVED, identical: true },
  },
  {
    name: "the ranking flips (an aggregate multiplier changed)",
    b: oneInstance(
      A_STAGES,
      [
        ["h3", 3],
        ["h2", 2],
        ["h1", 1],
      ],
      ["h2", "h1"],
    ),
    expect: {
      chosenChanged: true,
      alternatesAdded: ["h1"],
      alternatesRemoved: ["h3"],
      alternatesChanged: true,
      ranks: [
        ["h3", 3, 1, 2],
        ["h1", 1, 3, -2],
      ],
      sameRank: 1,
      verdicts: [],
      filters: [],
      identical: false,
    },
  },
  {
    name: "a host is re-enabled and passes, a new filter rejects another",
    b: oneInstance(
      [stage(F, 4), stage(AGG, 4, [["h2", "missing aggregate metadata gpu=true"]])],
      [
        ["h1", 3],
        ["h4", 2.5],
        ["h3", 1],
      ],
      ["h4", "h3"],
    ),
    expect: {
      chosenChanged: false,
      alternatesAdded: ["h4"],
      alternatesRemoved: ["h2"],
      alternatesChanged: true,
      ranks: [
        ["h4", null, 2, null],
        ["h2", 2, null, null],
      ],
      sameRank: 2,
      verdicts: [
        ["h4", `rejected:${F}`, "passed"],
        ["h2", "passed", `rejected:${AGG}`],
      ],
      filters: [
        [F, [], ["h4"]],
        [AGG, ["h2"], []],
      ],
      identical: false,
    },
  },
  {
    name: "a host rejected by another filter counts for both filters",
    b: oneInstance(
      [stage(F, 4), stage(AZ, 4, [["h4", "in availability zone az2, not az1"]]), stage(AGG, 3)],
      A_WEIGHTS,
      ["h2", "h3"],
    ),
    expect: {
      ...NOTHING_MOVED,
      verdicts: [["h4", `rejected:${F}`, `rejected:${AZ}`]],
      filters: [
        [F, [], ["h4"]],
        [AZ, ["h4"], []],
      ],
      identical: false,
    },
  },
  {
    name: "B fails with NoValidHost: every survivor of A is now rejected",
    b: noValidHost(
      [
        request(
          0,
          [
            stage(F, 4, [["h4", "compute service disabled"]]),
            stage(AGG, 3, [
              ["h1", "x"],
              ["h2", "x"],
              ["h3", "x"],
            ]),
          ],
          [],
        ),
      ],
      AGG,
    ),
    expect: {
      chosenChanged: true,
      alternatesRemoved: ["h2", "h3"],
      alternatesChanged: true,
      ranks: [
        ["h1", 1, null, null],
        ["h2", 2, null, null],
        ["h3", 3, null, null],
      ],
      sameRank: 0,
      verdicts: [
        ["h1", "passed", `rejected:${AGG}`],
        ["h2", "passed", `rejected:${AGG}`],
        ["h3", "passed", `rejected:${AGG}`],
      ],
      filters: [[AGG, ["h1", "h2", "h3"], []]],
      identical: false,
    },
  },
  {
    name: "the same rejection with a different reason text is no verdict change",
    b: oneInstance([stage(F, 4, [["h4", "compute service down (not heard from)"]]), stage(AGG, 3)], A_WEIGHTS, [
      "h2",
      "h3",
    ]),
    expect: { ...NOTHING_MOVED, identical: true },
  },
  {
    name: "alternates in another order only",
    b: oneInstance(A_STAGES, A_WEIGHTS, ["h3", "h2"]),
    expect: {
      chosenChanged: false,
      alternatesAdded: [],
      alternatesRemoved: [],
      alternatesChanged: true,
      ranks: [],
      sameRank: 3,
      verdicts: [],
      filters: [],
      identical: false,
    },
  },
];

describe("compareResults (run A vs run B, instance 0)", () => {
  it.each(ROWS)("$name", ({ b, expect: e }) => {
    const c = compareResults(A, b);
    const i = c.instances[0];
    expect(i.chosenChanged).toBe(e.chosenChanged);
    if (e.alternatesAdded) expect(i.alternatesAdded).toEqual(e.alternatesAdded);
    if (e.alternatesRemoved) expect(i.alternatesRemoved).toEqual(e.alternatesRemoved);
    if (e.alternatesChanged !== undefined) expect(i.alternatesChanged).toBe(e.alternatesChanged);
    expect(i.rankChanges.map((r) => [r.host, r.rankA, r.rankB, r.moved])).toEqual(e.ranks);
    expect(i.sameRank).toBe(e.sameRank);
    expect(i.verdictChanges.map((v) => [v.host, show(v.a), show(v.b)])).toEqual(e.verdicts);
    expect(i.filterChanges.map((f) => [f.filter, f.nowRejects, f.noLongerRejects])).toEqual(e.filters);
    expect(c.identical).toBe(e.identical);
  });
});

describe("compareResults: details", () => {
  it("keeps both weights of a moved host", () => {
    const b = ok([request(0, [stage(F, 2)], weighed(["h2", 0.9], ["h1", 0.1]))]);
    const a = ok([request(0, [stage(F, 2)], weighed(["h1", 1], ["h2", 0]))]);
    const [r2, r1] = compareResults(a, b).instances[0].rankChanges; // h2 first: best rank in B
    expect(r1).toEqual({ host: "h1", rankA: 1, rankB: 2, weightA: 1, weightB: 0.1, moved: -1 });
    expect(r2).toEqual({ host: "h2", rankA: 2, rankB: 1, weightA: 0, weightB: 0.9, moved: 1 });
  });

  it("compares every instance index, also when B has fewer", () => {
    const a = ok([
      request(0, [stage(F, 2)], weighed(["h1", 1], ["h2", 0])),
      request(1, [], weighed(["h2", 1], ["h1", 0])),
    ]);
    const b = noValidHost(
      [
        request(0, [stage(F, 2)], weighed(["h1", 1], ["h2", 0])),
        request(
          1,
          [
            stage("NumInstancesFilter", 2, [
              ["h1", "1 instances already (max 1)"],
              ["h2", "1 instances already (max 1)"],
            ]),
          ],
          [],
        ),
      ],
      "NumInstancesFilter",
    );
    b.requests[0].chosen = "h1";
    const c = compareResults(a, b);
    expect(c.instances).toHaveLength(2);
    expect(c.instances[0].chosenChanged).toBe(false);
    expect(c.instances[1]).toMatchObject({ chosenA: "h2", chosenB: null, chosenChanged: true });
    expect(c.instances[1].filterChanges).toEqual([
      { filter: "NumInstancesFilter", nowRejects: ["h2", "h1"], noLongerRejects: [] },
    ]);
    expect(c.instances[1].funnel).toEqual([{ filter: "NumInstancesFilter", outA: null, outB: 0 }]);
    expect(c.errorB).toBe("NoValidHost");
    expect(c.identical).toBe(false);
  });

  it("lists the funnel of both runs, stages of either", () => {
    const a = ok([request(0, [stage(F, 3, [["h3", "x"]]), stage(AGG, 2)], weighed(["h1", 1], ["h2", 0]))]);
    const b = ok([
      request(
        0,
        [stage("placement:resources", 3, [["h3", "y"]], "placement"), stage(F, 2)],
        weighed(["h1", 1], ["h2", 0]),
      ),
    ]);
    expect(compareResults(a, b).instances[0].funnel).toEqual([
      { filter: F, outA: 2, outB: 2 },
      { filter: AGG, outA: 2, outB: null },
      { filter: "placement:resources", outA: null, outB: 2 },
    ]);
    // h3: rejected by ComputeFilter in A, by placement:resources in B
    expect(compareResults(a, b).instances[0].filterChanges.map((f) => f.filter)).toEqual(["placement:resources", F]);
  });

  it.each([
    [{ kind: "passed", rank: 1 }, { kind: "passed", rank: 5 }, true],
    [{ kind: "rejected", filter: F, reason: "a" }, { kind: "rejected", filter: F, reason: "b" }, true],
    [{ kind: "rejected", filter: F, reason: "a" }, { kind: "rejected", filter: AZ, reason: "a" }, false],
    [{ kind: "absent" }, { kind: "passed", rank: 1 }, false],
    [{ kind: "absent" }, { kind: "absent" }, true],
  ] as Array<[Verdict, Verdict, boolean]>)("sameVerdict(%j, %j) = %s", (a, b, want) => {
    expect(sameVerdict(a, b)).toBe(want);
  });
});

describe("the same request under two Nova releases", () => {
  it("shows both releases and the ranking the newer weighers change", () => {
    const scenario = (nova_release: string) => ({
      config: { nova_release, weighers: "all" as const, enabled_filters: ["ComputeFilter"] },
      hosts: [
        { name: "old", vcpus: 16, memory_mb: 65536, local_gb: 500, hypervisor_version: 6002000 },
        { name: "new", vcpus: 16, memory_mb: 61440, local_gb: 500, hypervisor_version: 8000000 },
      ],
      request: { flavor: { name: "m1", vcpus: 1, memory_mb: 1024 } },
    });
    const c = compareResults(toResult(schedule(scenario("zed"))), toResult(schedule(scenario("2025.1"))));
    expect([c.releaseA, c.releaseB]).toEqual(["26 (Zed)", "31 (2025.1 Epoxy)"]);
    expect(c.instances[0]).toMatchObject({ chosenA: "old", chosenB: "new", chosenChanged: true });
    expect(releaseDifferences(toResult(schedule(scenario("zed"))), toResult(schedule(scenario("2025.1"))))).toEqual([
      "HypervisorVersionWeigher weighs only under 31 (2025.1 Epoxy) and ranks the hosts apart",
      "NumInstancesWeigher weighs only under 31 (2025.1 Epoxy) (the same for every host)",
      "ImagePropertiesWeigher weighs only under 31 (2025.1 Epoxy) (the same for every host)",
    ]);
  });

  it("names the filter and the Nova change when a filter decides differently, and nothing for one release", () => {
    // a pinned 4 GiB guest on a cell with 6 GiB free but only 3 GiB of free 4 KiB pages
    const scenario = (nova_release: string) => ({
      config: { nova_release, enabled_filters: ["NUMATopologyFilter"], weighers: ["RAMWeigher"] },
      hosts: ["h1", "h2"].map((name, i) => ({
        name,
        vcpus: 8,
        memory_mb: 8192,
        local_gb: 100,
        numa_topology: {
          cells: [
            {
              id: 0,
              cpuset: [0, 1, 2, 3, 4, 5, 6, 7],
              pcpuset: [0, 1, 2, 3, 4, 5, 6, 7],
              memory: 8192,
              memory_usage: 2048,
              mempages: [{ size_kb: 4, total: 1572864, used: i === 0 ? 786432 : 0 }],
            },
          ],
        },
      })),
      request: {
        flavor: { name: "pinned", vcpus: 2, memory_mb: 4096, extra_specs: { "hw:cpu_policy": "dedicated" } },
      },
    });
    const a = toResult(schedule(scenario("2024.1")));
    const b = toResult(schedule(scenario("2024.2")));
    expect(releaseDifferences(a, b)).toEqual([
      expect.stringMatching(/^NUMATopologyFilter now rejects h1: pinned guest cells .* free small pages since Nova 30/),
    ]);
    expect(releaseDifferences(b, b)).toEqual([]);
  });
});

describe("which weigher moved", () => {
  it("names the weigher whose scores differ, and one that weighs only in B", () => {
    const w = (host: string, weight: number, scores: Record<string, number>) => ({
      host,
      weight,
      weighers: Object.fromEntries(
        Object.entries(scores).map(([n, score]) => [
          n,
          { raw: 0, normalized: 0, multiplier: 1, score, source: "config" },
        ]),
      ),
    });
    const ra = { index: 0, funnel: [], weighed: [w("a", 1, { RAMWeigher: 1 }), w("b", 0.5, { RAMWeigher: 0.5 })] };
    const rb = {
      index: 0,
      funnel: [],
      weighed: [
        w("b", 1.5, { RAMWeigher: 0.5, HypervisorVersionWeigher: 1 }),
        w("a", 1, { RAMWeigher: 1, HypervisorVersionWeigher: 0 }),
      ],
    };
    expect(weigherChanges(ra, rb)).toEqual([
      { weigher: "HypervisorVersionWeigher", kind: "added", hosts: 2, most: { host: "b", scoreA: null, scoreB: 1 } },
    ]);
  });
});
