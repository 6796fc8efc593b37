/**
 * Two runs side by side (/runs/compare): for each instance index, which hosts
 * moved in rank (rank and weight in A vs B), which filter changed its verdict
 * for which host (rejected by X in A, passed in B, ...), and how the chosen
 * host and alternates differ. Pure, over two result documents.
 */
import type { RequestResult, ScheduleResult } from "@/lib/scheduler/result";

export type Verdict =
  /** survived every filter and was weighed */
  | { kind: "passed"; rank: number }
  | {
      kind: "rejected";
      filter: string;
      reason: string /** the reason's stable code, when the result has codes */;
      code?: string;
    }
  /** not evaluated at this index (out since an earlier instance, or the list emptied before) */
  | { kind: "absent" };

export interface RankChange {
  host: string;
  /** 1-based; null = not weighed in that run */
  rankA: number | null;
  rankB: number | null;
  weightA: number | null;
  weightB: number | null;
  /** rankA - rankB (> 0: moved up in B); null when one side is missing */
  moved: number | null;
}

export interface VerdictChange {
  host: string;
  a: Verdict;
  b: Verdict;
}

export interface FilterChange {
  filter: string;
  /** hosts this stage rejects in B but did not in A */
  nowRejects: string[];
  /** hosts this stage rejected in A but does not in B */
  noLongerRejects: string[];
}

export interface FunnelDiff {
  filter: string;
  /** hosts left after the stage; null = the stage did not run */
  outA: number | null;
  outB: number | null;
}

/** A weigher whose contribution (multiplier × normalised value) differs between the runs. */
export interface WeigherChange {
  weigher: string;
  /** "added": weighs only in B (a newer release's weigher), "removed": only in A. */
  kind: "changed" | "added" | "removed";
  /** Hosts weighed in both runs whose score from this weigher differs. */
  hosts: number;
  /** The host it moved most, with its score in each run (null where the weigher did not weigh). */
  most: { host: string; scoreA: number | null; scoreB: number | null };
}

export interface InstanceComparison {
  index: number;
  chosenA: string | null;
  chosenB: string | null;
  chosenChanged: boolean;
  alternatesA: string[];
  alternatesB: string[];
  /** in B's alternates, not in A's */
  alternatesAdded: string[];
  /** in A's alternates, not in B's */
  alternatesRemoved: string[];
  /** the lists differ (members or order) */
  alternatesChanged: boolean;
  /** hosts whose rank differs, the best placed (in either run) first */
  rankChanges: RankChange[];
  /** hosts weighed at the same rank in both runs */
  sameRank: number;
  verdictChanges: VerdictChange[];
  filterChanges: FilterChange[];
  funnel: FunnelDiff[];
  /** Which weighers moved the weights, the largest change first. */
  weigherChanges: WeigherChange[];
}

export interface RunComparison {
  /** The Nova release of each run ("what changes when we upgrade"); null for results stored before releases. */
  releaseA: string | null;
  releaseB: string | null;
  errorA: string | null;
  errorB: string | null;
  instances: InstanceComparison[];
  /** nothing differs: same error, same selections, same ranks, same verdicts */
  identical: boolean;
}

const EMPTY: RequestResult = { index: 0, funnel: [], weighed: [] };

/** Every host's verdict at one instance index. */
export function verdicts(req: RequestResult | undefined): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  if (!req) return out;
  for (const f of req.funnel) {
    const rejected = f.rejected ?? [];
    for (let j = 0; j < rejected.length; j++) {
      const code = f.codes?.[j];
      out.set(
        rejected[j],
        code
          ? { kind: "rejected", filter: f.filter, reason: f.reasons?.[j] ?? "", code }
          : { kind: "rejected", filter: f.filter, reason: f.reasons?.[j] ?? "" },
      );
    }
  }
  for (let k = 0; k < req.weighed.length; k++) out.set(req.weighed[k].host, { kind: "passed", rank: k + 1 });
  return out;
}

export function sameVerdict(a: Verdict, b: Verdict): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "rejected" && b.kind === "rejected") return a.filter === b.filter;
  return true;
}

function unionInOrder(...lists: string[][]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const l of lists)
    for (const x of l) {
      if (seen.has(x)) continue;
      seen.add(x);
      out.push(x);
    }
  return out;
}

