import { describe, expect, it } from "vitest";
import { bigCloud } from "../demo/big-cloud";
import { bootInScenario, FillInputError, bootUuid, fill, type FlavorShare } from "./fill";
import { schedule } from "./engine";
import { toResult } from "./result";
import type { Scenario, ScenarioFlavor, ScenarioHost } from "./scenario";

const small: ScenarioFlavor = { name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20 };
const large: ScenarioFlavor = { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 80 };

function host(name: string, over: Partial<ScenarioHost> = {}): ScenarioHost {
  return { name, vcpus: 16, memory_mb: 32768, local_gb: 1000, ...over };
}

/** A cloud whose capacity is Placement's (the Placement path), or instances per host and a RAM query. */
function resourceCloud(placement = true): Scenario {
  return {
    config: placement
      ? {
          placement: true,
          enabled_filters: ["ComputeFilter", "AvailabilityZoneFilter"],
          weighers: ["RAMWeigher", "CPUWeigher"],
        }
      : {
          enabled_filters: ["ComputeFilter", "AvailabilityZoneFilter", "NumInstancesFilter", "JsonFilter"],
          weighers: ["RAMWeigher", "CPUWeigher"],
          max_instances_per_host: 9,
        },
    hosts: [
      host("a", { vcpus: 8, cpu_allocation_ratio: 1.0 }),
      host("b", { memory_mb: 65536, memory_mb_used: 16384 }),
      host("c", { service: { disabled: true } }),
      host("d", { local_gb: 200 }),
    ],
    aggregates: [
      { name: "az-east", availability_zone: "east", hosts: ["a", "b"] },
      { name: "fast", hosts: ["b", "d"], metadata: { ram_weight_multiplier: "2.0" } },
    ],
    request: { flavor: large },
  };
}

/**
 * The definition the fill must meet: boot after boot, a fresh trial of the
 * whole scenario (schedule), then the scenario edited as the cloud looks once
 * the instance runs (bootInScenario). Slow, and independent of the fill's
 * shortcuts.
 */
function fillByTrials(scenario: Scenario, mix: FlavorShare[], limit: number) {
  const sc: Scenario = structuredClone(scenario);
  const perHost: Record<string, number> = {};
  const current = mix.map(() => 0);
  const total = mix.reduce((s, m) => s + m.share, 0);
  for (let n = 0; n < limit; n++) {
    let k = 0;
    for (let i = 0; i < mix.length; i++) {
      current[i] += mix[i].share;
      if (current[i] > current[k]) k = i;
    }
    current[k] -= total;
    const flavor = mix[k].flavor;
    const run = schedule({ ...sc, request: { ...sc.request, flavor, num_instances: 1 } });
    if (run.error) return { count: n, perHost, stoppedBy: toResult(run) };
    const name = run.selections[0].host.host;
    const h = sc.hosts.find((x) => x.name === name)!;
    bootInScenario(sc, h, flavor, bootUuid(n));
    perHost[name] = (perHost[name] ?? 0) + 1;
  }
  return { count: limit, perHost, stoppedBy: null };
}

function strip(doc: unknown) {
  return JSON.parse(JSON.stringify(doc, (k, v) => (k === "timing" ? undefined : v)));
}

describe("a fill lands every boot where a fresh trial would", () => {
  const cases: Array<[string, Scenario, FlavorShare[], number]> = [
    ["the Placement path: every boot a whole trial", resourceCloud(), [{ flavor: large, share: 1 }], 500],
    ["instances per host stop the fill", resourceCloud(false), [{ flavor: large, share: 1 }], 500],
    [
      "a 3:1 mix of two flavors",
      {
        ...resourceCloud(false),
        request: { flavor: large, scheduler_hints: { query: '[">=", "$free_ram_mb", 8192]' } },
      },
      [
        { flavor: small, share: 75 },
        { flavor: large, share: 25 },
      ],
      500,
    ],
    [
      "60 generated hosts, every Zed weigher, a metrics weigher",
      (() => {
        const sc = bigCloud(60, 1, 7);
        sc.config!.max_instances_per_host = 47;
        return sc;
      })(),
      [{ flavor: bigCloud(1, 1).request.flavor, share: 1 }],
      400,
    ],
    [
      "a soft-anti-affinity group spreads then stacks",
      {
        ...resourceCloud(),
        config: {
          enabled_filters: ["ComputeFilter", "NumInstancesFilter"],
          max_instances_per_host: 12,
          weighers: ["ServerGroupSoftAntiAffinityWeigher", "RAMWeigher"],
          soft_anti_affinity_weight_multiplier: 3,
        },
        server_groups: [{ name: "web", policy: "soft-anti-affinity", members: [] }],
        request: { flavor: small, server_group: "web" },
      },
      [{ flavor: small, share: 1 }],
      400,
    ],
  ];
  it.each(cases)("%s", (_, scenario, mix, limit) => {
    const expected = fillByTrials(scenario, mix, limit);
    const r = fill(scenario, { mix, limit });
    expect({ count: r.count, perHost: Object.fromEntries(r.perHost) }).toEqual({
      count: expected.count,
      perHost: expected.perHost,
    });
    expect(r.stoppedBy && strip(toResult(r.stoppedBy))).toEqual(expected.stoppedBy && strip(expected.stoppedBy));
  });
});

