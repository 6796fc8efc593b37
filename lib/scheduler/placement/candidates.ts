/**
 * GET /allocation_candidates over single-provider trees (Placement 8.0,
 * Zed): the query's checks that answer 400, then per provider each request
 * group (capacity, min_unit/max_unit/step_size, traits, member_of, in_tree),
 * the merged amounts, group_policy, and the `limit` cut. Every provider that
 * is not a candidate gets a reason with a stable code.
 */
import type { Reason } from "../plugin";
import { type Inventory, type PlacementCloud, type Provider, capacity } from "./providers";
import { type RequestGroup, type ResourceRequest, suffixedGroups } from "./resource-request";
import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from "./standard-names";

const STANDARD_RC = new Set(STANDARD_RESOURCE_CLASSES);

/** What each required aggregate list stands for (from the request filter that added it). */
export interface AggregateLabel {
  code: string;
  message: string;
}

export interface CandidateQuery {
  /** 400 from Placement: Nova gets no answer. */
  refused: string | null;
  /** Providers that matched, in provider creation (= scenario) order, before `limit`. */
  matched: Provider[];
  /** What Placement returned: the first `limit` of `matched`. */
  returned: Provider[];
  /** The allocation request per returned provider: amounts per class, groups merged. */
  allocations: Map<Provider, Map<string, number>>;
  /** Why each other provider is not a candidate. */
  reasons: Map<Provider, Reason>;
}

/** 12345 → "12,345"; fractions to two places (Intl is slow in the host loop). */
function fmt(n: number): string {
  const text = Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
  const [whole, frac] = text.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac ? `${grouped}.${frac}` : grouped;
}

/**
 * The 400s Placement answers. The query's own shape is checked first,
 * always; the names it looks up (traits, resource classes) only as
 * AllocationCandidates._get_by_requests reaches them, and an empty answer
 * on the way stops it with 200 and no candidates (research_context.py):
 * root traits, then per request group in the order its first key has in
 * the sorted query string: resource classes, positive member_of, required
 * then forbidden traits, capacity per class, the group's candidates.
 */
export function refusal(rr: ResourceRequest, cloud: PlacementCloud): string | null {
  const groups = [...rr.groups.values()];
  if (!groups.length) return "At least one request group (`resources` or `resources{$S}`) is required.";
  for (const g of groups) {
    if (!g.resources.size) {
      if (g.required.size || g.forbidden.size)
        return `All traits parameters must be associated with resources (required${g.suffix}).`;
      return `All member_of parameters must be associated with resources (member_of${g.suffix}).`;
    }
  }
  if (suffixedGroups(rr) > 1 && !rr.groupPolicy)
    return 'The "group_policy" parameter is required when specifying more than one "resources{N}" parameter.';
  for (const g of groups) {
    for (const t of g.required) if (g.forbidden.has(t)) return `Conflicting required and forbidden traits: ${t}`;
  }
  for (const t of rr.rootRequired)
    if (rr.rootForbidden.has(t)) return `Conflicting required and forbidden traits found in root_required: ${t}`;

  const unknownTraits = (names: Iterable<string>): string | null => {
    const unknown = [...names].filter(
      (t) => !STANDARD_TRAITS.has(t) && !cloud.customTraits.has(t) && !cloud.addedStandardTraits.has(t),
    );
    return unknown.length ? `No such trait(s): ${[...new Set(unknown)].sort().join(", ")}.` : null;
  };
  // RequestWideSearchContext: the root traits, then the roots that have them.
  const rootUnknown = unknownTraits(rr.rootRequired) ?? unknownTraits(rr.rootForbidden);
  if (rootUnknown) return rootUnknown;
  const rootOk = (p: Provider) => {
    for (const t of rr.rootRequired) if (!p.traits.has(t)) return false;
    for (const t of rr.rootForbidden) if (p.traits.has(t)) return false;
    return true;
  };
  const roots = rr.rootRequired.size || rr.rootForbidden.size ? cloud.providers.filter(rootOk) : cloud.providers;
  if (!roots.length) return null;
  for (const g of inQueryOrder(groups)) {
    for (const rc of g.resources.keys())
      if (!STANDARD_RC.has(rc) && !cloud.customResourceClasses.has(rc))
        return `Invalid resource class in resources parameter: No such resource class ${rc}.`;
    if (
      g.aggregates.length &&
      !cloud.providers.some((p) => g.aggregates.every((l) => l.some((a) => p.aggregates.has(a))))
    )
      return null;
    const traitUnknown = unknownTraits(g.required) ?? unknownTraits(g.forbidden);
    if (traitUnknown) return traitUnknown;
    for (const [rc, amount] of g.resources) {
      const fits = (p: Provider) => {
        const inv = p.inventories.get(rc);
        return inv !== undefined && !shortReason(p, rc, amount) && !unitReason(rc, amount, inv);
      };
      if (!cloud.providers.some(fits)) return null;
    }
    if (!roots.some((p) => groupReason(p, g, []) === null)) return null;
  }
  return null;
}