export function compareInstance(a: ScheduleResult, b: ScheduleResult, index: number): InstanceComparison {
  const ra = a.requests[index] ?? EMPTY;
  const rb = b.requests[index] ?? EMPTY;
  const chosenA = a.requests[index]?.chosen ?? null;
  const chosenB = b.requests[index]?.chosen ?? null;
  const alternatesA = a.selections[index]?.alternates ?? [];
  const alternatesB = b.selections[index]?.alternates ?? [];

  // ranks
  const posA = new Map(ra.weighed.map((w, k) => [w.host, k] as const));
  const posB = new Map(rb.weighed.map((w, k) => [w.host, k] as const));
  const rankChanges: RankChange[] = [];
  let sameRank = 0;
  for (const host of unionInOrder(
    ra.weighed.map((w) => w.host),
    rb.weighed.map((w) => w.host),
  )) {
    const ka = posA.get(host);
    const kb = posB.get(host);
    if (ka !== undefined && ka === kb) {
      sameRank++;
      continue;
    }
    rankChanges.push({
      host,
      rankA: ka === undefined ? null : ka + 1,
      rankB: kb === undefined ? null : kb + 1,
      weightA: ka === undefined ? null : ra.weighed[ka].weight,
      weightB: kb === undefined ? null : rb.weighed[kb].weight,
      moved: ka === undefined || kb === undefined ? null : ka - kb,
    });
  }
  const best = (r: RankChange) => Math.min(r.rankA ?? Infinity, r.rankB ?? Infinity);
  rankChanges.sort(
    (x, y) => best(x) - best(y) || (x.rankB ?? Infinity) - (y.rankB ?? Infinity) || x.host.localeCompare(y.host),
  );

  // verdicts
  const va = verdicts(a.requests[index]);
  const vb = verdicts(b.requests[index]);
  const absent: Verdict = { kind: "absent" };
  const verdictChanges: VerdictChange[] = [];
  const byFilter = new Map<string, FilterChange>();
  const change = (filter: string) => {
    let c = byFilter.get(filter);
    if (!c) byFilter.set(filter, (c = { filter, nowRejects: [], noLongerRejects: [] }));
    return c;
  };
  for (const host of unionInOrder([...va.keys()], [...vb.keys()])) {
    const x = va.get(host) ?? absent;
    const y = vb.get(host) ?? absent;
    if (sameVerdict(x, y)) continue;
    verdictChanges.push({ host, a: x, b: y });
    if (x.kind === "rejected") change(x.filter).noLongerRejects.push(host);
    if (y.kind === "rejected") change(y.filter).nowRejects.push(host);
  }
  const stageOrder = unionInOrder(
    rb.funnel.map((f) => f.filter),
    ra.funnel.map((f) => f.filter),
  );
  const filterChanges = [...byFilter.values()].sort(
    (x, y) => stageOrder.indexOf(x.filter) - stageOrder.indexOf(y.filter),
  );

  const outA = new Map(ra.funnel.map((f) => [f.filter, f.out] as const));
  const outB = new Map(rb.funnel.map((f) => [f.filter, f.out] as const));
  const funnel: FunnelDiff[] = unionInOrder(
    ra.funnel.map((f) => f.filter),
    rb.funnel.map((f) => f.filter),
  ).map((filter) => ({
    filter,
    outA: outA.get(filter) ?? null,
    outB: outB.get(filter) ?? null,
  }));

  const setA = new Set(alternatesA);
  const setB = new Set(alternatesB);
  return {
    weigherChanges: weigherChanges(ra, rb),
    index,
    chosenA,
    chosenB,
    chosenChanged: chosenA !== chosenB,
    alternatesA,
    alternatesB,
    alternatesAdded: alternatesB.filter((h) => !setA.has(h)),
    alternatesRemoved: alternatesA.filter((h) => !setB.has(h)),
    alternatesChanged: alternatesA.length !== alternatesB.length || alternatesA.some((h, i) => alternatesB[i] !== h),
    rankChanges,
    sameRank,
    verdictChanges,
    filterChanges,
    funnel,
  };
}

/** Per weigher, how its scores differ between two weighings of the same hosts. */
export function weigherChanges(ra: RequestResult, rb: RequestResult): WeigherChange[] {
  const inB = new Map(rb.weighed.map((w) => [w.host, w] as const));
  const names = unionInOrder(
    ra.weighed.flatMap((w) => Object.keys(w.weighers)).filter((n, i, all) => all.indexOf(n) === i),
    rb.weighed.flatMap((w) => Object.keys(w.weighers)).filter((n, i, all) => all.indexOf(n) === i),
  );
  const out: Array<WeigherChange & { delta: number }> = [];
  for (const name of names) {
    let hosts = 0;
    let most: WeigherChange["most"] | null = null;
    let delta = 0;
    let inA = false;
    let inBoth = false;
    let onlyB = false;
    for (const wa of ra.weighed) {
      const wb = inB.get(wa.host);
      if (!wb) continue;
      const sa = wa.weighers[name]?.score ?? null;
      const sb = wb.weighers[name]?.score ?? null;
      if (sa !== null) inA = true;
      if (sb !== null && sa === null) onlyB = true;
      if (sa !== null && sb !== null) inBoth = true;
      const d = Math.abs((sb ?? 0) - (sa ?? 0));
      if (d <= 1e-12 && (sa === null) === (sb === null)) continue;
      hosts++;
      if (!most || d > delta) {
        most = { host: wa.host, scoreA: sa, scoreB: sb };
        delta = d;
      }
    }
    if (!most) continue;
    const kind = inBoth ? "changed" : onlyB && !inA ? "added" : "removed";
    out.push({ weigher: name, kind, hosts, most, delta });
  }
  return out.sort((x, y) => y.delta - x.delta).map(({ delta: _, ...c }) => c);
}

