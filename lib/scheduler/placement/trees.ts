/**
 * GET /allocation_candidates when some compute node has providers under it
 * (Placement 8.0, Zed, with trees in the database): the unnumbered group may
 * spread over a tree (one provider per resource class, its required traits
 * on any provider it uses, no provider it uses with a forbidden one), each
 * numbered group sits on one provider, group_policy=isolate keeps numbered
 * groups on different providers, and every combination whose summed amounts
 * fit is one allocation request (AllocationCandidates._get_by_requests,
 * _alloc_candidates_multiple_providers, _alloc_candidates_single_provider,
 * _merge_candidates). No provider shares via aggregate here.
 */
import type { PlacementReason, PlacementReasonCode } from "./reasons";
import { pySetOrder } from "./py-set-order";
import { type PlacementCloud, type Provider, type ResourceProvider, capacity } from "./providers";
import type { RequestGroup, ResourceRequest } from "./resource-request";

/** What each required aggregate list stands for (from the request filter that added it). */
export interface AggregateLabel {
  code: PlacementReasonCode;
  message: string;
}

/** One allocation request: amounts per provider, and the tree it is in. */
export interface AllocationRequest {
  root: Provider;
  allocations: Map<ResourceProvider, Map<string, number>>;
}

/**
 * Placement's AllocationRequestResource: an object, shared between the
 * allocation requests that use it, whose amount consolidation may add to
 * (see treeCandidates).
 */
interface Arr {
  p: ResourceProvider;
  rc: string;
  amount: number;
}

/** What one group can take in one tree: resources per provider, and the providers it maps to. */
interface GroupFit {
  res: Arr[];
  providers: ResourceProvider[];
}

export interface TreeQuery {
  /** Allocation requests Placement returned (after `limit`), in its (pinned) order. */
  requests: AllocationRequest[];
  /** How many matched before `limit`. */
  matched: number;
  /** Trees with a returned allocation request, in the scenario's order. */
  returned: Provider[];
  /** Why each other tree has none, by host index (null: returned). */
  reasons: (PlacementReason | null)[];
  /** Some tree's answer depends on an order real Placement does not fix (treeAnswer). */
  orderDependent: boolean;
}

function fits(p: ResourceProvider, rc: string, amount: number): boolean {
  const inv = p.inventories.get(rc);
  if (!inv) return false;
  return (
    (p.used.get(rc) ?? 0) + amount <= capacity(inv) &&
    inv.minUnit <= amount &&
    amount <= inv.maxUnit &&
    amount % inv.stepSize === 0
  );
}

function treeOf(root: Provider): ResourceProvider[] {
  return [root, ...root.children];
}

/** The unnumbered group in one tree (get_trees_matching_all, then the combinations). */
function unnumberedFits(
  g: RequestGroup,
  tree: ResourceProvider[],
  labels: AggregateLabel[],
): { fits: GroupFit[]; why: PlacementReason | null } {
  const root = tree[0] as Provider;
  for (let i = 0; i < g.aggregates.length; i++)
    if (!g.aggregates[i].some((a) => root.aggregates.has(a))) {
      const l = labels[i] ?? { code: "NOT_IN_AGGREGATE", message: "not in a required aggregate" };
      return { fits: [], why: { code: l.code, message: l.message } };
    }
  for (const a of g.forbiddenAggregates)
    if (root.aggregates.has(a))
      return {
        fits: [],
        why: { code: "ISOLATED_AGGREGATE", message: "in an aggregate that requires traits the request lacks" },
      };
  const perClass: Array<[string, number, ResourceProvider[]]> = [];
  for (const [rc, amount] of g.resources) {
    const ps = tree.filter((p) => fits(p, rc, amount));
    if (!ps.length)
      return {
        fits: [],
        why: { code: `${rc}_SHORT`, message: `no provider in its tree has ${amount} ${rc} free`, label: `${rc} short` },
      };
    perClass.push([rc, amount, ps]);
  }
  if (g.required.size || g.forbidden.size) {
    // _get_trees_with_traits: the providers with room, less those with a forbidden trait, must
    // together have every required trait (or, with none required, be at least one).
    const good = new Set<ResourceProvider>();
    for (const [, , ps] of perClass)
      for (const p of ps) if (![...g.forbidden].some((t) => p.traits.has(t))) good.add(p);
    if (!good.size)
      return {
        fits: [],
        why: { code: "TRAIT_FORBIDDEN", message: "every provider with room has a forbidden trait" },
      };
    for (const t of g.required)
      if (![...good].some((p) => p.traits.has(t)))
        return {
          fits: [],
          why: { code: "TRAIT_MISSING", message: `lacks trait ${t}`, label: "lack a required trait" },
        };
  }
  const out: GroupFit[] = [];
  const pick: ResourceProvider[] = new Array(perClass.length);
  // One object per (provider, class), shared by every combination that uses it.
  const arrs = perClass.map(([rc, amount, ps]) => new Map(ps.map((p) => [p, { p, rc, amount }])));
  const walk = (k: number) => {
    if (k === perClass.length) {
      // _check_traits_for_alloc_request
      for (const p of pick) for (const t of g.forbidden) if (p.traits.has(t)) return;
      for (const t of g.required) if (!pick.some((p) => p.traits.has(t))) return;
      out.push({ res: pick.map((p, i) => arrs[i].get(p)!), providers: [...new Set(pick)] });
      return;
    }
    for (const p of perClass[k][2]) {
      pick[k] = p;
      walk(k + 1);
    }
  };
  walk(0);
  return out.length
    ? { fits: out, why: null }
    : {
        fits: out,
        why: { code: "TRAIT_MISSING", message: "no providers with room together have the required traits" },
      };
}

