import { describe, expect, it } from "vitest";
import { bigCloud } from "../demo/big-cloud";
import { schedule } from "@/lib/scheduler/engine";
import { toResult } from "@/lib/scheduler/result";
import type { Scenario } from "@/lib/scheduler/scenario";
import { applyChanges, describeChange, rejectionOf, whatWouldLetItPass } from "./proposals";

function variant(seed: number, change: (s: Scenario) => void): Scenario {
  const s = bigCloud(36, 1, seed);
  change(s);
  return s;
}

const runs: Array<[string, Scenario]> = [
  ["ssd extra spec, disabled hosts", variant(5, () => {})],
  [
    "a GPU flavor",
    variant(6, (s) => {
      s.request.flavor.extra_specs = { "aggregate_instance_extra_specs:gpu": "true" };
    }),
  ],
  [
    "an AZ request and the Placement prefilters",
    variant(7, (s) => {
      s.request.availability_zone = "az2";
      s.config!.placement_prefilters = ["compute_status", "availability_zone"];
      // hosts without a zone can join one
      s.aggregates = s.aggregates!.map((a) => (a.name === "az3" ? { ...a, hosts: a.hosts!.slice(5) } : a));
    }),
  ],
  ["a resize to a GPU flavor: each proposal verified by re-running the move", resizeToGpu()],
];

/** A resize of an instance of hosts[0] to a flavor that needs a GPU aggregate (SCENARIO.md "Moves"). */
function resizeToGpu(): Scenario {
  return variant(9, (s) => {
    const src = s.hosts[0];
    const uuid = "5a0f6f9e-3c1d-4b7a-9e2f-1c2d3e4f5a6b";
    src.instances = [...(src.instances ?? []), uuid];
    const { extra_specs: _specs, ...flavor } = s.request.flavor;
    s.request = {
      operation: "resize",
      instance: { uuid, host: src.name, node: src.node ?? src.name, flavor: { ...flavor, id: "cur" } },
      flavor: { ...flavor, id: "g1", name: "g1.large", extra_specs: { "aggregate_instance_extra_specs:gpu": "true" } },
    } as Scenario["request"];
  });
}

describe("what would let a move pass", () => {
  it("re-runs the move, not a boot: the source stays out and the new flavor is asked for", () => {
    const scenario = resizeToGpu();
    const r = toResult(schedule(scenario));
    expect(r.move?.operation).toBe("resize");
    const rejected = r.requests[0].funnel.flatMap((f) => f.rejected);
    const host = rejected.find((h) => whatWouldLetItPass(scenario, h).proposals.length > 0);
    expect(host).toBeDefined();
    for (const p of whatWouldLetItPass(scenario, host!).proposals) {
      const again = toResult(schedule(applyChanges(scenario, p.changes)));
      expect(again.move?.operation).toBe("resize");
      expect(again.requests[0].weighed.map((w) => w.host)).toContain(host);
      expect(again.requests[0].weighed.map((w) => w.host)).not.toContain(scenario.hosts[0].name);
    }
  });
});

describe("every proposal lets the host pass when the run is scheduled again with it", () => {
  it.each(runs)("%s", (_, scenario) => {
    const req = toResult(schedule(scenario)).requests[0];
    const rejected = req.funnel.flatMap((f) => f.rejected);
    expect(rejected.length).toBeGreaterThan(0);
    let proposals = 0;
    for (const host of rejected) {
      const w = whatWouldLetItPass(scenario, host);
      expect(w.rejection).toEqual(rejectionOf(req, host));
      for (const p of w.proposals) {
        proposals++;
        const again = toResult(schedule(applyChanges(scenario, p.changes))).requests[0];
        expect(
          again.weighed.map((x) => x.host),
          `${host}: ${p.changes.map(describeChange).join(", ")}`,
        ).toContain(host);
        expect(p.answers[0]).toEqual(w.rejection);
      }
    }
    expect(proposals).toBeGreaterThan(0);
  });

  it("says which rejections no change to services or aggregates answers", () => {
    const scenario = variant(8, (s) => {
      s.config!.max_instances_per_host = 1;
    });
    const req = toResult(schedule(scenario)).requests[0];
    const full = req.funnel.find((f) => f.filter === "NumInstancesFilter")!;
    const w = whatWouldLetItPass(scenario, full.rejected[0]);
    expect(w.rejection?.filter).toBe("NumInstancesFilter");
    expect(w.proposals).toEqual([]);
    expect(w.unanswered.map((u) => u.filter)).toEqual(["NumInstancesFilter"]);
  });
});

