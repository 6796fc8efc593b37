/**
 * The runway chart's data for /capacity and the overview: per flavor, its
 * tightest AZ's allocation history, the trend line, the conservative band
 * and the date the flavor is full; and the what-if "add N hosts like host
 * X": N empty copies of X (its size, its aggregates) take as many more of
 * the flavor as the exact fill puts on one empty copy (a flavor alone fills
 * hosts independently), added to X's AZ, and the date moves.
 *
 * Only real history is drawn: with no snapshots (the history helper not
 * merged, or no sync yet) or under 7 days of them, the view says so.
 */
import { DAY_MS, MIN_HISTORY_DAYS, predict, upperBound } from "@/lib/capacity/runway";
import type { PrismaClient } from "@/lib/db/client";
import { fill } from "@/lib/scheduler/fill";
import type { Scenario, ScenarioHost } from "@/lib/scheduler/scenario";
import { latestMetrics, refreshMetrics } from "./cache";
import type { MetricsCloud } from "./compute";
import { metricsProviders } from "./providers";
import { type FlavorRunway, flavorRunways, historyDays } from "./runway";
import { runwaySentence } from "@/lib/capacity/runway";

export interface RunwayChartPoint {
  /** Days from the newest snapshot (negative: the past). */
  day: number;
  date: string;
  allocated: number | null;
  trend: number | null;
  /** [trend, upper bound]: the band recharts draws as a range area. */
  band: [number, number] | null;
}

export interface RunwayRow {
  flavor: string;
  az: string;
  window: 30 | 90;
  resource: string | null;
  slots: number;
  sentence: string;
  fullDate: string | null;
  conservativeDate: string | null;
  ceiling: number | null;
  points: RunwayChartPoint[];
}

export type RunwayView =
  | { status: "pending"; message: string }
  | { status: "no-history" | "short-history"; historyDays: number; message: string }
  | {
      status: "ready";
      historyDays: number;
      flavors: string[];
      hosts: string[];
      flavor: string;
      rows: RunwayRow[];
      whatIf: { hosts: number; like: string; perHost: number; az: string } | null;
    };

export class RunwayInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Boots of `flavor` an empty copy of host `like` takes, by the exact fill. */
export function slotsOnEmptyCopy(cloud: MetricsCloud, flavorName: string, like: string): number {
  const h = cloud.hosts.find((x) => x.name === like);
  const flavor = cloud.flavors?.find((f) => f.name === flavorName);
  if (!h || !flavor) return 0;
  const name = `${like}-whatif-copy`;
  const copy: ScenarioHost = {
    ...h,
    name,
    node: name,
    instances: [],
    vcpus_used: 0,
    memory_mb_used: 0,
    local_gb_used: 0,
    pcpus_used: 0,
    num_instances: 0,
    num_io_ops: 0,
  };
  delete copy.free_ram_mb;
  delete copy.free_disk_gb;
  delete copy.disk_available_least;
  const { flavors: _f, images: _i, instances: _n, request: _r, ...base } = cloud;
  const { is_public: _p, ...f } = flavor;
  const scenario: Scenario = {
    ...base,
    hosts: [copy],
    aggregates: (cloud.aggregates ?? []).map((a) =>
      a.hosts?.includes(like) ? { ...a, hosts: [...a.hosts, name] } : { ...a, hosts: [] },
    ),
    request: { flavor: f, num_instances: 1 },
  };
  return fill(scenario, { limit: 100_000 }).count;
}