/** A numbered group in one tree: each provider that holds all of it (get_provider_ids_matching). */
function numberedFits(g: RequestGroup, tree: ResourceProvider[]): { fits: GroupFit[]; why: PlacementReason | null } {
  const out: GroupFit[] = [];
  let why: PlacementReason | null = null;
  for (const p of tree) {
    let ok = true;
    for (const t of g.required) if (!p.traits.has(t)) ok = false;
    for (const t of g.forbidden) if (p.traits.has(t)) ok = false;
    if (!ok) {
      why ??= { code: "TRAIT_MISSING", message: `no provider in its tree has the traits of request group ${g.suffix}` };
      continue;
    }
    if (g.aggregates.length && !g.aggregates.every((l) => l.some((a) => p.aggregates.has(a)))) continue;
    if ([...g.forbiddenAggregates].some((a) => p.aggregates.has(a))) continue;
    let room = true;
    for (const [rc, amount] of g.resources) if (!fits(p, rc, amount)) room = false;
    if (!room) continue;
    out.push({ res: [...g.resources].map(([rc, amount]) => ({ p, rc, amount })), providers: [p] });
  }
  if (out.length) return { fits: out, why: null };
  const rcs = [...g.resources.keys()].join(", ");
  return {
    fits: out,
    why: why ?? {
      code: "GROUP_UNSATISFIED",
      message: `no provider in its tree holds request group ${g.suffix} (${rcs})`,
      label: "no provider for a numbered request group",
    },
  };
}

export type Tuple = [number, string, number];

function compareTuples(a: Tuple[], b: Tuple[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x[0] !== y[0]) return x[0] - y[0];
    if (x[1] !== y[1]) return x[1] < y[1] ? -1 : 1;
    if (x[2] !== y[2]) return x[2] - y[2];
  }
  return a.length - b.length;
}

/**
 * The order Placement lists a numbered group's allocation requests in: the
 * iteration order of the Python set of (id, root id) of every provider with
 * room for the group's last resource class (research_context
 * get_provider_ids_matching), ids in creation order from 1.
 */
function numberedRank(g: RequestGroup, cloud: PlacementCloud): Map<ResourceProvider, number> {
  const last = [...g.resources]
    .map(([rc, n]) => `${rc}:${n}`)
    .sort()
    .at(-1);
  const rank = new Map<ResourceProvider, number>();
  if (!last) return rank;
  const rc = last.slice(0, last.lastIndexOf(":"));
  const amount = g.resources.get(rc)!;
  const ps: ResourceProvider[] = [];
  for (const root of cloud.providers) {
    if (fits(root, rc, amount)) ps.push(root);
    for (const c of root.children) if (fits(c, rc, amount)) ps.push(c);
  }
  const order = pySetOrder(ps.map((p) => [p.seq + 1, p.root.seq + 1] as const));
  for (let i = 0; i < order.length; i++) rank.set(ps[order[i]], i);
  return rank;
}

