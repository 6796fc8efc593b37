/**
 * GET /allocation_candidates over single-provider trees (Placement 8.0,
 * Zed): the query's checks that answer 400, then per provider each request
 * group (capacity, min_unit/max_unit/step_size, traits, member_of, in_tree),
 * the merged amounts, group_policy, and the `limit` cut. Every provider that
 * is not a candidate gets a reason with a stable code.
 */
import type { PlacementReason } from "./reasons";
import { type Inventory, type PlacementCloud, type Provider, capacity } from "./providers";
import { type RequestGroup, type ResourceRequest, suffixedGroups } from "./resource-request";
import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from "./standard-names";
import { type AggregateLabel, type AllocationRequest, treeCandidates } from "./trees";

export type { AggregateLabel };

const STANDARD_RC = new Set(STANDARD_RESOURCE_CLASSES);

export interface CandidateQuery {
  /** 400 from Placement: Nova gets no answer. */
  refused: string | null;
  /** Providers that matched, in provider creation (= scenario) order, before `limit`. */
  matched: Provider[];
  /** What Placement returned: the first `limit` of `matched`. */
  returned: Provider[];
  /** The allocation request of every returned provider (one provider per host): amounts per class, groups merged. */
  amounts: Map<string, number>;
  /** Why each other provider is not a candidate, by provider index (null: returned). */
  reasons: (PlacementReason | null)[];
  /**
   * With trees: the allocation requests returned, in order (`matched` and
   * `returned` then list the trees, and `amounts` is not what is claimed).
   */
  requests: AllocationRequest[] | null;
  /** With trees: allocation requests matched before `limit`. */
  matchedRequests?: number;
  /** With trees: real Placement may answer this query differently between runs (trees.ts treeAnswer). */
  orderDependent?: boolean;
}

/** 12345 → "12,345"; fractions to two places (Intl is slow in the host loop). */
function fmt(n: number): string {
  const text = Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
  const [whole, frac] = text.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac ? `${grouped}.${frac}` : grouped;
}

/** The checks Placement makes on the query string itself, before any search (each a 400). */
function parseRefusal(rr: ResourceRequest): string | null {
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
  return null;
}

/** The first query-string key of a group: Placement builds its groups in the order their keys first appear. */
function firstKey(g: RequestGroup): string {
  const keys = [`resources${g.suffix}`];
  if (g.required.size || g.forbidden.size) keys.push(`required${g.suffix}`);
  if (g.aggregates.length || g.forbiddenAggregates.size) keys.push(`member_of${g.suffix}`);
  if (g.inTree !== null) keys.push(`in_tree${g.suffix}`);
  return keys.sort()[0];
}

/**
 * The names Placement 8.0 checks while it searches (a 400 for an unknown
 * one), in its order, and the points where an empty answer stops it before it
 * looks at the rest (AllocationCandidates._get_by_requests): the root traits
 * (required, then forbidden), then no provider with them ends the search;
 * then group by group, in the order of the sorted query string: its resource
 * classes, no provider in its member_of aggregates ends it, its required then
 * forbidden traits, its in_tree provider, and no candidate for the group ends it.
 */
export function refusal(
  rr: ResourceRequest,
  cloud: PlacementCloud,
  q = compile(rr, []),
  groupHasFit: ((g: RequestGroup) => boolean) | null = null,
): string | null {
  const parse = parseRefusal(rr);
  if (parse) return parse;
  const unknownTraits = (names: Iterable<string>) => {
    const out = [...names].filter(
      (t) => !STANDARD_TRAITS.has(t) && !cloud.customTraits.has(t) && !cloud.addedStandardTraits.has(t),
    );
    return out.length ? `No such trait(s): ${out.sort().join(", ")}.` : null;
  };
  const rootUnknown = unknownTraits(rr.rootRequired) ?? unknownTraits(rr.rootForbidden);
  if (rootUnknown) return rootUnknown;
  const isAnchor = (p: Provider) => rootReason(p, q) === null;
  if ((rr.rootRequired.size || rr.rootForbidden.size) && !cloud.providers.some(isAnchor)) return null;
  for (const { g, checks } of groupOrder(rr, q)) {
    for (const rc of g.resources.keys())
      if (!STANDARD_RC.has(rc) && !cloud.customResourceClasses.has(rc))
        return `Invalid resource class in resources parameter: No such resource class ${rc}.`;
    if (g.aggregates.length && !cloud.providers.some((p) => g.aggregates.every((l) => memberOfAny(p, l)))) return null;
    const traitUnknown = unknownTraits(g.required) ?? unknownTraits(g.forbidden);
    if (traitUnknown) return traitUnknown;
    if (
      g.inTree !== null &&
      !cloud.providers.some((p) => p.uuid === g.inTree || p.children.some((c) => c.uuid === g.inTree))
    )
      return null;
    const hasFit = groupHasFit
      ? groupHasFit(g)
      : cloud.providers.some((p) => isAnchor(p) && groupReason(p, checks) === null);
    if (!hasFit) return null;
  }
  return null;
}

