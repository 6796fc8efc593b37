/**
 * What the /explain page shows of one explained call: plain data, each
 * host with the reason it fell out on both sides, capped so a large cloud's
 * call stays small. Every string in it is the log's or the engine's text, to
 * be shown as text.
 */
import type { Difference, Explanation } from "./explain";
import { type InfoOnlyExplanation, infoOnly } from "./info-only";

const MAX_LISTED = 50;

export interface RemovedHost {
  host: string;
  reason: string;
}

export interface CallView {
  id: string;
  requestId: string;
  attempt: number;
  /** ISO time of the call's first line; null when the log gave none. */
  started: string | null;
  source: string;
  instanceUuids: string[];
  debug: boolean;
  agree: boolean;
  differences: Difference[];
  cloudLabel: string;
  logged: {
    startedWith: number | null;
    filters: Array<{ name: string; left: number; removed: RemovedHost[]; removedCount: number }>;
    weighed: Array<{ host: string; weight: number }>;
    selected: string[];
    error: string | null;
    errorDetail: string | null;
    placementQuery: string | null;
  };
  replayed: {
    funnel: Array<{
      filter: string;
      stage: string;
      in: number;
      out: number;
      removed: RemovedHost[];
      removedCount: number;
    }>;
    weighed: Array<{
      host: string;
      weight: number;
      weighers: Array<{ name: string; score: number; multiplier: number }>;
    }>;
    selected: string[];
    alternates: string[];
    error: string | null;
    summary: string | null;
    placementQuery: string | null;
    notSimulated: string[];
  } | null;
  infoOnly: InfoOnlyExplanation | null;
}

export function callView(e: Explanation): CallView {
  const c = e.call;
  const first = c.passes.find((p) => !p.alternates);
  const r = e.result;
  const req0 = r?.requests[0];
  return {
    id: c.id,
    requestId: c.requestId,
    attempt: c.attempt,
    started: Number.isFinite(c.started) ? new Date(c.started).toISOString() : null,
    source: `${c.source.file}:${c.source.line}`,
    instanceUuids: c.instanceUuids.slice(0, MAX_LISTED),
    debug: c.debug,
    agree: e.agree,
    differences: e.differences,
    cloudLabel: e.cloudLabel,
    logged: {
      startedWith: first?.startedWith ?? c.filterResults?.filters[0]?.start ?? null,
      filters: first?.filters.length
        ? first.filters.map((f) => ({
            name: f.name,
            left: f.hostsLeft,
            removed: f.removed.slice(0, MAX_LISTED).map((h, i) => ({ host: h, reason: f.reasons[i] ?? "" })),
            removedCount: f.removed.length,
          }))
        : e.logged.filters.map(([name, left]) => ({ name, left, removed: [], removedCount: 0 })),
      weighed: (first?.weighed ?? []).slice(0, 10).map((w) => ({ host: w.host, weight: w.weight })),
      selected: e.logged.selected,
      error: c.error,
      errorDetail: c.errorDetail,
      placementQuery: c.placementQuery,
    },
    replayed: r
      ? {
          funnel: (req0?.funnel ?? []).map((f) => ({
            filter: f.filter,
            stage: f.stage ?? "filter",
            in: f.in,
            out: f.out,
            removed: (f.rejected ?? []).slice(0, MAX_LISTED).map((h, i) => ({ host: h, reason: f.reasons?.[i] ?? "" })),
            removedCount: f.rejected?.length ?? f.in - f.out,
          })),
          weighed: (req0?.weighed ?? []).slice(0, 10).map((w) => ({
            host: w.host,
            weight: w.weight,
            weighers: Object.entries(w.weighers).map(([name, b]) => ({
              name,
              score: b.score,
              multiplier: b.multiplier,
            })),
          })),
          selected: r.selections.map((s) => s.host),
          alternates: r.selections[0]?.alternates ?? [],
          error: r.error,
          summary: r.diagnosis?.summary ?? r.message ?? null,
          placementQuery: r.placement?.query ?? null,
          notSimulated: (r.release_notes ?? []).filter((n) => n.includes("not simulated")),
        }
      : null,
    infoOnly: infoOnly(c, e),
  };
}