describe("what a fill reports", () => {
  it("counts per host, AZ, aggregate and cell, and says why the last boot failed", () => {
    const r = fill(resourceCloud());
    expect(r.count).toBeGreaterThan(0);
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    expect(sum(r.perHost)).toBe(r.count);
    expect(sum(r.perCell)).toBe(r.count);
    expect([...r.perAz.keys()].sort()).toEqual(["east", "nova"].filter((az) => r.perAz.has(az)));
    expect((r.perAz.get("east")?.get("m1.large") ?? 0) + (r.perAz.get("nova")?.get("m1.large") ?? 0)).toBe(r.count);
    expect(r.perAggregate.get("az-east")).toBe((r.perHost.get("a") ?? 0) + (r.perHost.get("b") ?? 0));
    expect(r.perHost.has("c")).toBe(false); // disabled
    expect(r.stoppedBy?.error?.name).toBe("NoValidHost");
    expect(toResult(r.stoppedBy!).diagnosis?.summary).toMatch(/^0\/4 hosts available: /);
  });

  it("stops at the limit with no stopping reason", () => {
    const r = fill(resourceCloud(), { limit: 3 });
    expect(r.count).toBe(3);
    expect(r.stoppedBy).toBeNull();
  });

  it("keeps a mix's proportions", () => {
    const cloud: Scenario = { ...resourceCloud(), hosts: Array.from({ length: 20 }, (_, i) => host(`h${i}`)) };
    const r = fill(cloud, {
      limit: 100,
      mix: [
        { flavor: small, share: 0.75 },
        { flavor: large, share: 0.25 },
      ],
    });
    expect(Object.fromEntries(r.perFlavor)).toEqual({ "m1.small": 75, "m1.large": 25 });
  });

  it("reports Nova's error when the request itself fails", () => {
    const r = fill({ ...resourceCloud(), config: { enabled_filters: ["NoSuchFilter"] } });
    expect(r.count).toBe(0);
    expect(r.stoppedBy?.error?.name).not.toBe("NoValidHost");
  });
});

describe("bad fill parameters are refused with the field and the rule", () => {
  const cases: Array<[string, Parameters<typeof fill>[1], RegExp]> = [
    ["a limit of 0", { limit: 0 }, /^limit: must be a whole number of boots from 1 to 1,000,000 \(got 0\)$/],
    ["a limit of 10^9", { limit: 1e9 }, /^limit: .* \(got 1000000000\)$/],
    ["a fractional limit", { limit: 2.5 }, /^limit: .*got 2\.5/],
    ["an empty mix", { mix: [] }, /^mix: name at least one flavor/],
    [
      "proportions that do not sum",
      {
        mix: [
          { flavor: small, share: 50 },
          { flavor: large, share: 30 },
        ],
      },
      /^mix: proportions must sum to 1 or to 100% \(they sum to 80\)$/,
    ],
    ["a zero share", { mix: [{ flavor: small, share: 0 }] }, /^mix\[0\]\.share: m1\.small needs a proportion/],
    [
      "a flavor twice",
      {
        mix: [
          { flavor: small, share: 0.5 },
          { flavor: small, share: 0.5 },
        ],
      },
      /^mix\[1\]\.flavor: m1\.small is listed twice$/,
    ],
  ];
  it.each(cases)("%s", (_, options, message) => {
    expect(() => fill(resourceCloud(), options)).toThrow(FillInputError);
    expect(() => fill(resourceCloud(), options)).toThrow(message);
  });
});
