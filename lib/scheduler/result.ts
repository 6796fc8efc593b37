/**
 * The result document of SCENARIO.md, materialised from a ScheduleRun after
 * the clock stopped (the engine keeps columns; objects are built here), plus
 * Schedscope's explanations: per-host reasons, multiplier sources and the
 * NoValidHost diagnosis.
 */
import type { FunnelStage, InstanceTrace, ScheduleRun } from "./engine";
import type { Placement } from "./numa/consume";

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
}

export interface WeighedHostResult {
  host: string;
  weight: number;
  weighers: Record<string, WeigherBreakdown>;
}

export interface RequestResult {
  index: number;
  funnel: FunnelStep[];
  weighed: WeighedHostResult[];
  chosen?: string;
  subset?: string[];
}

export interface Diagnosis {
  /** "0/40 hosts available: 25 compute service disabled, 15 lack aggregate metadata gpu=true" */
  summary: string;
  /** The stage that removed the last hosts. */
  lastFilter: string | null;
  index: number;
}

export interface ScheduleResult {
  error: string | null;
  message?: string;
  /** numa / pci: what each instance took, when the request asked for NUMA or PCI. */
  selections: Array<{ host: string; alternates: string[] } & Placement>;
  requests: RequestResult[];
  diagnosis?: Diagnosis;
  timing: { engine_ms: number };
}

function funnelStep(f: FunnelStage, brief: boolean): FunnelStep {
  return brief
    ? ({ filter: f.filter, stage: f.stage, in: f.in, out: f.out } as FunnelStep)
    : {
        filter: f.filter,
        stage: f.stage,
        in: f.in,
        out: f.out,
        rejected: f.rejected.map((h) => h.host),
        reasons: f.reasons,
      };
}

function weighedHosts(t: InstanceTrace, limit: number): WeighedHostResult[] {
  const w = t.weighed;
  const out: WeighedHostResult[] = [];
  for (let k = 0; k < Math.min(w.order.length, limit); k++) {
    const i = w.order[k];
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
    out.push({ host: w.hosts[i].host, weight: w.weights[i], weighers });
  }
  return out;
}

/** Group a stage's reasons: identical ones are counted together. */
function summarizeStage(f: FunnelStage): string[] {
  const counts = new Map<string, number>();
  for (const r of f.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  if (counts.size <= 3) return [...counts].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${n} ${r}`);
  return [`${f.reasons.length} rejected by ${f.filter}`];
}

export function diagnose(run: ScheduleRun): Diagnosis | undefined {
  if (run.error?.name !== "NoValidHost") return undefined;
  const t = run.traces[run.traces.length - 1];
  if (!t) return undefined;
  const total = t.funnel.length ? t.funnel[0].in : 0;
  const parts = t.funnel.filter((f) => f.rejected.length).flatMap(summarizeStage);
  const last = [...t.funnel].reverse().find((f) => f.out === 0) ?? null;
  const which = run.traces.length > 1 ? ` (instance ${t.index + 1} of ${run.spec?.numInstances ?? "?"})` : "";
  return {
    summary: `0/${total} hosts available${which}${parts.length ? `: ${parts.join(", ")}` : ""}`,
    lastFilter: last?.filter ?? null,
    index: t.index,
  };
}

export function toResult(run: ScheduleRun, opts: { brief?: boolean } = {}): ScheduleResult {
  const brief = opts.brief ?? false;
  const result: ScheduleResult = {
    error: run.error ? run.error.name : null,
    selections: run.selections.map((s) => ({
      host: s.host.host,
      alternates: s.alternates.map((h) => h.host),
      ...s.placement,
    })),
    requests: run.traces.map((t) => {
      const r: RequestResult = {
        index: t.index,
        funnel: t.funnel.map((f) => funnelStep(f, brief)),
        weighed: weighedHosts(t, brief ? 1 : Infinity),
      };
      if (t.subset) r.subset = t.subset.map((h) => h.host);
      if (t.chosen) r.chosen = t.chosen.host;
      return r;
    }),
    timing: { engine_ms: run.engineMs },
  };
  if (run.error && run.error.name !== "NoValidHost") result.message = run.error.message;
  const d = diagnose(run);
  if (d) result.diagnosis = d;
  return result;
}