function chartPoints(r: FlavorRunway, newest: number): RunwayChartPoint[] {
  const pts: RunwayChartPoint[] = r.series
    .filter((p) => p.t > -r.window)
    .map((p) => ({ day: p.t, date: isoDay(newest + p.t * DAY_MS), allocated: p.y, trend: null, band: null }));
  if (r.runway.status === "short-history") return pts;
  const fit = r.runway.fit;
  const horizon = r.runway.status === "forecast" ? Math.min(Math.ceil(r.runway.days) + 7, 3650) : 30;
  for (const p of pts) {
    p.trend = predict(fit, p.day);
    p.band = [predict(fit, p.day), upperBound(fit, p.day)];
  }
  for (let d = 1; d <= horizon; d += Math.max(1, Math.floor(horizon / 60))) {
    pts.push({
      day: d,
      date: isoDay(newest + d * DAY_MS),
      allocated: null,
      trend: predict(fit, d),
      band: [predict(fit, d), upperBound(fit, d)],
    });
  }
  return pts;
}

export async function runwayView(
  db: PrismaClient,
  opts: { flavor?: string; addHosts?: number; like?: string } = {},
): Promise<RunwayView> {
  const history = await metricsProviders()
    .snapshotSeries(db)
    .catch(() => []);
  const days = historyDays(history);
  if (!history.length)
    return {
      status: "no-history",
      historyDays: 0,
      message: `No snapshot history yet: runway needs at least ${MIN_HISTORY_DAYS} days of snapshots of the running cloud. Nothing is forecast until then.`,
    };
  if (days < MIN_HISTORY_DAYS)
    return {
      status: "short-history",
      historyDays: Math.floor(days),
      message: `${Math.floor(days)} days of snapshot history: runway needs at least ${MIN_HISTORY_DAYS} days. Nothing is forecast until then.`,
    };
  const latest = latestMetrics(db);
  if (!latest?.complete) {
    refreshMetrics(db).catch(() => undefined);
    return {
      status: "pending",
      message: "Free slots per flavor are being computed for this cloud (every flavor's exact fill); reload shortly.",
    };
  }
  const cloud = latest.cloud;
  const flavors = (cloud.flavors ?? []).map((f) => f.name).sort();
  if (!flavors.length)
    return {
      status: "no-history",
      historyDays: Math.floor(days),
      message: "The cloud has no flavor: runway counts how many more of a flavor fit, so there is nothing to forecast.",
    };
  const flavor = opts.flavor ?? (flavors.includes("m1.large") ? "m1.large" : flavors[0]);
  if (!flavors.includes(flavor)) throw new RunwayInputError("flavor", `flavor: unknown flavor "${flavor}"`);
  let whatIf: Extract<RunwayView, { status: "ready" }>["whatIf"] = null;
  if (opts.addHosts && opts.like) {
    const hv = latest.metrics.hypervisors.find((h) => h.host === opts.like);
    if (!hv) throw new RunwayInputError("like", `like: no host named "${opts.like}"`);
    whatIf = {
      hosts: opts.addHosts,
      like: opts.like,
      perHost: slotsOnEmptyCopy(cloud, flavor, opts.like),
      az: hv.az,
    };
  }
  const one = { ...cloud, flavors: cloud.flavors?.filter((f) => f.name === flavor) };
  const runways = flavorRunways(one, latest.metrics, history, (_f, az) =>
    whatIf && whatIf.az === az ? whatIf.hosts * whatIf.perHost : 0,
  );
  const newest = Math.max(...history.map((p) => p.at.getTime()));
  const rows: RunwayRow[] = runways.map((r) => ({
    flavor: r.flavor,
    az: r.az,
    window: r.window,
    resource: r.resource,
    slots: r.slots,
    sentence: `${r.az}: ${runwaySentence(r.flavor, r.slots, r.window, r.runway)}`,
    fullDate: r.runway.status === "forecast" ? isoDay(newest + r.runway.days * DAY_MS) : null,
    conservativeDate: r.runway.status === "forecast" ? isoDay(newest + r.runway.conservativeDays * DAY_MS) : null,
    ceiling: r.ceiling,
    points: chartPoints(r, newest),
  }));
  return {
    status: "ready",
    historyDays: Math.floor(days),
    flavors,
    hosts: latest.metrics.hypervisors.map((h) => h.host).filter((h, i, all) => all.indexOf(h) === i),
    flavor,
    rows,
    whatIf,
  };
}
