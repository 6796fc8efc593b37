import { describe, expect, it } from "vitest";
import { bigCloud } from "../demo/big-cloud";
import { schedule } from "@/lib/scheduler/engine";
import { toResult } from "@/lib/scheduler/result";
import type { Scenario } from "@/lib/scheduler/scenario";
import { weightSensitivity } from "./sensitivity";

function winnerWith(scenario: Scenario, key: string, value: number): string | undefined {
  return toResult(schedule({ ...scenario, config: { ...scenario.config, [key]: value } })).requests[0]?.chosen;
}

const spread = bigCloud(40, 1, 3);
const withOverride = bigCloud(60, 1, 11); // the ssd aggregate overrides ram_weight_multiplier
const few: Scenario = {
  config: {
    enabled_filters: ["ComputeFilter"],
    weighers: ["RAMWeigher", "CPUWeigher", "DiskWeigher"],
    cpu_weight_multiplier: 0.5,
  },
  hosts: [
    { name: "a", vcpus: 16, vcpus_used: 12, memory_mb: 65536, local_gb: 500 },
    { name: "b", vcpus: 32, vcpus_used: 2, memory_mb: 32768, local_gb: 1000 },
    { name: "c", vcpus: 8, memory_mb: 49152, local_gb: 200 },
  ],
  request: { flavor: { name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20 } },
};

describe("weight sensitivity: the winner holds inside the range and loses just past each end", () => {
  it.each([
    ["three hosts, three weighers", few],
    ["40 generated hosts, every Zed weigher", spread],
    ["aggregate multiplier overrides", withOverride],
  ] as Array<[string, Scenario]>)("%s", (_, scenario) => {
    const result = toResult(schedule(scenario));
    const s = weightSensitivity(result.requests[0], scenario.config ?? {});
    expect(s).not.toBeNull();
    expect(s!.winner).toBe(result.requests[0].chosen);
    let flips = 0;
    for (const w of s!.weighers) {
      const { low, high } = w.all;
      // inside: the configured value, and halfway towards each bound
      expect(winnerWith(scenario, w.key, w.value)).toBe(s!.winner);
      for (const b of [low, high]) {
        if (!b) continue;
        const eps = Math.max(Math.abs(b.at) * 1e-6, 1e-9);
        const outside =
          b === low ? b.at - Math.max(Math.abs(b.at) * 0.01, 1e-3) : b.at + Math.max(Math.abs(b.at) * 0.01, 1e-3);
        const inside = b === low ? b.at + eps * 10 : b.at - eps * 10;
        if (w.min !== undefined && outside < w.min) continue;
        expect(winnerWith(scenario, w.key, inside), `${w.key} just inside ${b.at}`).toBe(s!.winner);
        expect(winnerWith(scenario, w.key, outside), `${w.key} just past ${b.at}`).not.toBe(s!.winner);
        flips++;
      }
    }
    expect(flips).toBeGreaterThan(0);
  });
});