describe("proposals beyond services and aggregates, each checked by re-running", () => {
  /** One host `h` kept out by `reason`; every other host is full, so only h can take it once the change is made. */
  function oneHost(over: Record<string, unknown>, config: Record<string, unknown> = {}, aggMetadata = {}): Scenario {
    const host = (name: string, extra: Record<string, unknown> = {}) => ({
      name,
      vcpus: 8,
      memory_mb: 16384,
      local_gb: 100,
      ...extra,
    });
    return {
      config: {
        placement: true,
        enabled_filters: ["ComputeFilter", "AggregateInstanceExtraSpecsFilter", "AggregateIoOpsFilter"],
        ...config,
      },
      hosts: [host("h", over), host("full", { vcpus_used: 32, memory_mb_used: 16384, local_gb_used: 100 })],
      aggregates: [{ name: "agg", hosts: ["h", "full"], metadata: aggMetadata }],
      request: {
        flavor: { name: "f", vcpus: 4, memory_mb: 2048, root_gb: 40, extra_specs: {} },
      },
    } as unknown as Scenario;
  }

  it.each([
    [
      "VCPU short: the cpu_allocation_ratio",
      oneHost({ vcpus_used: 30 }),
      /set cpu_allocation_ratio = 4.3 on h \(now 4;/,
    ],
    [
      "DISK_GB short: the disk_allocation_ratio",
      oneHost({ local_gb_used: 80 }),
      /set disk_allocation_ratio = 1.2 on h \(now 1;/,
    ],
    [
      "I/O ops: the aggregate's max_io_ops_per_host",
      oneHost({ num_io_ops: 3 }, {}, { max_io_ops_per_host: "3" }),
      /set aggregate agg metadata max_io_ops_per_host=4 \(replacing max_io_ops_per_host=3\)/,
    ],
    [
      "a required trait",
      (() => {
        const s = oneHost({});
        s.request.flavor.extra_specs = { "trait:HW_CPU_X86_AVX512F": "required" };
        return s;
      })(),
      /add trait HW_CPU_X86_AVX512F to h's resource provider/,
    ],
    [
      "gpu=false on its aggregate: set gpu=true, replacing it",
      (() => {
        const s = oneHost({}, {}, { gpu: "false" });
        s.request.flavor.extra_specs = { "aggregate_instance_extra_specs:gpu": "true" };
        return s;
      })(),
      /^set aggregate agg metadata gpu=true \(replacing gpu=false\)$/,
    ],
  ])("%s", (_, scenario, text) => {
    const w = whatWouldLetItPass(scenario, "h");
    expect(w.rejection).not.toBeNull();
    const p = w.proposals.find((x) => x.changes.some((c) => text.test(describeChange(c))));
    expect(
      p,
      JSON.stringify([w.rejection, w.proposals.map((x) => x.changes.map(describeChange)), w.unanswered]),
    ).toBeDefined();
    const again = toResult(schedule(applyChanges(scenario, p!.changes))).requests[0];
    expect(again.weighed.map((x) => x.host)).toContain("h");
  });

  it("names what still blocks, after the changes tried, when nothing lets it pass", () => {
    // disabled and with too little RAM for even the largest ratio that helps: enabling leads to MEMORY_MB,
    // and a RAM ratio would need more memory than the host has in one piece (max_unit)
    const s = oneHost({ service: { disabled: true }, memory_mb: 1024 });
    const w = whatWouldLetItPass(s, "h");
    expect(w.proposals).toEqual([]);
    expect(w.unanswered).toEqual([
      expect.objectContaining({ code: "MEMORY_MB_SHORT", after: ["enable the compute service on h"] }),
    ]);
  });
});
