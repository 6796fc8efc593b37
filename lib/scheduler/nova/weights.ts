/**
 * nova.weights.BaseWeightHandler.get_weighed_objects as written: each
 * weigher weighs every host, its values are normalize()d (min-max over the
 * hosts, or against the weigher's minval and maxval), multiplied by the
 * host's multiplier and added to the host's weight; then Python's
 * sorted(key=weight, reverse=True). The engine's fast weighing
 * (fast/weigh.ts) must agree with this on every fixture.
 */
import type { HostState } from "../host-state";
import type { HostWeigher } from "../plugin";
import type { RequestSpec } from "../request-spec";
import type { WeighedSet, WeigherColumn } from "../run";

/** normalize(): min-max scaled into [0, 1], all 0 when every value is the same. */
export function normalize(raw: Float64Array, minval: number | undefined, maxval: number | undefined): Float64Array {
  const out = new Float64Array(raw.length);
  if (!raw.length) return out;
  // Python's max() and min(): the first value, replaced by any larger (smaller) one; NaN compares false.
  let lo = raw[0];
  let hi = raw[0];
  for (const v of raw) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  lo = minval ?? lo;
  hi = maxval ?? hi;
  if (lo === hi) return out;
  for (let i = 0; i < raw.length; i++) out[i] = (raw[i] - lo) / (hi - lo);
  return out;
}

/** The weigher's raw weight of a host, kept within its minval and maxval. */
function rawWeight(w: HostWeigher, host: HostState, spec: RequestSpec): number {
  const v = w.weigh(host, spec);
  if (w.minval !== undefined && v < w.minval) return w.minval;
  if (w.maxval !== undefined && v > w.maxval) return w.maxval;
  return v;
}

export function getWeighedObjects(weighers: HostWeigher[], hosts: HostState[], spec: RequestSpec): WeighedSet {
  const weights = new Float64Array(hosts.length);
  const columns: WeigherColumn[] = [];
  // One host or none: nothing is weighed.
  if (hosts.length > 1) {
    for (const w of weighers) {
      const raw = Float64Array.from(hosts, (h) => rawWeight(w, h, spec));
      const normalized = normalize(raw, w.minval, w.maxval);
      const byView: Array<{ value: number; source: string } | undefined> = [];
      hosts.forEach((h, i) => {
        const m = (byView[h.aggregates.id] ??= w.multiplier(h));
        weights[i] += m.value * normalized[i];
      });
      columns.push({ name: w.name, raw, normalized, byView });
    }
  }
  return { hosts, weights, columns, order: sortedByWeight(weights) };
}

/**
 * sorted(range(n), key=weights, reverse=True), as CPython does it: reverse,
 * stable sort asking only "<", reverse again, so equal weights keep their
 * order. V8's Array.prototype.sort is CPython's timsort ported and reads a
 * comparison only as "less than or not", so with NaN weights (no total
 * order) it takes the same steps as Python.
 */
export function sortedByWeight(weights: Float64Array): number[] {
  const order = Array.from(weights, (_, i) => weights.length - 1 - i);
  order.sort((a, b) => (weights[a] < weights[b] ? -1 : 0));
  return order.reverse();
}