/**
 * The allocation requests of every tree; `groupHasFit` tells, per group in
 * `order`, whether any tree could take it alone (Placement stops at the first
 * group that cannot, before it checks the next group's names).
 *
 * _merge_candidates as Placement 8.0 runs it: the product of the groups'
 * candidates in the order the query string created the groups, each
 * combination consolidated by adding amounts of the same provider and class
 * into the first object seen (copied first only for group_policy=none and
 * a class several groups ask for), so with isolate or no policy an amount
 * added for one combination stays in the shared object for the next ones and
 * in what is returned; then the capacity check on those amounts. The
 * unnumbered group's candidates come from a set Placement iterates in hash
 * order: here they are taken in provider creation order.
 */
export function treeCandidates(
  rr: ResourceRequest,
  cloud: PlacementCloud,
  order: RequestGroup[],
  anchor: (p: Provider) => PlacementReason | null,
  labels: AggregateLabel[],
  /** The compiled query, when its answers per tree may be kept on the cloud. */
  key: string | null = null,
  /** With one unnumbered group: whether a compute node alone holds the whole request (provider-columns.ts). */
  fitsAlone: ((root: Provider) => boolean) | null = null,
): TreeQuery & { groupHasFit: boolean[] } {
  const reasons: (PlacementReason | null)[] = new Array(cloud.providers.length).fill(null);
  const groupHasFit = order.map(() => false);
  const ctx = treeContext(rr, cloud, order, anchor, labels);
  if (fitsAlone && order.length === 1 && order[0].suffix === "" && order[0].resources.size) {
    ctx.fitsAlone = fitsAlone;
    // one provider's tuples differ in their class only (a group names each class once)
    ctx.aloneKey = [...order[0].resources].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  const numbered = ctx.numbered;
  // A numbered group's order comes from the whole cloud's usage: no tree's answer stands alone then.
  const kept =
    key !== null && numbered === 0 && cloud.answers
      ? cloud.answers.trees<TreeAnswer>(key, cloud.providers.length)
      : null;
  // Placement's own order is a set's; the reference pins it to provider creation order. A tree's
  // providers are created together, so requests of different trees compare by their trees' order.
  const all: Array<{ areq: AllocationRequest; key: Tuple[] }> = [];
  const listed = rr.limit ?? Number.POSITIVE_INFINITY;
  let beyond = 0;
  let orderDependent = false;
  for (const root of cloud.providers) {
    let answer = kept ? kept[root.index] : undefined;
    const version = kept ? treeVersion(root) : 0;
    if (!answer || answer.version !== version) {
      answer = treeAnswer(root, ctx);
      answer.version = version;
      if (kept) kept[root.index] = answer;
    }
    reasons[root.index] = answer.why;
    if (answer.orderDependent) orderDependent = true;
    for (let k = 0; k < answer.fit.length; k++) if (answer.fit[k]) groupHasFit[k] = true;
    // Past the limit a request is only counted: a tree's one request on its root is built once kept.
    if (answer.alone) {
      if (all.length < listed) all.push((answer.request ??= aloneRequest(root, ctx.order[0], ctx.aloneKey!)));
      else beyond++;
    } else for (const r of answer.requests) all.push(r);
  }
  const matched = all.length + beyond;
  const limit = rr.limit;
  const returnedRequests = limit !== null && limit < all.length ? all.slice(0, limit) : all;
  const inKept = new Uint8Array(cloud.providers.length);
  for (const { areq } of returnedRequests) inKept[areq.root.index] = 1;
  const returned: Provider[] = [];
  const beyondLimit: PlacementReason = {
    code: "NOT_IN_CANDIDATE_LIMIT",
    message: `matched, but not among the first ${limit} allocation candidates (max_placement_results = ${limit}): never considered by the filters`,
    label: `not among the first ${limit} allocation candidates`,
  };
  for (const p of cloud.providers) {
    if (inKept[p.index]) returned.push(p);
    else if (!reasons[p.index]) reasons[p.index] = beyondLimit;
  }
  return { requests: returnedRequests.map((k) => k.areq), matched, returned, reasons, groupHasFit, orderDependent };
}

/** What every tree's answer to one query needs. */
export function treeContext(
  rr: ResourceRequest,
  cloud: PlacementCloud,
  order: RequestGroup[],
  anchor: (p: Provider) => PlacementReason | null,
  labels: AggregateLabel[],
): TreeContext {
  const seenRc = new Set<string>();
  const multiGroupRcs = new Set<string>();
  for (const g of order) for (const rc of g.resources.keys()) (seenRc.has(rc) ? multiGroupRcs : seenRc).add(rc);
  return {
    rr,
    order,
    anchor,
    labels,
    numbered: order.filter((g) => g.suffix !== "").length,
    multiGroupRcs,
    copyShared: rr.groupPolicy === "none",
    ranks: order.map((g) => (g.suffix === "" ? null : numberedRank(g, cloud))),
  };
}

export interface TreeContext {
  rr: ResourceRequest;
  order: RequestGroup[];
  anchor: (p: Provider) => PlacementReason | null;
  labels: AggregateLabel[];
  numbered: number;
  multiGroupRcs: Set<string>;
  copyShared: boolean;
  ranks: Array<Map<ResourceProvider, number> | null>;
  /** See treeCandidates: set only for one unnumbered group. */
  fitsAlone?: (root: Provider) => boolean;
  /** With fitsAlone: the group's classes and amounts in the order of a request's key. */
  aloneKey?: Array<[string, number]>;
}

/** One tree's answer to the query: its allocation requests (in Placement's order), or why it has none. */
export interface TreeAnswer {
  why: PlacementReason | null;
  requests: Array<{ areq: AllocationRequest; key: Tuple[] }>;
  /** Per group in query order: the tree could take the group alone. */
  fit: boolean[];
  /** The tree's usage when answered (treeVersion). */
  version: number;
  /** A compute node without children that holds the one unnumbered group: its one request, built once kept. */
  alone?: true;
  request?: { areq: AllocationRequest; key: Tuple[] };
  /** Its answer depends on the order Placement takes combinations in (see treeAnswer): real runs differ. */
  orderDependent?: boolean;
}

const FIT_ALONE = [true];
const NO_REQUESTS: TreeAnswer["requests"] = [];

/** Changes when any provider of the tree changes its usage (versions only grow). */
function treeVersion(root: Provider): number {
  let v = root.usageVersion;
  for (const c of root.children) if (c.usageVersion > v) v = c.usageVersion;
  return v;
}

export function treeAnswer(root: Provider, ctx: TreeContext): TreeAnswer {
  const { rr, order, numbered, multiGroupRcs, copyShared } = ctx;
  // A tree of one provider that holds the one group: its one request, as the walk below would build it.
  if (ctx.fitsAlone && root.children.length === 0 && ctx.fitsAlone(root))
    return { why: null, requests: NO_REQUESTS, fit: FIT_ALONE, version: 0, alone: true };
  const fit = order.map(() => false);
  const notAnchor = ctx.anchor(root);
  if (notAnchor) return { why: notAnchor, requests: [], fit, version: 0 };
  const tree = treeOf(root);
  const perGroup: GroupFit[][] = [];
  let why: PlacementReason | null = null;
  for (let k = 0; k < order.length; k++) {
    const g = order[k];
    let r: { fits: GroupFit[]; why: PlacementReason | null };
    if (g.inTree !== null && g.inTree !== root.uuid && !root.children.some((c) => c.uuid === g.inTree))
      r = { fits: [], why: { code: "NOT_FORCED_HOST", message: "not the forced host" } };
    else r = g.suffix === "" ? unnumberedFits(g, tree, ctx.labels) : numberedFits(g, tree);
    const rank = ctx.ranks[k];
    if (rank) r.fits.sort((a, b) => (rank.get(a.providers[0]) ?? 0) - (rank.get(b.providers[0]) ?? 0));
    perGroup.push(r.fits);
    if (r.fits.length) fit[k] = true;
    else why ??= r.why;
  }
  if (why) return { why, requests: [], fit, version: 0 };
  const kept: Arr[][] = [];
  // Placement adds an amount into an object other combinations share: what they hold then depends on
  // the order the combinations are taken in, a Python set's hash order (it differs between runs).
  let sharedAdded = false;
  let combinations = 0;
  let isolateFailed = false;
  let shortFailed: PlacementReason | null = null;
  const pick: GroupFit[] = new Array(order.length);
  const walk = (k: number) => {
    if (k < order.length) {
      for (const f of perGroup[k]) {
        pick[k] = f;
        walk(k + 1);
      }
      return;
    }
    if (rr.groupPolicy === "isolate") {
      const distinct = new Set<ResourceProvider>();
      for (let i = 0; i < order.length; i++) if (order[i].suffix !== "") distinct.add(pick[i].providers[0]);
      if (distinct.size !== numbered) {
        isolateFailed = true;
        return;
      }
    }
    // _consolidate_allocation_requests
    combinations++;
    const reps = new Map<ResourceProvider, Map<string, Arr>>();
    const res: Arr[] = [];
    for (const f of pick)
      for (const arr of f.res) {
        let byRc = reps.get(arr.p);
        if (!byRc) reps.set(arr.p, (byRc = new Map()));
        const rep = byRc.get(arr.rc);
        if (rep) {
          rep.amount += arr.amount;
          // only a class several groups ask for is added to, and with copyShared its object is this combination's copy
          if (!copyShared) sharedAdded = true;
        } else {
          const first = copyShared && multiGroupRcs.has(arr.rc) ? { ...arr } : arr;
          byRc.set(arr.rc, first);
          res.push(first);
        }
      }
    // exceeds_capacity, on the amounts as they are now (capacity as an int here)
    for (const { p, rc, amount } of res) {
      const inv = p.inventories.get(rc)!;
      if ((p.used.get(rc) ?? 0) + amount > Math.trunc(capacity(inv)) || amount > inv.maxUnit) {
        shortFailed ??= {
          code: `${rc}_SHORT`,
          message: `${rc}: the request groups together need ${amount} of ${p.name}`,
          label: `${rc} short`,
        };
        return;
      }
    }
    kept.push(res);
  };
  walk(0);
  const orderDependent = sharedAdded && combinations > 1;
  if (!kept.length)
    return {
      why:
        shortFailed ??
        (isolateFailed
          ? {
              code: "GROUP_POLICY",
              message: "group_policy=isolate: its providers cannot hold each numbered request group on its own",
            }
          : { code: "NO_CANDIDATE", message: "no allocation candidate in its provider tree" }),
      requests: [],
      fit,
      version: 0,
      ...(orderDependent ? { orderDependent } : {}),
    };
  // What Placement returns: the objects' amounts once every combination of the tree was consolidated.
  const requests = kept.map((res) => {
    const allocations = new Map<ResourceProvider, Map<string, number>>();
    const key: Tuple[] = [];
    for (const { p, rc, amount } of res) {
      let m = allocations.get(p);
      if (!m) allocations.set(p, (m = new Map()));
      m.set(rc, amount);
      key.push([p.seq, rc, amount]);
    }
    key.sort((a, b) => compareTuples([a], [b]));
    return { areq: { root, allocations }, key };
  });
  requests.sort((a, b) => compareTuples(a.key, b.key));
  return { why: null, requests, fit, version: 0, ...(orderDependent ? { orderDependent } : {}) };
}

/** The one request of a compute node without children that holds the one unnumbered group, as the walk builds it. */
function aloneRequest(
  root: Provider,
  g: RequestGroup,
  order: Array<[string, number]>,
): { areq: AllocationRequest; key: Tuple[] } {
  const amounts = new Map(g.resources);
  const key: Tuple[] = order.map(([rc, amount]) => [root.seq, rc, amount]);
  return { areq: { root, allocations: new Map([[root, amounts]]) }, key };
}

/** PUT /allocations/{consumer} of a whole allocation request: every provider's classes must still fit. */
export function claimRequest(areq: AllocationRequest): PlacementReason | null {
  const why = claimRequestReason(areq);
  if (why) return why;
  for (const [p, m] of areq.allocations) p.allocate(m);
  return null;
}

/** Why claimRequest would fail now; null when it succeeds. */
export function claimRequestReason(areq: AllocationRequest): PlacementReason | null {
  for (const [p, m] of areq.allocations)
    for (const [rc, amount] of m) {
      const inv = p.inventories.get(rc);
      const used = p.used.get(rc) ?? 0;
      if (!inv) return { code: `${rc}_SHORT`, message: `no ${rc} inventory on ${p.name}`, label: `${rc} short` };
      if (used + amount > capacity(inv))
        return {
          code: `${rc}_SHORT`,
          message: `${rc}: ${Math.max(capacity(inv) - used, 0)} free on ${p.name}, needs ${amount}`,
          label: `${rc} short`,
        };
      if (amount < inv.minUnit || amount > inv.maxUnit || amount % inv.stepSize !== 0)
        return {
          code: "RESOURCE_UNIT",
          message: `${rc}: ${amount} on ${p.name} is outside min_unit/max_unit/step_size`,
          label: "outside min_unit/max_unit/step_size",
        };
    }
  return null;
}

/** {provider name: {class: amount}}, as the reference prints an allocation request. */
export function byName(areq: AllocationRequest): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [p, m] of areq.allocations) out[p.name] = Object.fromEntries(m);
  return out;
}