/** The groups in the order Placement builds them: by the first key of each in the sorted query string. */
export function groupOrder(rr: ResourceRequest, q: CompiledRequest): Array<{ g: RequestGroup; checks: GroupChecks }> {
  const order = [...rr.groups.values()].map((g, i) => ({ g, checks: q.groups[i], key: firstKey(g) }));
  order.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return order;
}

const UNIT = "outside min_unit/max_unit/step_size";

export function unitReason(rc: string, amount: number, inv: Inventory): PlacementReason | null {
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
export function shortReason(p: Provider, rc: string, amount: number): PlacementReason | null {
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

/** A request group as arrays: walked once per provider, so no iterator per provider. */
interface GroupChecks {
  inTree: string | null;
  aggregates: string[][];
  labels: AggregateLabel[];
  forbiddenAggregates: string[];
  required: string[];
  forbidden: string[];
  resources: Array<[string, number]>;
}

/** The query, prepared once for every provider it is asked of. */
export interface CompiledRequest {
  rootForbidden: string[];
  rootRequired: string[];
  groups: GroupChecks[];
  /** numbered groups, when group_policy=isolate needs several providers */
  isolated: number;
  merged: Array<[string, number]>;
}

export function compile(rr: ResourceRequest, labels: AggregateLabel[]): CompiledRequest {
  const granular = suffixedGroups(rr);
  return {
    rootForbidden: [...rr.rootForbidden],
    rootRequired: [...rr.rootRequired],
    groups: [...rr.groups.values()].map((g) => ({
      inTree: g.inTree,
      aggregates: g.aggregates,
      labels: g.suffix === "" ? labels : [],
      forbiddenAggregates: [...g.forbiddenAggregates],
      required: [...g.required],
      forbidden: [...g.forbidden],
      resources: [...g.resources],
    })),
    isolated: rr.groupPolicy === "isolate" && granular > 1 ? granular : 0,
    merged: [...mergedAmounts(rr)],
  };
}

function memberOfAny(p: Provider, aggregates: string[]): boolean {
  for (let i = 0; i < aggregates.length; i++) if (p.aggregates.has(aggregates[i])) return true;
  return false;
}

function groupReason(p: Provider, g: GroupChecks): PlacementReason | null {
  if (g.inTree !== null && g.inTree !== p.uuid) return { code: "NOT_FORCED_HOST", message: "not the forced host" };
  for (let i = 0; i < g.aggregates.length; i++) {
    if (!memberOfAny(p, g.aggregates[i])) {
      const l = g.labels[i] ?? { code: "NOT_IN_AGGREGATE", message: "not in a required aggregate" };
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

const traitMissing = (t: string): PlacementReason => ({
  code: "TRAIT_MISSING",
  message: `lacks trait ${t}`,
  label: "lack a required trait",
});
const traitForbidden = (t: string): PlacementReason =>
  t === "COMPUTE_STATUS_DISABLED"
    ? { code: "DISABLED", message: "compute service disabled (COMPUTE_STATUS_DISABLED)" }
    : { code: "TRAIT_FORBIDDEN", message: `has forbidden trait ${t}`, label: "have a forbidden trait" };

export function rootReason(p: Provider, q: CompiledRequest): PlacementReason | null {
  for (const t of q.rootForbidden) if (p.traits.has(t)) return traitForbidden(t);
  for (const t of q.rootRequired) if (!p.traits.has(t)) return traitMissing(t);
  return null;
}

export function compiledReason(p: Provider, q: CompiledRequest): PlacementReason | null {
  const root = rootReason(p, q);
  if (root) return root;
  for (const g of q.groups) {
    const why = groupReason(p, g);
    if (why) return why;
  }
  if (q.isolated)
    return {
      code: "GROUP_POLICY",
      message: `group_policy=isolate needs ${q.isolated} providers for ${q.isolated} numbered groups, a host has one`,
    };
  // Groups served by the same provider add up (Placement's final capacity check).
  for (const [rc, amount] of q.merged) {
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
  const q = compile(rr, labels);
  if (cloud.hasTrees) return fromTrees(rr, cloud, q, labels);
  let reasons: (PlacementReason | null)[] = new Array(cloud.providers.length).fill(null);
  const refused = refusal(rr, cloud, q);
  if (refused) {
    const why: PlacementReason = { code: "PLACEMENT_REFUSED", message: `Placement refused the query: ${refused}` };
    reasons.fill(why);
    return { refused, matched: [], returned: [], amounts: new Map(), reasons, requests: null };
  }
  const matched: Provider[] = [];
  if (cloud.answers) {
    const fits = columnFits(cloud, q);
    const reasonOf = fits
      ? (p: Provider) => (fits(p) ? null : compiledReason(p, q))
      : (p: Provider) => compiledReason(p, q);
    reasons = cloud.answers.reasons(JSON.stringify(q), cloud.providers, reasonOf);
    for (let i = 0; i < reasons.length; i++) if (!reasons[i]) matched.push(cloud.providers[i]);
  } else
    for (const p of cloud.providers) {
      const why = compiledReason(p, q);
      if (why) reasons[p.index] = why;
      else matched.push(p);
    }
  // Placement keeps the first `limit` allocation requests of its list (randomize_allocation_candidates
  // is off by default); the reference pins that list to provider creation order.
  const limit = rr.limit;
  const returned = limit !== null && limit < matched.length ? matched.slice(0, limit) : matched;
  if (returned.length < matched.length) {
    const why: PlacementReason = {
      code: "NOT_IN_CANDIDATE_LIMIT",
      message: `matched, but not among the first ${fmt(limit!)} allocation candidates (max_placement_results = ${limit}): never considered by the filters`,
      label: `not among the first ${fmt(limit!)} allocation candidates`,
    };
    for (let i = returned.length; i < matched.length; i++) reasons[matched[i].index] = why;
  }
  return { refused: null, matched, returned, amounts: mergedAmounts(rr), reasons, requests: null };
}

/** On a kept cloud, whether a compute node alone holds the query, read from its columns (provider-columns.ts). */
function columnFits(cloud: PlacementCloud, q: CompiledRequest): ((p: Provider) => boolean) | null {
  const columns = cloud.columns;
  const plan = columns?.plan(q);
  return plan ? (p) => columns!.fits(p, q, plan) : null;
}

/** The query over trees (trees.ts): allocation requests per tree, and the 400s met on the way. */
function fromTrees(
  rr: ResourceRequest,
  cloud: PlacementCloud,
  q: CompiledRequest,
  labels: AggregateLabel[],
): CandidateQuery {
  const parse = parseRefusal(rr);
  const fitsAlone = columnFits(cloud, q);
  const t = parse
    ? null
    : treeCandidates(
        rr,
        cloud,
        groupOrder(rr, q).map((o) => o.g),
        (p) => rootReason(p, q),
        labels,
        cloud.answers ? `${rr.groupPolicy}:${JSON.stringify(q)}` : null,
        fitsAlone,
      );
  const order = parse ? [] : groupOrder(rr, q).map((o) => o.g);
  const refused = parse ?? refusal(rr, cloud, q, (g) => t!.groupHasFit[order.indexOf(g)]);
  if (refused || !t) {
    const why: PlacementReason = { code: "PLACEMENT_REFUSED", message: `Placement refused the query: ${refused}` };
    return {
      refused,
      matched: [],
      returned: [],
      amounts: new Map(),
      reasons: new Array(cloud.providers.length).fill(why),
      requests: [],
      matchedRequests: 0,
    };
  }
  return {
    refused: null,
    matched: t.returned,
    returned: t.returned,
    amounts: mergedAmounts(rr),
    reasons: t.reasons,
    requests: t.requests,
    matchedRequests: t.matched,
    orderDependent: t.orderDependent,
  };
}

/** Why PUT /allocations/{consumer} would fail now: a class that no longer fits; null when it succeeds. */
export function claimReason(p: Provider, amounts: Map<string, number>): PlacementReason | null {
  for (const [rc, amount] of amounts) {
    const inv = p.inventories.get(rc);
    if (!inv) return { code: `${rc}_SHORT`, message: `no ${rc} inventory`, label: `${rc} short` };
    const used = p.used.get(rc) ?? 0;
    if (used + amount > capacity(inv)) return shortReason(p, rc, amount);
    const unit = unitReason(rc, amount, inv);
    if (unit) return unit;
  }
  return null;
}

/** PUT /allocations/{consumer}: the claim succeeds when every class still fits. */
export function claim(p: Provider, amounts: Map<string, number>): PlacementReason | null {
  const why = claimReason(p, amounts);
  if (why) return why;
  p.allocate(amounts);
  return null;
}
