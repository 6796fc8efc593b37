/**
 * Runway: how long until a flavor no longer fits, from the trend of what is
 * allocated. Pure math, no I/O:
 *
 * - the trend is an ordinary least-squares line through the last `window`
 *   days of daily (or any) snapshots of one quantity (e.g. MEMORY_MB
 *   allocated in an AZ);
 * - "full" is the day the line reaches `ceiling` (today's allocation plus
 *   the headroom the exact fill leaves for the flavor, in that quantity);
 * - the conservative date is the day the one-sided 95% upper prediction
 *   bound of the line reaches it: ŷ(t) + t(0.95, n−2)·s·√(1 + 1/n + (t−t̄)²/Sxx);
 * - under MIN_HISTORY_DAYS of history there is no forecast, and the answer
 *   says so; a flat or falling trend never fills.
 */

export const MIN_HISTORY_DAYS = 7;
export const DAY_MS = 86_400_000;

export interface Point {
  /** Days (any origin; the same as `now`). */
  t: number;
  y: number;
}

export interface LineFit {
  slope: number;
  intercept: number;
  n: number;
  tMean: number;
  sxx: number;
  /** Residual standard error (n − 2 degrees of freedom). */
  s: number;
}

export function fitLine(points: Point[]): LineFit {
  const n = points.length;
  if (n < 2) throw new RangeError("fitLine: at least 2 points are needed");
  let st = 0;
  let sy = 0;
  for (const p of points) {
    st += p.t;
    sy += p.y;
  }
  const tMean = st / n;
  const yMean = sy / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.t - tMean) ** 2;
    sxy += (p.t - tMean) * (p.y - yMean);
  }
  if (sxx === 0) throw new RangeError("fitLine: the points share one time");
  const slope = sxy / sxx;
  const intercept = yMean - slope * tMean;
  let sse = 0;
  for (const p of points) sse += (p.y - (intercept + slope * p.t)) ** 2;
  const s = n > 2 ? Math.sqrt(sse / (n - 2)) : 0;
  return { slope, intercept, n, tMean, sxx, s };
}

export const predict = (f: LineFit, t: number) => f.intercept + f.slope * t;

/** Student's t 95% one-sided quantile: a table to 5 df, then the Cornish–Fisher expansion around the normal's 1.6449 (< 0.1% off). */
export function tQuantile95(df: number): number {
  if (df <= 0) return Number.POSITIVE_INFINITY;
  // exact values where the expansion is poor
  const small = [0, 6.3138, 2.92, 2.3534, 2.1318, 2.015];
  if (df < small.length) return small[Math.floor(df)];
  const z = 1.6448536269514722;
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3)
  );
}

/** The one-sided 95% upper prediction bound of a new observation at t. */
export function upperBound(f: LineFit, t: number): number {
  if (f.n <= 2) return predict(f, t);
  return predict(f, t) + tQuantile95(f.n - 2) * f.s * Math.sqrt(1 + 1 / f.n + (t - f.tMean) ** 2 / f.sxx);
}

export type Runway =
  | { status: "short-history"; historyDays: number; message: string }
  | { status: "no-growth"; slopePerDay: number; fit: LineFit; message: string }
  | {
      status: "forecast";
      slopePerDay: number;
      fit: LineFit;
      /** Days from now until the trend line reaches the ceiling (0: already there). */
      days: number;
      /** Days until the upper prediction bound reaches it (≤ days). */
      conservativeDays: number;
    };

/** The points of the last `windowDays` days up to `now` (30 daily snapshots for a 30-day window). */
export function lastWindow(points: Point[], now: number, windowDays: number): Point[] {
  return points.filter((p) => p.t <= now && p.t > now - windowDays);
}

/**
 * When does the trend of `points` (last `windowDays` days) reach `ceiling`?
 * `now` is the time of the newest snapshot (same unit as t: days).
 */
export function runway(points: Point[], opts: { now: number; windowDays: number; ceiling: number }): Runway {
  const pts = lastWindow(points, opts.now, opts.windowDays);
  const span = pts.length ? opts.now - Math.min(...pts.map((p) => p.t)) : 0;
  const all = points.length ? opts.now - Math.min(...points.map((p) => p.t)) : 0;
  if (all < MIN_HISTORY_DAYS || pts.length < 3 || span <= 0) {
    return {
      status: "short-history",
      historyDays: Math.floor(all),
      message: `${Math.floor(all)} days of history: a forecast needs at least ${MIN_HISTORY_DAYS} days of snapshots`,
    };
  }
  const fit = fitLine(pts);
  if (!(fit.slope > 0)) {
    return {
      status: "no-growth",
      slopePerDay: fit.slope,
      fit,
      message: "allocation is flat or falling over this window: no date at this trend",
    };
  }
  const tFull = (opts.ceiling - fit.intercept) / fit.slope;
  const days = Math.max(0, tFull - opts.now);
  // the bound grows monotonically from t̄ on (slope > 0); bisection between now and tFull
  let conservativeDays = 0;
  if (upperBound(fit, opts.now) < opts.ceiling) {
    let lo = opts.now;
    let hi = Math.max(opts.now, tFull);
    for (let i = 0; i < 80 && hi - lo > 1e-9; i++) {
      const mid = (lo + hi) / 2;
      if (upperBound(fit, mid) >= opts.ceiling) hi = mid;
      else lo = mid;
    }
    conservativeDays = hi - opts.now;
  }
  return { status: "forecast", slopePerDay: fit.slope, fit, days, conservativeDays: Math.min(days, conservativeDays) };
}

/** "412 more m1.large; at the 30-day trend, full for m1.large in 38 days (29 conservatively)". */
export function runwaySentence(flavor: string, slots: number, windowDays: number, r: Runway): string {
  const head = `${slots.toLocaleString("en-US")} more ${flavor}`;
  if (r.status === "short-history") return `${head}; ${r.message}`;
  if (r.status === "no-growth") return `${head}; at the ${windowDays}-day trend, ${r.message}`;
  return `${head}; at the ${windowDays}-day trend, full for ${flavor} in ${Math.floor(r.days)} days (${Math.floor(r.conservativeDays)} conservatively)`;
}
