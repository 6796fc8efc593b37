import { describe, expect, it } from "vitest";
import { type CompiledRequest, compiledReason } from "./candidates";
import { type ColumnProvider, ProviderColumns } from "./provider-columns";
import type { Provider } from "./providers";

const inv = (
  total: number,
  more: Partial<{ reserved: number; minUnit: number; maxUnit: number; stepSize: number; allocationRatio: number }> = {},
) => ({
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 1,
  ...more,
});

function provider(
  index: number,
  inventories: Record<string, ReturnType<typeof inv>>,
  used: Record<string, number>,
  traits: string[] = [],
  aggregates: string[] = [],
) {
  return {
    index,
    uuid: `rp-${index}`,
    inventories: new Map(Object.entries(inventories)),
    used: new Map(Object.entries(used)),
    usageVersion: 0,
    traits: new Set(traits),
    aggregates: new Set(aggregates),
  };
}

/** Providers meant to sit on each side of every check compiledReason makes. */
const providers = [
  provider(0, { VCPU: inv(8), MEMORY_MB: inv(4096) }, { VCPU: 6 }),
  provider(1, { VCPU: inv(8, { allocationRatio: 1.5 }) }, { VCPU: 10 }), // capacity 12: 2 more fit
  provider(2, { VCPU: inv(5, { allocationRatio: 1.5 }) }, {}), // capacity 7.5: 7 as a whole
  provider(3, { VCPU: inv(16, { maxUnit: 2 }), CUSTOM_GPU: inv(4, { stepSize: 2 }) }, {}),
  provider(4, { VCPU: inv(16, { minUnit: 4, reserved: 8 }) }, {}, ["COMPUTE_STATUS_DISABLED"]),
  provider(5, { VCPU: inv(16) }, {}, ["HW_CPU_X86_AVX2"], ["agg-a"]),
  provider(6, { MEMORY_MB: inv(2048) }, { MEMORY_MB: 2048 }, [], ["agg-b"]),
];

function query(
  resources: Array<[string, number]>,
  more: Partial<CompiledRequest["groups"][number]> & {
    rootForbidden?: string[];
    rootRequired?: string[];
    extraGroup?: Array<[string, number]>;
  } = {},
): CompiledRequest {
  const group = (res: Array<[string, number]>) => ({
    inTree: null,
    aggregates: more.aggregates ?? [],
    labels: [],
    forbiddenAggregates: more.forbiddenAggregates ?? [],
    required: more.required ?? [],
    forbidden: more.forbidden ?? [],
    resources: res,
  });
  const groups = [group(resources), ...(more.extraGroup ? [group(more.extraGroup)] : [])];
  const merged = new Map<string, number>();
  for (const g of groups) for (const [rc, n] of g.resources) merged.set(rc, (merged.get(rc) ?? 0) + n);
  return {
    rootForbidden: more.rootForbidden ?? [],
    rootRequired: more.rootRequired ?? [],
    groups,
    isolated: 0,
    merged: [...merged],
  };
}

const queries: Array<[string, CompiledRequest]> = [
  ["2 VCPU", query([["VCPU", 2]])],
  ["3 VCPU", query([["VCPU", 3]])],
  ["7 VCPU", query([["VCPU", 7]])],
  ["8 VCPU", query([["VCPU", 8]])],
  [
    "VCPU and memory",
    query([
      ["VCPU", 1],
      ["MEMORY_MB", 1024],
    ]),
  ],
  ["a class nobody has", query([["CUSTOM_FPGA", 1]])],
  ["odd GPUs (step_size 2)", query([["CUSTOM_GPU", 1]])],
  ["even GPUs", query([["CUSTOM_GPU", 2]])],
  ["below min_unit", query([["VCPU", 2]])],
  ["not disabled", query([["VCPU", 1]], { rootForbidden: ["COMPUTE_STATUS_DISABLED"] })],
  ["a required trait", query([["VCPU", 1]], { required: ["HW_CPU_X86_AVX2"] })],
  ["a forbidden trait", query([["VCPU", 1]], { forbidden: ["HW_CPU_X86_AVX2"] })],
  ["a root trait", query([["VCPU", 1]], { rootRequired: ["HW_CPU_X86_AVX2"] })],
  ["member_of", query([["VCPU", 1]], { aggregates: [["agg-a", "agg-b"]] })],
  ["not member_of", query([["VCPU", 1]], { forbiddenAggregates: ["agg-a"] })],
  // two groups on one provider add up: 4 + 4 VCPU against max_unit or an integer capacity
  ["groups together", query([["VCPU", 4]], { extraGroup: [["VCPU", 4]] })],
  ["groups together, fractional capacity", query([["VCPU", 3]], { extraGroup: [["VCPU", 4]] })],
  ["groups over max_unit", query([["VCPU", 1]], { extraGroup: [["VCPU", 2]] })],
];

describe("provider columns fit where compiledReason finds no reason", () => {
  const columns = new ProviderColumns(providers);
  it.each(queries)("%s", (_, q) => {
    const plan = columns.plan(q)!;
    const answers = providers.map((p) => [
      columns.fits(p, q, plan),
      compiledReason(p as unknown as Provider, q) === null,
    ]);
    for (const [fits, none] of answers) expect(fits).toBe(none);
  });

  it("asks both ways of each check at least once", () => {
    const seen = new Set<string>();
    for (const [, q] of queries) {
      const plan = columns.plan(q)!;
      for (const p of providers) seen.add(String(columns.fits(p, q, plan)));
    }
    expect([...seen].sort()).toEqual(["false", "true"]);
  });

  it("reads a provider's usage again once it changed", () => {
    const p = provider(0, { VCPU: inv(8) }, { VCPU: 6 });
    const own = new ProviderColumns([p]);
    const q = query([["VCPU", 2]]);
    const plan = own.plan(q)!;
    expect(own.fits(p, q, plan)).toBe(true);
    (p as { used: Map<string, number> }).used = new Map([["VCPU", 7]]);
    (p as { usageVersion: number }).usageVersion = 1;
    expect(own.fits(p, q, plan)).toBe(false);
    expect(compiledReason(p as unknown as Provider, q)?.code).toBe("VCPU_SHORT");
  });

  it("leaves in_tree and isolated groups to compiledReason", () => {
    const inTree = query([["VCPU", 1]]);
    inTree.groups[0].inTree = "rp-0";
    expect(columns.plan(inTree)).toBeNull();
    expect(columns.plan({ ...query([["VCPU", 1]]), isolated: 2 })).toBeNull();
  });
});

// the providers above are ColumnProviders as the cloud's are
const _check: ColumnProvider[] = providers;
void _check;
