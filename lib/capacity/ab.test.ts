import { describe, expect, it } from "vitest";
import { bigCloud } from "../demo/big-cloud";
import { compareWorkload } from "./ab";

describe("A/B over a workload", () => {
  const cloud = bigCloud(40, 1, 9);
  cloud.config!.placement_prefilters = ["resources"];
  const flavor = cloud.request.flavor;
  const small = { name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20 };
  const mix = [
    { flavor, share: 50 },
    { flavor: small, share: 50 },
  ];

  it("spreading uses more hosts than stacking for the same 120 boots, and neither touches the cloud", () => {
    const before = JSON.stringify(cloud);
    const [spread, stack] = compareWorkload(
      cloud,
      { label: "spread", config: { ...cloud.config, weighers: ["RAMWeigher"], ram_weight_multiplier: 1.0 } },
      { label: "stack", config: { ...cloud.config, weighers: ["RAMWeigher"], ram_weight_multiplier: -1.0 } },
      mix,
      120,
    );
    expect(JSON.stringify(cloud)).toBe(before);
    for (const o of [spread, stack]) {
      expect(o.placed).toBeGreaterThan(0);
      expect(o.spread.reduce((s, x) => s + x.instances * x.hosts, 0)).toBe(o.placed);
      expect(o.spread.reduce((s, x) => s + x.hosts, 0)).toBe(o.hostsUsed);
    }
    expect(spread.hostsUsed).toBeGreaterThan(stack.hostsUsed);
  });

  it("names the first failure when the workload does not fit", () => {
    const [a] = compareWorkload(
      cloud,
      { label: "a", config: cloud.config },
      { label: "b", config: cloud.config },
      mix,
      1_000_000,
    );
    expect(a.firstFailure?.boot).toBe(a.placed + 1);
    expect(a.firstFailure?.error).toBe("NoValidHost");
    expect(a.firstFailure?.summary).toMatch(/^0\/40 hosts available/);
  });
});