export function compareResults(a: ScheduleResult, b: ScheduleResult): RunComparison {
  const n = Math.max(a.requests.length, b.requests.length);
  const instances = Array.from({ length: n }, (_, i) => compareInstance(a, b, i));
  const identical =
    a.error === b.error &&
    a.selections.length === b.selections.length &&
    instances.every(
      (c) => !c.chosenChanged && !c.alternatesChanged && !c.rankChanges.length && !c.verdictChanges.length,
    );
  return {
    releaseA: a.nova_release ?? null,
    releaseB: b.nova_release ?? null,
    errorA: a.error,
    errorB: b.error,
    instances,
    identical,
  };
}

/** What a filter's changed verdicts mean across releases: the Nova change that makes it decide differently. */
const FILTER_RELEASE_CHANGES: Record<string, string> = {
  NUMATopologyFilter:
    "pinned guest cells must fit the host cell's free small pages since Nova 30 (2024.2, f14c16af82), and a page size is no longer also checked against free memory",
  ImagePropertiesFilter:
    "img_hv_requested_version is read as PEP 440 versions since 2025.1; image hw_maxphysaddr_bits is read since 2024.1",
  ComputeCapabilitiesFilter: "flavor hw:maxphysaddr_bits is checked against the host's cpu_info since 2024.1",
  AggregateMultiTenancyIsolation: "every filter_tenant_id* aggregate key is read since 2024.2",
  Placement:
    "the Placement query changed (the AZ request filter always on since 2023.2; packed ring, maxphysaddr, vTPM model, stateless firmware, sound model and TPM secret security traits in later releases)",
};

/** The terms of a Placement query ("resources=VCPU:1&required=X" → its parts), for a diff. */
function queryTerms(q: string | null | undefined): string[] {
  return (q ?? "").split("&").filter(Boolean);
}

/**
 * The release differences that changed the answer between two runs of the
 * same request under different Nova releases, in words: a filter that no
 * longer ran, a weigher one release has and the other lacks (when it ranks
 * hosts apart), a filter deciding differently (with the Nova change that
 * makes it), Placement query terms, and a new error. Empty when the
 * releases are the same or nothing release-specific is seen.
 */
export function releaseDifferences(a: ScheduleResult, b: ScheduleResult): string[] {
  if (!a.nova_release || !b.nova_release || a.nova_release === b.nova_release) return [];
  const out: string[] = [];
  const notesA = new Set(a.release_notes ?? []);
  const notesB = new Set(b.release_notes ?? []);
  for (const n of notesB) if (!notesA.has(n)) out.push(`${b.nova_release}: ${n}`);
  for (const n of notesA) if (!notesB.has(n)) out.push(`${a.nova_release}: ${n}`);
  const ra = a.requests[0];
  const rb = b.requests[0];
  const weighersOf = (r: RequestResult | undefined) => new Set(Object.keys(r?.weighed[0]?.weighers ?? {}));
  const wa = weighersOf(ra);
  const wb = weighersOf(rb);
  const sideOf = (r: RequestResult | undefined, only: Set<string>, other: Set<string>, release: string) => {
    for (const w of only) {
      if (other.has(w)) continue;
      const scores = new Set((r?.weighed ?? []).map((h) => h.weighers[w]?.score ?? 0));
      out.push(
        scores.size > 1
          ? `${w} weighs only under ${release} and ranks the hosts apart`
          : `${w} weighs only under ${release} (the same for every host)`,
      );
    }
  };
  // one weighed host is not weighed at all (no weighers in its breakdown)
  if ((ra?.weighed.length ?? 0) > 1 && (rb?.weighed.length ?? 0) > 1) {
    sideOf(rb, wb, wa, b.nova_release);
    sideOf(ra, wa, wb, a.nova_release);
  }
  const cmp = compareResults(a, b);
  const seen = new Set<string>();
  for (const c of cmp.instances) {
    for (const f of c.filterChanges) {
      if (seen.has(f.filter)) continue;
      seen.add(f.filter);
      const why = FILTER_RELEASE_CHANGES[f.filter];
      const what = [
        f.nowRejects.length ? `now rejects ${f.nowRejects.join(", ")}` : null,
        f.noLongerRejects.length ? `no longer rejects ${f.noLongerRejects.join(", ")}` : null,
      ]
        .filter(Boolean)
        .join("; ");
      out.push(`${f.filter} ${what}${why ? `: ${why}` : ""}`);
    }
  }
  const qa = queryTerms(a.placement?.query);
  const qb = queryTerms(b.placement?.query);
  const added = qb.filter((t) => !qa.includes(t));
  const removed = qa.filter((t) => !qb.includes(t));
  if (added.length || removed.length)
    out.push(
      `the Placement query ${[added.length ? `adds ${added.join(", ")}` : null, removed.length ? `drops ${removed.join(", ")}` : null].filter(Boolean).join(" and ")}`,
    );
  if (a.error !== b.error && b.error === "OrphanedObjectError")
    out.push(
      `${b.nova_release}: ImagePropertiesWeigher cannot read the server group's stub instance on a host chosen earlier in the request (OrphanedObjectError)`,
    );
  return out;
}