/** Request groups in the order Placement meets them: by their first key in the sorted query string. */
function inQueryOrder(groups: RequestGroup[]): RequestGroup[] {
  const firstKey = (g: RequestGroup) => {
    const s = g.suffix;
    const keys = [`resources${s}`];
    if (g.required.size || g.forbidden.size) keys.push(`required${s}`);
    if (g.aggregates.length || g.forbiddenAggregates.size) keys.push(`member_of${s}`);
    if (g.inTree) keys.push(`in_tree${s}`);
    return keys.sort()[0];
  };
  return groups
    .map((g) => ({ g, key: firstKey(g) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.g);
}

const UNIT = "outside min_unit/max_unit/step_size";

function unitReason(rc: string, amount: number, inv: Inventory): Reason | null {
  if (amount < inv.minUnit)
    return {
      code: "RESOURCE_UNIT",
      message: `${rc}: needs ${fmt(amount)}, below min_unit ${fmt(inv.minUnit)}`,
      label: UNIT,
    };
  if (amount > inv.maxUnit)
    return {
      code: "RESOURCE_UNIT",
      message: `${rc}: needs ${fmt(amount)}, above max_unit ${fmt(inv.maxUnit)}`,
      label: UNIT,
    };
  if (amount % inv.stepSize !== 0)
    return {
      code: "RESOURCE_UNIT",
      message: `${rc}: needs ${fmt(amount)}, not a multiple of step_size ${inv.stepSize}`,
      label: UNIT,
    };
  return null;
}

/** Whether `amount` more of `rc` fits, from Placement's capacity rule. */
export function shortReason(p: Provider, rc: string, amount: number): Reason | null {
  const inv = p.inventories.get(rc);
  if (!inv) return { code: `${rc}_SHORT`, message: `no ${rc} inventory`, label: `${rc} short` };
  const cap = capacity(inv);
  const used = p.used.get(rc) ?? 0;
  if (used + amount > cap)
    return {
      code: `${rc}_SHORT`,
      message: `${rc}: ${fmt(Math.max(cap - used, 0))} free, needs ${fmt(amount)}`,
      label: `${rc} short`,
    };
  return null;
}

function groupReason(p: Provider, g: RequestGroup, labels: AggregateLabel[]): Reason | null {
  if (g.inTree !== null && g.inTree !== p.uuid) return { code: "NOT_FORCED_HOST", message: "not the forced host" };
  for (let i = 0; i < g.aggregates.length; i++) {
    if (!g.aggregates[i].some((a) => p.aggregates.has(a))) {
      const l = labels[i] ?? { code: "NOT_IN_AGGREGATE", message: "not in a required aggregate" };
      return { code: l.code, message: l.message };
    }
  }
  for (const a of g.forbiddenAggregates)
    if (p.aggregates.has(a))
      return { code: "ISOLATED_AGGREGATE", message: "in an aggregate that requires traits the request lacks" };
  for (const t of g.required) if (!p.traits.has(t)) return traitMissing(t);
  for (const t of g.forbidden) if (p.traits.has(t)) return traitForbidden(t);
  for (const [rc, amount] of g.resources) {
    const inv = p.inventories.get(rc);
    if (!inv) return { code: `${rc}_SHORT`, message: `no ${rc} inventory`, label: `${rc} short` };
    const short = shortReason(p, rc, amount);
    if (short) return short;
    const unit = unitReason(rc, amount, inv);
    if (unit) return unit;
  }
  return null;
}

const traitMissing = (t: string): Reason => ({
  code: "TRAIT_MISSING",
  message: `lacks trait ${t}`,
  label: "lack a required trait",
});
const traitForbidden = (t: string): Reason =>
  t === "COMPUTE_STATUS_DISABLED"
    ? { code: "DISABLED", message: "compute service disabled (COMPUTE_STATUS_DISABLED)" }
    : { code: "TRAIT_FORBIDDEN", message: `has forbidden trait ${t}`, label: "have a forbidden trait" };

/** One provider against the whole query: null when it is a candidate. */
export function providerReason(p: Provider, rr: ResourceRequest, labels: AggregateLabel[]): Reason | null {
  for (const t of rr.rootForbidden) if (p.traits.has(t)) return traitForbidden(t);
  for (const t of rr.rootRequired) if (!p.traits.has(t)) return traitMissing(t);
  for (const g of rr.groups.values()) {
    const why = groupReason(p, g, g.suffix === "" ? labels : []);
    if (why) return why;
  }
  const granular = suffixedGroups(rr);
  if (rr.groupPolicy === "isolate" && granular > 1)
    return {
      code: "GROUP_POLICY",
      message: `group_policy=isolate needs ${granular} providers for ${granular} numbered groups, a host has one`,
    };
  // Groups served by the same provider add up (Placement's final capacity check).
  for (const [rc, amount] of mergedAmounts(rr)) {
    const inv = p.inventories.get(rc)!;
    const used = p.used.get(rc) ?? 0;
    if (used + amount > Math.trunc(capacity(inv)))
      return {
        code: `${rc}_SHORT`,
        message: `${rc}: ${fmt(Math.max(capacity(inv) - used, 0))} free, needs ${fmt(amount)} (groups together)`,
        label: `${rc} short`,
      };
    if (amount > inv.maxUnit)
      return {
        code: "RESOURCE_UNIT",
        message: `${rc}: needs ${fmt(amount)} (groups together), above max_unit ${inv.maxUnit}`,
        label: UNIT,
      };
  }
  return null;
}

export function mergedAmounts(rr: ResourceRequest): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of rr.groups.values()) for (const [rc, n] of g.resources) out.set(rc, (out.get(rc) ?? 0) + n);
  return out;
}

