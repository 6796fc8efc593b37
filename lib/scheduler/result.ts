/**
 * The result document of SCENARIO.md, materialised from a ScheduleRun after
 * the clock stopped (the engine keeps columns; objects are built here), plus
 * Schedscope's explanations: per-host reasons, multiplier sources and the
 * NoValidHost diagnosis.
 */
import { NO_VALID_HOST } from "./python";
import { REASON_LABELS } from "./reasons";
import type { FunnelStage, InstanceTrace, ScheduleRun } from "./run";
import type { MoveEcho } from "./moves";
import type { Placement } from "./numa/consume";
import { byName } from "./placement/trees";

export interface WeigherBreakdown {
  raw: number;
  normalized: number;
  multiplier: number;
  score: number;
  /** "config" or "aggregate NAME" (where the multiplier came from). */
  source: string;
}

export interface FunnelStep {
  filter: string;
  stage: "placement" | "filter";
  in: number;
  out: number;
  rejected: string[];
  /** Why each rejected host fell out, parallel to `rejected`. */
  reasons: string[];
  /** The stable code of each reason (e.g. "VCPU_SHORT"), parallel to `rejected`; absent in results stored before codes. */
  codes?: string[];
  /** The rejected hosts' nodes, parallel to `rejected`, when some node is named apart from its host. */
  rejected_nodes?: string[];
}

export interface WeighedHostResult {
  host: string;
  /** When some node is named apart from its host (several nodes per service host). */
  node?: string;
  weight: number;
  weighers: Record<string, WeigherBreakdown>;
}

export interface RequestResult {
  index: number;
  funnel: FunnelStep[];
  weighed: WeighedHostResult[];
  chosen?: string;
  subset?: string[];
  chosen_node?: string;
  subset_nodes?: string[];
}

export interface Diagnosis {
  /** "0/10,000 hosts available: 8,812 VCPU short, 1,040 not among the first 1,000 candidates, ..." */
  summary: string;
  /** The stage that removed the last hosts. */
  lastFilter: string | null;
  index: number;
  /** Rejections per reason code over the whole funnel, most frequent first (absent in older stored results). */
  groups?: Array<{ code: string; label: string; count: number; stage: string }>;
}

/** What the Placement path asked, got and claimed (SCENARIO.md "Placement"). */
export interface PlacementResult {
  query: string | null;
  fallback_query?: string;
  matched: number;
  candidates: number;
  claims: Array<{
    index: number;
    tried: string[];
    claimed: string | null;
    tried_nodes?: string[];
    claimed_node?: string | null;
    /** With child providers: the claimed allocation request, {provider name: {class: amount}}. */
    allocations?: Record<string, Record<string, number>> | null;
  }>;
  /** With child providers: every allocation request Nova got (both queries, in order). */
  allocation_requests?: Array<Record<string, Record<string, number>>>;
  /**
   * Real Placement may answer this query differently between runs: it adds
   * amounts into objects several combinations share, in a Python set's hash
   * order; this is one of its answers.
   */
  order_dependent?: true;
  /** Nova's request filters and what each added to the query. */
  request_filters: Array<{ name: string; effect: string | null }>;
}

export interface ScheduleResult {
  /** The Nova release whose behaviour produced this result, e.g. "26 (Zed)"; absent in older stored results. */
  nova_release?: string;
  /** What the release changed in the configuration (e.g. a filter it no longer ships). */
  release_notes?: string[];
  error: string | null;
  message?: string;
  /** numa / pci: what each instance took, when the request asked for NUMA or PCI. */
  selections: Array<{ host: string; alternates: string[]; node?: string; alternate_nodes?: string[] } & Placement>;
  requests: RequestResult[];
  diagnosis?: Diagnosis;
  placement?: PlacementResult;
  /** A move (SCENARIO.md "Moves"): the instance, its source and the RequestSpec Nova prepared. */
  move?: MoveEcho;
  /**
   * What a real cloud would still check that the answer does not (a live
   * migration's destination compute pre-checks, which the Nova reference
   * stubs too): "not checked: …".
   */
  not_checked?: string;
  timing: { engine_ms: number };
}

