/**
 * Tiny hand-made result documents for the unit tests of lib/runs (a builder,
 * so each table row states only what it is about).
 */
import type { FunnelStep, RequestResult, ScheduleResult, WeighedHostResult } from "@/lib/scheduler/result";

/** A funnel stage: `rejected` as [host, reason] pairs. */
export function stage(
  filter: string,
  inCount: number,
  rejected: Array<[string, string] | [string, string, string]> = [],
  stageKind: "placement" | "filter" = "filter",
): FunnelStep {
  const step: FunnelStep = {
    filter,
    stage: stageKind,
    in: inCount,
    out: inCount - rejected.length,
    rejected: rejected.map(([h]) => h),
    reasons: rejected.map(([, r]) => r),
  };
  // [host, reason, code]: a result with reason codes; without, one stored before them.
  if (rejected.some((r) => r.length === 3)) step.codes = rejected.map((r) => r[2] ?? filter);
  return step;
}

/** Weighed hosts, best first: [host, weight] or [host, weight, {weigher: [raw, normalized, multiplier, source?]}]. */
export function weighed(
  ...rows: Array<[string, number] | [string, number, Record<string, [number, number, number, string?]>]>
): WeighedHostResult[] {
  return rows.map(([host, weight, ws]) => ({
    host,
    weight,
    weighers: Object.fromEntries(
      Object.entries(ws ?? {}).map(([name, [raw, normalized, multiplier, source]]) => [
        name,
        { raw, normalized, multiplier, score: multiplier * normalized, source: source ?? "config" },
      ]),
    ),
  }));
}

export function request(index: number, funnel: FunnelStep[], w: WeighedHostResult[], chosen?: string): RequestResult {
  const r: RequestResult = { index, funnel, weighed: w };
  const c = chosen ?? w[0]?.host;
  if (c) r.chosen = c;
  return r;
}

/** A successful run: each request chooses its first weighed host. */
export function ok(requests: RequestResult[], alternates: string[][] = []): ScheduleResult {
  return {
    error: null,
    selections: requests.map((r, i) => ({ host: r.chosen!, alternates: alternates[i] ?? [] })),
    requests,
    timing: { engine_ms: 1 },
  };
}

export function noValidHost(
  requests: RequestResult[],
  lastFilter: string | null,
  summary = "0/0 hosts available",
): ScheduleResult {
  const last = requests[requests.length - 1];
  if (last) delete last.chosen;
  return {
    error: "NoValidHost",
    selections: [],
    requests,
    diagnosis: { summary, lastFilter, index: requests.length - 1 },
    timing: { engine_ms: 1 },
  };
}