/** GET /allocation_candidates?<rr> over the cloud. */
export function allocationCandidates(
  rr: ResourceRequest,
  cloud: PlacementCloud,
  labels: AggregateLabel[],
): CandidateQuery {
  const reasons = new Map<Provider, Reason>();
  const refused = refusal(rr, cloud);
  if (refused) {
    const why: Reason = { code: "PLACEMENT_REFUSED", message: `Placement refused the query: ${refused}` };
    for (const p of cloud.providers) reasons.set(p, why);
    return { refused, matched: [], returned: [], allocations: new Map(), reasons };
  }
  const matched: Provider[] = [];
  for (const p of cloud.providers) {
    const why = providerReason(p, rr, labels);
    if (why) reasons.set(p, why);
    else matched.push(p);
  }
  const limit = rr.limit;
  const returned = limit !== null && limit < matched.length ? matched.slice(0, limit) : matched;
  if (returned.length < matched.length) {
    const why: Reason = {
      code: "NOT_IN_CANDIDATE_LIMIT",
      message: `a candidate, but not among the first ${fmt(limit!)} (max_placement_results)`,
      label: `not among the first ${fmt(limit!)} candidates`,
    };
    for (const p of matched.slice(returned.length)) reasons.set(p, why);
  }
  const merged = mergedAmounts(rr);
  const allocations = new Map<Provider, Map<string, number>>();
  for (const p of returned) allocations.set(p, merged);
  return { refused: null, matched, returned, allocations, reasons };
}

/** PUT /allocations/{consumer}: the claim succeeds when every class still fits. */
export function claim(p: Provider, amounts: Map<string, number>): Reason | null {
  for (const [rc, amount] of amounts) {
    const inv = p.inventories.get(rc);
    if (!inv) return { code: `${rc}_SHORT`, message: `no ${rc} inventory`, label: `${rc} short` };
    const used = p.used.get(rc) ?? 0;
    if (used + amount > capacity(inv)) return shortReason(p, rc, amount);
    const unit = unitReason(rc, amount, inv);
    if (unit) return unit;
  }
  for (const [rc, amount] of amounts) p.used.set(rc, (p.used.get(rc) ?? 0) + amount);
  return null;
}