function funnelStep(f: FunnelStage, brief: boolean, nodes: boolean): FunnelStep {
  if (brief) return { filter: f.filter, stage: f.stage, in: f.in, out: f.out } as FunnelStep;
  const step: FunnelStep = {
    filter: f.filter,
    stage: f.stage,
    in: f.in,
    out: f.out,
    rejected: f.rejected.map((h) => h.host),
    reasons: f.reasons,
    codes: f.codes,
  };
  if (nodes) step.rejected_nodes = f.rejected.map((h) => h.nodename);
  return step;
}

function weighedHosts(t: InstanceTrace, limit: number, nodes: boolean): WeighedHostResult[] {
  const w = t.weighed;
  const out: WeighedHostResult[] = [];
  // The reference keys its per-weigher breakdown by (service host, node), so
  // entries that repeat both all show the last one's (in filter order); the
  // weights themselves stay per entry.
  let last: Map<string, number> | null = null;
  if (w.columns.length) {
    const keys = new Set(w.hosts.map((h) => `${h.host}\0${h.nodename}`));
    if (keys.size < w.hosts.length) last = new Map(w.hosts.map((h, i) => [`${h.host}\0${h.nodename}`, i]));
  }
  for (let k = 0; k < Math.min(w.order.length, limit); k++) {
    const own = w.order[k];
    const i = last?.get(`${w.hosts[own].host}\0${w.hosts[own].nodename}`) ?? own;
    const weighers: Record<string, WeigherBreakdown> = {};
    for (const c of w.columns) {
      const m = c.byView[w.hosts[i].aggregates.id]!;
      weighers[c.name] = {
        raw: c.raw[i],
        normalized: c.normalized[i],
        multiplier: m.value,
        score: m.value * c.normalized[i],
        source: m.source,
      };
    }
    const item: WeighedHostResult = { host: w.hosts[own].host, weight: w.weights[own], weighers };
    if (nodes) item.node = w.hosts[own].nodename;
    out.push(item);
  }
  return out;
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * Group a trace's rejections by reason code, in funnel order of first
 * appearance, most frequent first. A code's label is the one its reason
 * gave, else the single message all its hosts share, else "rejected by
 * STAGE": the text is never parsed.
 */
export function groupByCode(funnel: FunnelStage[]): NonNullable<Diagnosis["groups"]> {
  const groups = new Map<
    string,
    { code: string; label: string; count: number; stage: string; messages: Set<string> }
  >();
  for (const f of funnel) {
    for (let i = 0; i < f.codes.length; i++) {
      const code = f.codes[i];
      let g = groups.get(code);
      if (!g)
        groups.set(code, (g = { code, label: f.labels[code] ?? "", count: 0, stage: f.filter, messages: new Set() }));
      g.count++;
      if (g.messages.size < 2) g.messages.add(f.reasons[i]);
    }
  }
  return [...groups.values()]
    .map(({ messages, ...g }) => ({
      ...g,
      label:
        g.label ||
        // one message says it all; one that starts with a number reads after the count with "with" ("8 with 50 instances already")
        (messages.size === 1
          ? /^\d/.test([...messages][0])
            ? `with ${[...messages][0]}`
            : [...messages][0]
          : (REASON_LABELS[g.code] ?? `rejected by ${g.stage}`)),
    }))
    .sort((a, b) => b.count - a.count);
}

export function diagnose(run: ScheduleRun): Diagnosis | undefined {
  if (run.error?.name !== "NoValidHost") return undefined;
  const t = run.traces[run.traces.length - 1];
  const which = t && run.traces.length > 1 ? ` (instance ${t.index + 1} of ${run.spec?.numInstances ?? "?"})` : "";
  if (!t) {
    // Nova gave up before asking Placement (a request filter, an unknown forced host).
    const why = run.error.message.startsWith(NO_VALID_HOST)
      ? run.error.message.slice(NO_VALID_HOST.length).trimStart()
      : run.error.message;
    return {
      summary: `0/${count(run.hosts.length)} hosts available${why ? `: ${why}` : ""}`,
      lastFilter: null,
      index: 0,
      groups: [],
    };
  }
  const total = t.funnel.length ? t.funnel[0].in : 0;
  const groups = groupByCode(t.funnel);
  const parts = groups.map((g) => `${count(g.count)} ${g.label}`);
  // The stage that emptied the list: one that had hosts and kept none.
  const last = [...t.funnel].reverse().find((f) => f.out === 0 && f.in > 0) ?? null;
  return {
    summary: `0/${count(total)} hosts available${which}${parts.length ? `: ${parts.join(", ")}` : ""}`,
    lastFilter: last?.filter ?? null,
    index: t.index,
    groups,
  };
}

/** Whether some compute node is named apart from its service host: results then name nodes too. */
function namesNodes(run: ScheduleRun): boolean {
  for (const h of run.hosts) if (h.nodename !== h.host) return true;
  return false;
}

export function toResult(run: ScheduleRun, opts: { brief?: boolean } = {}): ScheduleResult {
  const brief = opts.brief ?? false;
  const nodes = namesNodes(run);
  const result: ScheduleResult = {
    nova_release: run.config.release.label,
    error: run.error ? run.error.name : null,
    selections: run.selections.map((s) => {
      const sel: ScheduleResult["selections"][number] = {
        host: s.host.host,
        alternates: s.alternates.map((h) => h.host),
      };
      if (nodes) {
        sel.node = s.host.nodename;
        sel.alternate_nodes = s.alternates.map((h) => h.nodename);
      }
      return Object.assign(sel, s.placement);
    }),
    requests: run.traces.map((t) => {
      const r: RequestResult = {
        index: t.index,
        funnel: t.funnel.map((f) => funnelStep(f, brief, nodes)),
        weighed: weighedHosts(t, brief ? 1 : Infinity, nodes),
      };
      if (t.subset) r.subset = t.subset.map((h) => h.host);
      if (t.subset && nodes) r.subset_nodes = t.subset.map((h) => h.nodename);
      if (t.chosen) r.chosen = t.chosen.host;
      if (t.chosen && nodes) r.chosen_node = t.chosen.nodename;
      return r;
    }),
    timing: { engine_ms: run.engineMs },
  };
  if (run.error && run.error.name !== "NoValidHost") result.message = run.error.message;
  if (run.config.releaseNotes.length) result.release_notes = run.config.releaseNotes;
  if (run.placement) {
    const p = run.placement;
    result.placement = {
      query: p.query,
      matched: p.matched,
      candidates: p.candidates,
      claims: p.claims.map((c) => {
        const claim: PlacementResult["claims"][number] = {
          index: c.index,
          tried: c.tried.map((h) => h.host),
          claimed: c.claimed?.host ?? null,
        };
        if (nodes) {
          claim.tried_nodes = c.tried.map((h) => h.nodename);
          claim.claimed_node = c.claimed?.nodename ?? null;
        }
        if (c.allocations !== undefined) claim.allocations = c.allocations ? byName(c.allocations) : null;
        return claim;
      }),
      request_filters: p.requestFilters,
    };
    if (p.fallbackQuery !== undefined) result.placement.fallback_query = p.fallbackQuery;
    if (p.orderDependent) result.placement.order_dependent = true;
    if (p.requests && !brief) result.placement.allocation_requests = p.requests.map(byName);
  }
  if (run.move) {
    result.move = run.move;
    if (run.move.not_checked) result.not_checked = `not checked: ${run.move.not_checked}`;
  }
  const d = diagnose(run);
  if (d) result.diagnosis = d;
  return result;
}
