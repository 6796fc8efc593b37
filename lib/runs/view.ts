/**
 * The result view model: what /schedule and /runs/[id] show of a stored
 * result document (lib/scheduler/result.ts), shaped so that the page stays
 * small whatever the cloud's size: per instance the funnel counts with the
 * most common reasons, the top N weighed hosts for the charts (chosen and
 * alternates always included), and pages of the weighed table and of the
 * why-not list. Pure functions over the result: the server builds the first
 * view, the API route (app/api/runs/[id]/hosts) serves the other pages.
 */
import type { FunnelStep, RequestResult, ScheduleResult, WeigherBreakdown } from "@/lib/scheduler/result";
import type { ScenarioRequest } from "@/lib/scheduler/scenario";
import { explainFailure, groupReasons, type DiagnosisView, type ReasonCount } from "./advice";
import {
  placementView,
  releaseOf,
  conductorProvenanceOf,
  releaseProvenanceOf,
  selectionFits,
  type PlacementView,
  type SelectionFit,
} from "./fit-view";

export const CHART_TOP_N = 25;
export const PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 200;

export type HostRole = "chosen" | "alternate";

export interface WeighedRow {
  /** 1-based rank in the weighed list */
  rank: number;
  host: string;
  weight: number;
  role: HostRole | null;
  /** 1-based position among the instance's alternates */
  alternate?: number;
  weighers: Record<string, WeigherBreakdown>;
}

export interface FunnelRow {
  filter: string;
  stage: "placement" | "filter";
  in: number;
  out: number;
  removed: number;
  /** the most common reasons (at most 3) */
  reasons: ReasonCount[];
  /** hosts removed for other reasons than those listed */
  otherReasons: number;
}

export interface RejectedRow {
  host: string;
  /** instance index (0-based) */
  index: number;
  /** position of the stage in that instance's funnel */
  step: number;
  filter: string;
  stage: "placement" | "filter";
  reason: string;
}

export interface Page<T> {
  rows: T[];
  offset: number;
  limit: number;
  /** rows matching the query */
  total: number;
}

export interface MultiplierUse {
  weigher: string;
  multiplier: number;
  /** "config" or "aggregate NAME" */
  source: string;
  hosts: number;
}

export interface InstanceSummary {
  index: number;
  chosen: string | null;
  alternates: string[];
  /** hosts entering the first stage */
  hostsIn: number;
  survivors: number;
  rejected: number;
  funnel: FunnelRow[];
}

export interface InstanceDetail {
  index: number;
  weigherNames: string[];
  /** top CHART_TOP_N by rank, plus the chosen host and the alternates, in rank order */
  chart: WeighedRow[];
  multipliers: MultiplierUse[];
  table: Page<WeighedRow>;
  whyNot: Page<RejectedRow>;
}

export interface RunView {
  error: string | null;
  message?: string;
  diagnosis: DiagnosisView | null;
  /** node: the compute node when the host has several (Ironic), as Nova's Selection names it */
  selections: Array<{ host: string; alternates: string[]; node?: string; alternate_nodes?: string[] }>;
  engineMs: number;
  instances: InstanceSummary[];
  /** details of instance index 0 (the others are fetched when selected) */
  detail0: InstanceDetail | null;
  /** per selection: the NUMA cells and PCI devices Nova fitted on the chosen host */
  fits: SelectionFit[];
  /** the Placement path's query, candidates and claims (null: not taken) */
  placement: PlacementView | null;
  /** the Nova release the run answered as */
  novaRelease: string;
  /** whether that release's answers were checked against a real Nova or read from its source */
  novaReleaseProvenance: string | null;
  /** what that release changed in this run's config (e.g. a filter it no longer ships) */
  releaseNotes: string[];
  /** computed without Placement: nothing checked RAM, CPU or disk */
  filtersOnly: boolean;
  /** a move: what moved, from where, and the RequestSpec Nova built (absent for a boot) */
  move?: NonNullable<ScheduleResult["move"]>;
  /** "not checked: …": what a real cloud would still check (a live migration's destination compute) */
  notChecked?: string;
  /** a move Nova's conductor decides (live-migrate, evacuate, unshelve): whether that release's conductor was checked or read from source */
  conductorProvenance?: string;
}

