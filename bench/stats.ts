/**
 * The statistics bench/compare.ts reports: a side's median and spread, and
 * the ratio of two sides with a distribution-free confidence interval.
 *
 * One fresh process gives one figure (its median over many requests): the
 * spread we fight is between processes (docs/performance.md, "Why one
 * process settles at 3.5 ms and the next at 6.9"), so processes, not
 * requests, are the samples. Their distribution is skewed and sometimes
 * bimodal, so no normal theory: the ratio B/A is the Hodges–Lehmann
 * estimate of the shift between log(B) and log(A) (the median of all
 * pairwise differences), and its interval is the one the Mann–Whitney test
 * inverts (Lehmann 1963; R's wilcox.test(conf.int = TRUE)), from the exact
 * null distribution of U up to 2,500 pairs (50 processes a side), its normal
 * approximation beyond. (Timings in microseconds hardly ever tie.)
 */

/** The q-quantile of xs (0 ≤ q ≤ 1), linear between order statistics; xs left as it is. */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/** The middle of xs (the mean of the two middle ones for an even count). */
export const middle = (xs: number[]): number => quantile(xs, 0.5);

/**
 * P(U ≤ u) for every u = 0 … n·m under the null hypothesis (both samples
 * from one distribution, no ties): the number of ways to interleave n and m
 * figures with u pairs out of order, over C(n + m, n).
 */
export function mannWhitneyCdf(n: number, m: number): number[] {
  // counts[i][j][u] built row by row: f(i, j, u) = f(i - 1, j, u - j) + f(i, j - 1, u)
  let prev: number[][] = [];
  for (let i = 0; i <= n; i++) {
    const cur: number[][] = [];
    for (let j = 0; j <= m; j++) {
      if (i === 0 || j === 0) {
        cur.push([1]);
        continue;
      }
      const a = prev[j]; // f(i - 1, j, ·), shifted by j
      const b = cur[j - 1]; // f(i, j - 1, ·)
      const f = new Array<number>(i * j + 1).fill(0);
      for (let u = 0; u < a.length; u++) f[u + j] += a[u];
      for (let u = 0; u < b.length; u++) f[u] += b[u];
      cur.push(f);
    }
    prev = cur;
  }
  const f = prev[m];
  const total = f.reduce((s, x) => s + x, 0);
  let acc = 0;
  return f.map((x) => {
    acc += x;
    return acc / total;
  });
}

/** Below this many pairs the exact distribution; above, the normal approximation. */
const EXACT_MAX_PAIRS = 2500;

const normalQuantile = (p: number): number => {
  // Acklam's rational approximation (relative error < 1.2e-9): enough for an interval's index.
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lowTail = (q: number) => {
    const r = Math.sqrt(-2 * Math.log(q));
    return (
      (((((c[0] * r + c[1]) * r + c[2]) * r + c[3]) * r + c[4]) * r + c[5]) /
      ((((d[0] * r + d[1]) * r + d[2]) * r + d[3]) * r + 1)
    );
  };
  if (p < 0.02425) return lowTail(p);
  if (p > 1 - 0.02425) return -lowTail(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
};

/**
 * The Mann–Whitney critical value for a two-sided test at level alpha: the
 * largest u with P(U ≤ u) ≤ alpha / 2, or −1 when no u is that unlikely
 * (samples too small for any interval at this level).
 */
export function mannWhitneyCritical(n: number, m: number, alpha = 0.05): number {
  if (n * m <= EXACT_MAX_PAIRS) {
    const cdf = mannWhitneyCdf(n, m);
    let k = -1;
    while (k + 1 < cdf.length && cdf[k + 1] <= alpha / 2 + 1e-12) k++;
    return k;
  }
  const z = normalQuantile(1 - alpha / 2);
  return Math.max(-1, Math.floor((n * m) / 2 - z * Math.sqrt((n * m * (n + m + 1)) / 12) - 0.5));
}

export interface Shift {
  /** Hodges–Lehmann estimate of b − a. */
  estimate: number;
  /** The confidence interval's ends; ±Infinity when the samples are too small for one. */
  low: number;
  high: number;
}

/** The shift of b against a (b − a) with its 1 − alpha confidence interval. */
export function hodgesLehmann(a: number[], b: number[], alpha = 0.05): Shift {
  if (a.length === 0 || b.length === 0) return { estimate: Number.NaN, low: -Infinity, high: Infinity };
  const diffs: number[] = [];
  for (const y of b) for (const x of a) diffs.push(y - x);
  diffs.sort((p, q) => p - q);
  const k = mannWhitneyCritical(a.length, b.length, alpha);
  return {
    estimate: middle(diffs),
    low: k < 0 ? -Infinity : diffs[k],
    high: k < 0 ? Infinity : diffs[diffs.length - 1 - k],
  };
}

export interface Ratio {
  /** B / A: the Hodges–Lehmann shift of the logarithms, back as a factor. */
  ratio: number;
  low: number;
  high: number;
  /** The interval leaves out 1: the difference is beyond the noise. */
  beyondNoise: boolean;
}

/** How many times A's figures B's are, with its confidence interval (all figures > 0). */
export function ratioOf(a: number[], b: number[], alpha = 0.05): Ratio {
  const s = hodgesLehmann(a.map(Math.log), b.map(Math.log), alpha);
  const ratio = Math.exp(s.estimate);
  const low = Math.exp(s.low);
  const high = Math.exp(s.high);
  return { ratio, low, high, beyondNoise: low > 1 || high < 1 };
}

/** A side's figures in a few words: median and the range the middle half spans. */
export function spread(xs: number[]): { median: number; p25: number; p75: number; min: number; max: number } {
  return {
    median: middle(xs),
    p25: quantile(xs, 0.25),
    p75: quantile(xs, 0.75),
    min: Math.min(...xs),
    max: Math.max(...xs),
  };
}
