import { describe, expect, it } from "vitest";
import { bigCloud } from "../../bench/big-cloud";
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
];

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