// ---------------------------------------------------------------------------

function clampPage(offset: number | undefined, limit: number | undefined): { offset: number; limit: number } {
  const l = Math.min(Math.max(Math.trunc(limit ?? PAGE_SIZE) || PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const o = Math.max(Math.trunc(offset ?? 0) || 0, 0);
  return { offset: o, limit: l };
}

function matcher(q: string | undefined): ((host: string) => boolean) | null {
  const s = (q ?? "").trim().toLowerCase();
  return s ? (h) => h.toLowerCase().includes(s) : null;
}

/** Chosen host and alternates of instance `index` (alternates only when the run succeeded). */
export function rolesOf(result: ScheduleResult, index: number): { chosen: string | null; alternates: string[] } {
  const req = result.requests[index];
  return { chosen: req?.chosen ?? null, alternates: result.selections[index]?.alternates ?? [] };
}

function rowOf(req: RequestResult, k: number, roles: { chosen: string | null; alternates: string[] }): WeighedRow {
  const w = req.weighed[k];
  const alt = roles.alternates.indexOf(w.host);
  const row: WeighedRow = {
    rank: k + 1,
    host: w.host,
    weight: w.weight,
    role: w.host === roles.chosen ? "chosen" : alt >= 0 ? "alternate" : null,
    weighers: w.weighers,
  };
  if (alt >= 0) row.alternate = alt + 1;
  return row;
}

export function funnelRows(req: RequestResult): FunnelRow[] {
  return req.funnel.map((f: FunnelStep) => {
    const removed = f.in - f.out;
    const grouped = f.reasons ? groupReasons(f.reasons) : [];
    const reasons = grouped.slice(0, 3);
    const listed = reasons.reduce((s, r) => s + r.count, 0);
    return { filter: f.filter, stage: f.stage, in: f.in, out: f.out, removed, reasons, otherReasons: removed - listed };
  });
}

export function summarizeInstance(result: ScheduleResult, index: number): InstanceSummary {
  const req = result.requests[index];
  const roles = rolesOf(result, index);
  const hostsIn = req.funnel.length ? req.funnel[0].in : req.weighed.length;
  return {
    index,
    chosen: roles.chosen,
    alternates: roles.alternates,
    hostsIn,
    survivors: req.weighed.length,
    rejected: req.funnel.reduce((s, f) => s + (f.in - f.out), 0),
    funnel: funnelRows(req),
  };
}

/** The weighers of an instance, in the engine's order. */
export function weigherNames(req: RequestResult): string[] {
  return req.weighed.length ? Object.keys(req.weighed[0].weighers) : [];
}

/** Chart rows: the top `n` plus the chosen host and alternates wherever they rank. */
export function chartRows(result: ScheduleResult, index: number, n = CHART_TOP_N): WeighedRow[] {
  const req = result.requests[index];
  if (!req) return [];
  const roles = rolesOf(result, index);
  const keep = new Set<number>();
  for (let k = 0; k < Math.min(n, req.weighed.length); k++) keep.add(k);
  const wanted = new Set([roles.chosen, ...roles.alternates].filter((h): h is string => !!h));
  if (wanted.size) {
    for (let k = n; k < req.weighed.length && wanted.size; k++) {
      if (wanted.has(req.weighed[k].host)) keep.add(k);
    }
  }
  return [...keep].sort((a, b) => a - b).map((k) => rowOf(req, k, roles));
}

/** Where each weigher's multiplier came from, over all survivors of the instance. */
export function multiplierUses(req: RequestResult): MultiplierUse[] {
  const out: MultiplierUse[] = [];
  for (const name of weigherNames(req)) {
    // source -> multiplier -> use; no key strings built per host (thousands of survivors)
    const by = new Map<string, Map<number, MultiplierUse>>();
    for (const w of req.weighed) {
      const b = w.weighers[name];
      if (!b) continue;
      let bySource = by.get(b.source);
      if (!bySource) by.set(b.source, (bySource = new Map()));
      const u = bySource.get(b.multiplier);
      if (u) u.hosts++;
      else bySource.set(b.multiplier, { weigher: name, multiplier: b.multiplier, source: b.source, hosts: 1 });
    }
    // the profile first, then aggregates by name
    out.push(
      ...[...by.values()]
        .flatMap((m) => [...m.values()])
        .sort((a, b) => (a.source === "config" ? -1 : b.source === "config" ? 1 : a.source.localeCompare(b.source))),
    );
  }
  return out;
}

export interface PageQuery {
  offset?: number;
  limit?: number;
  /** host name substring (case-insensitive) */
  q?: string;
}

export function weighedPage(result: ScheduleResult, index: number, query: PageQuery = {}): Page<WeighedRow> {
  const req = result.requests[index];
  const { offset, limit } = clampPage(query.offset, query.limit);
  if (!req) return { rows: [], offset, limit, total: 0 };
  const roles = rolesOf(result, index);
  const match = matcher(query.q);
  if (!match) {
    const rows: WeighedRow[] = [];
    for (let k = offset; k < Math.min(offset + limit, req.weighed.length); k++) rows.push(rowOf(req, k, roles));
    return { rows, offset, limit, total: req.weighed.length };
  }
  const hits: number[] = [];
  req.weighed.forEach((w, k) => {
    if (match(w.host)) hits.push(k);
  });
  return {
    rows: hits.slice(offset, offset + limit).map((k) => rowOf(req, k, roles)),
    offset,
    limit,
    total: hits.length,
  };
}

/** Every host that fell out at instance `index`, in funnel order. */
export function rejectedRows(result: ScheduleResult, index: number): RejectedRow[] {
  const req = result.requests[index];
  if (!req) return [];
  const out: RejectedRow[] = [];
  req.funnel.forEach((f, step) => {
    (f.rejected ?? []).forEach((host, j) => {
      out.push({ host, index, step, filter: f.filter, stage: f.stage, reason: f.reasons?.[j] ?? "" });
    });
  });
  return out;
}

export function rejectedPage(result: ScheduleResult, index: number, query: PageQuery = {}): Page<RejectedRow> {
  const { offset, limit } = clampPage(query.offset, query.limit);
  const match = matcher(query.q);
  let rows = rejectedRows(result, index);
  if (match) rows = rows.filter((r) => match(r.host));
  return { rows: rows.slice(offset, offset + limit), offset, limit, total: rows.length };
}

export function instanceDetail(
  result: ScheduleResult,
  index: number,
  query: { table?: PageQuery; whyNot?: PageQuery } = {},
): InstanceDetail | null {
  const req = result.requests[index];
  if (!req) return null;
  return {
    index,
    weigherNames: weigherNames(req),
    chart: chartRows(result, index),
    multipliers: multiplierUses(req),
    table: weighedPage(result, index, query.table),
    whyNot: rejectedPage(result, index, query.whyNot),
  };
}

export function buildRunView(result: ScheduleResult, request?: ScenarioRequest, config?: object | null): RunView {
  const release = releaseOf(result, config as { nova_release?: string } | null | undefined);
  const view: RunView = {
    error: result.error,
    diagnosis: explainFailure(result, request),
    selections: result.selections,
    engineMs: result.timing?.engine_ms ?? 0,
    instances: result.requests.map((_, i) => summarizeInstance(result, i)),
    detail0: instanceDetail(result, 0),
    fits: selectionFits(result.selections),
    placement: placementView(result),
    novaRelease: release,
    novaReleaseProvenance: releaseProvenanceOf(release),
    releaseNotes: result.release_notes ?? [],
    filtersOnly:
      config === undefined || config === null
        ? !result.placement
        : (config as { placement?: unknown }).placement !== true,
  };
  if (result.message !== undefined) view.message = result.message;
  if (result.move) {
    view.move = result.move;
    if (["live-migrate", "evacuate", "unshelve"].includes(result.move.operation)) {
      const p = conductorProvenanceOf(release);
      if (p) view.conductorProvenance = p;
    }
  }
  if (result.not_checked) view.notChecked = result.not_checked;
  return view;
}

// ---------------------------------------------------------------------------
// Why not host X? The fate of a host at each instance index.

export type FateStep =
  | { index: number; kind: "rejected"; filter: string; stage: "placement" | "filter"; reason: string }
  | { index: number; kind: "weighed"; rank: number; weight: number; survivors: number; role: HostRole | null }
  /** not evaluated at this index: out since an earlier instance, or the list emptied before */
  | { index: number; kind: "skipped" };

export interface HostFate {
  host: string;
  steps: FateStep[];
}

/** host -> fate, over every host that entered the first instance's funnel. */
export type FateIndex = Map<string, FateStep[]>;

export function buildFateIndex(result: ScheduleResult): FateIndex {
  const idx: FateIndex = new Map();
  const n = result.requests.length;
  const get = (h: string) => {
    let s = idx.get(h);
    if (!s) idx.set(h, (s = new Array<FateStep>(n)));
    return s;
  };
  result.requests.forEach((req, i) => {
    const roles = rolesOf(result, i);
    req.funnel.forEach((f) => {
      (f.rejected ?? []).forEach((host, j) => {
        get(host)[i] = { index: i, kind: "rejected", filter: f.filter, stage: f.stage, reason: f.reasons?.[j] ?? "" };
      });
    });
    req.weighed.forEach((w, k) => {
      const alt = roles.alternates.includes(w.host);
      get(w.host)[i] = {
        index: i,
        kind: "weighed",
        rank: k + 1,
        weight: w.weight,
        survivors: req.weighed.length,
        role: w.host === roles.chosen ? "chosen" : alt ? "alternate" : null,
      };
    });
  });
  for (const steps of idx.values()) {
    for (let i = 0; i < n; i++) if (!steps[i]) steps[i] = { index: i, kind: "skipped" };
  }
  return idx;
}

/** Hosts whose name contains `q` (exact match first, then by name), with their fate. */
export function findFates(idx: FateIndex, q: string, limit = 10): { hosts: HostFate[]; total: number } {
  const s = q.trim().toLowerCase();
  if (!s) return { hosts: [], total: 0 };
  const hits: string[] = [];
  for (const h of idx.keys()) if (h.toLowerCase().includes(s)) hits.push(h);
  hits.sort((a, b) => {
    const ea = a.toLowerCase() === s ? 0 : 1;
    const eb = b.toLowerCase() === s ? 0 : 1;
    return ea - eb || a.localeCompare(b, "en", { numeric: true });
  });
  return { hosts: hits.slice(0, limit).map((h) => ({ host: h, steps: idx.get(h)! })), total: hits.length };
}

// ---------------------------------------------------------------------------
// A run's header: what was asked, with which profile, and what became of it.

export interface RunMeta {
  id: number;
  /** ISO time */
  createdAt: string;
  profileName: string | null;
  flavorName: string;
  numInstances: number;
  hostCount: number;
  engineMs: number | null;
  /** ISO time, null = not committed */
  committedAt: string | null;
  committedInstances: Array<{ index: number; uuid: string; name: string; host: string }> | null;
  request: ScenarioRequest;
  /** server timings of the schedule action (only right after it ran) */
  timings?: { loadMs: number; scheduleMs: number; engineMs: number; storeMs: number; totalMs: number };
}
