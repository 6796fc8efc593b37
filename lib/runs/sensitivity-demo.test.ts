/**
 * Every multiplier's sensitivity range on the demo cloud, checked against the
 * real engine: a re-run just inside each end keeps the winner, one just past
 * it does not, and a re-run far out on an unbounded side still keeps it.
 */
import { describe, expect, it } from "vitest";
import { buildDemoCloud, DEFAULT_PROFILE_CONFIG, DEMO_FLAVORS, STACKING_PROFILE_CONFIG } from "@/lib/demo/cloud";
import { schedule } from "@/lib/scheduler/engine";
import { toResult } from "@/lib/scheduler/result";
import type { Scenario, ScenarioConfig } from "@/lib/scheduler/scenario";
import { MULTIPLIER_KEY, weightSensitivity } from "./sensitivity";

const cloud = buildDemoCloud() as Scenario;
const flavor = (name: string) => DEMO_FLAVORS.find((f) => f.name === name)!;
const group = (policy: string) => cloud.server_groups!.find((g) => g.policy === policy)!;

// Half the hosts' instances booted from images with os_distro set, so
// ImagePropertiesWeigher (2025.1+) has something to weigh.
const withImageProps: Scenario = {
  ...cloud,
  hosts: cloud.hosts.map((h, i) =>
    i % 2 && h.instances?.length
      ? { ...h, instance_image_properties: Object.fromEntries(h.instances.map((u) => [u, { os_distro: "ubuntu" }])) }
      : h,
  ),
};

function requestIn(policy: string): Scenario["request"] {
  const g = group(policy);
  return { flavor: flavor("m1.small"), server_group: g.uuid, project_id: g.project_id };
}

const cases: Array<[string, Scenario]> = [
  ["m1.small, default profile", { ...cloud, config: DEFAULT_PROFILE_CONFIG, request: { flavor: flavor("m1.small") } }],
  [
    "m1.large, stacking profile",
    { ...cloud, config: STACKING_PROFILE_CONFIG, request: { flavor: flavor("m1.large") } },
  ],
  [
    "m1.small in a soft-anti-affinity group",
    { ...cloud, config: DEFAULT_PROFILE_CONFIG, request: requestIn("soft-anti-affinity") },
  ],
  [
    "m1.small in a soft-affinity group",
    { ...cloud, config: DEFAULT_PROFILE_CONFIG, request: requestIn("soft-affinity") },
  ],
  [
    "m1.medium on 2025.1 with ImagePropertiesWeigher",
    {
      ...withImageProps,
      config: { ...DEFAULT_PROFILE_CONFIG, nova_release: "2025.1", image_props_weight_multiplier: 2 } as ScenarioConfig,
      request: { flavor: flavor("m1.medium"), image: { properties: { os_distro: "ubuntu" } } } as Scenario["request"],
    },
  ],
];

function winnerWith(scenario: Scenario, key: string, value: number): string | null | undefined {
  return toResult(schedule({ ...scenario, config: { ...scenario.config, [key]: value } })).requests[0]?.chosen;
}

const checked = new Map<string, number>();
const flips = new Set<string>();

describe("each multiplier's range on the demo cloud agrees with re-runs of the engine", () => {
  it.each(cases)("%s", (_, scenario) => {
    const result = toResult(schedule(scenario));
    const req = result.requests[0];
    const s = weightSensitivity(req, scenario.config ?? {});
    expect(s).not.toBeNull();
    expect(s!.winner).toBe(req.chosen);
    for (const w of s!.weighers) {
      expect(w.unknown, w.key).toBeUndefined();
      const { low, high } = w.all;
      expect(winnerWith(scenario, w.key, w.value), `${w.key} at its configured ${w.value}`).toBe(s!.winner);
      const far = 100 * Math.max(1, Math.abs(w.value));
      for (const side of ["low", "high"] as const) {
        const b = w.all[side];
        const dir = side === "low" ? -1 : 1;
        if (!b) {
          const v = Math.max(w.value + dir * far, w.min ?? Number.NEGATIVE_INFINITY);
          expect(winnerWith(scenario, w.key, v), `${w.key} = ${v}: no flip on that side`).toBe(s!.winner);
          checked.set(w.key, (checked.get(w.key) ?? 0) + 1);
          continue;
        }
        const step = Math.max(Math.abs(b.at) * 0.01, 1e-3);
        const inside = b.at - dir * Math.max(Math.abs(b.at) * 1e-5, 1e-8);
        const outside = b.at + dir * step;
        expect(dir * (w.value - b.at), `${w.key}: configured ${w.value} inside its range`).toBeLessThan(0);
        expect(winnerWith(scenario, w.key, inside), `${w.key} just inside ${b.at}`).toBe(s!.winner);
        expect(winnerWith(scenario, w.key, outside), `${w.key} just past ${b.at}`).toBe(b.host);
        flips.add(w.key);
        checked.set(w.key, (checked.get(w.key) ?? 0) + 1);
      }
      expect(low === null || high === null || low.at < high.at, `${w.key} range not empty`).toBe(true);
    }
  });

  it("checked every multiplier, and build_failure_weight_multiplier at a real flip", () => {
    expect([...checked.keys()].sort()).toEqual(Object.values(MULTIPLIER_KEY).sort());
    expect(flips).toContain("build_failure_weight_multiplier");
  });
});

describe("a range the run cannot show", () => {
  it("ImagePropertiesWeigher at 0 weighs nothing, so no range is claimed", () => {
    const scenario: Scenario = {
      ...withImageProps,
      config: { ...DEFAULT_PROFILE_CONFIG, nova_release: "2025.1" } as ScenarioConfig,
      request: { flavor: flavor("m1.medium") },
    };
    const s = weightSensitivity(toResult(schedule(scenario)).requests[0], scenario.config ?? {});
    const w = s!.weighers.find((x) => x.key === "image_props_weight_multiplier");
    expect(w?.unknown).toMatch(/skips its work/);
  });
});
