/**
 * Runway per flavor and AZ from the snapshot history (providers.ts):
 * the trend of what is allocated in the AZ (per resource class), and the
 * headroom the exact fill leaves for the flavor there. The AZ is full for
 * the flavor when the growth in some class reaches what the flavor's
 * remaining slots (the fill's count on the AZ's hosts) would take of it;
 * the earliest class decides. Under 7 days of history nothing is forecast.
 */
import { DAY_MS, MIN_HISTORY_DAYS, runway, type Point, type Runway } from "@/lib/capacity/runway";
import type { CapacityMetrics, MetricsCloud } from "./compute";
import type { RunwaySample } from "./exposition";
import type { AllocationPoint } from "./providers";

export const WINDOWS = [30, 90] as const;

export interface FlavorRunway {
  flavor: string;
  az: string;
  slots: number;
  window: (typeof WINDOWS)[number];
  /** The class that fills first, and its series (for the chart). */
  resource: string | null;
  runway: Runway;
  ceiling: number | null;
  series: Point[];
}

const CLASS_SIZE: Record<string, (f: NonNullable<MetricsCloud["flavors"]>[number]) => number> = {
  VCPU: (f) => f.vcpus,
  MEMORY_MB: (f) => f.memory_mb,
  DISK_GB: (f) => (f.root_gb ?? 0) + (f.ephemeral_gb ?? 0),
};

/** Days of history in `points` (newest minus oldest). */
export function historyDays(points: AllocationPoint[]): number {
  if (points.length < 2) return 0;
  const ts = points.map((p) => p.at.getTime());
  return (Math.max(...ts) - Math.min(...ts)) / DAY_MS;
}

/** Each flavor's runway per AZ and window; empty when there is no history at all. */
export function flavorRunways(
  cloud: MetricsCloud,
  m: CapacityMetrics,
  history: AllocationPoint[],
  extraSlots?: (flavor: string, az: string) => number,
): FlavorRunway[] {
  const azPoints = history.filter((p) => p.aggregate === "");
  if (!azPoints.length) return [];
  const newest = Math.max(...azPoints.map((p) => p.at.getTime()));
  const azOfHost = new Map(m.hypervisors.map((h) => [h.host, h.az]));
  const out: FlavorRunway[] = [];
  const zones = [...new Set(azPoints.map((p) => p.az))].sort();
  for (const f of cloud.flavors ?? []) {
    const slots = m.flavors.find((s) => s.flavor === f.name);
    if (!slots) continue;
    for (const az of zones) {
      let n = extraSlots?.(f.name, az) ?? 0;
      for (const [host, c] of slots.perHost) if (azOfHost.get(host) === az) n += c;
      const pts = azPoints.filter((p) => p.az === az);
      for (const window of WINDOWS) {
        let best: FlavorRunway | null = null;
        for (const [rc, size] of Object.entries(CLASS_SIZE)) {
          const per = size(f);
          if (!(per > 0)) continue;
          const series = pts
            .filter((p) => p.allocated[rc] !== undefined)
            .map((p) => ({ t: (p.at.getTime() - newest) / DAY_MS, y: p.allocated[rc] }));
          if (!series.length) continue;
          const current = series[series.length - 1].y;
          const ceiling = current + n * per;
          const r = runway(series, { now: 0, windowDays: window, ceiling });
          const cand: FlavorRunway = { flavor: f.name, az, slots: n, window, resource: rc, runway: r, ceiling, series };
          if (!best || earlier(r, best.runway)) best = cand;
        }
        if (best) out.push(best);
      }
    }
  }
  return out;
}

/** Is a sooner than b (a forecast beats no forecast)? */
function earlier(a: Runway, b: Runway): boolean {
  if (a.status !== "forecast") return false;
  if (b.status !== "forecast") return true;
  return a.days < b.days;
}

export function runwaySamples(runways: FlavorRunway[]): RunwaySample[] {
  const out: RunwaySample[] = [];
  for (const r of runways)
    if (r.runway.status === "forecast")
      out.push({
        flavor: r.flavor,
        az: r.az,
        window: `${r.window}d` as "30d" | "90d",
        days: r.runway.days,
        conservativeDays: r.runway.conservativeDays,
      });
  return out;
}

export { MIN_HISTORY_DAYS };
