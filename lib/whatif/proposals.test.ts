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
