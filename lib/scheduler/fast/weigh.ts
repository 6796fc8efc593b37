/**
 * BaseWeightHandler.get_weighed_objects (nova/weights.ts) made fast: raw
 * values read host by host for all weighers at once into one buffer, a
 * weigher that weighs every host the same kept as one value, multipliers
 * looked up once per aggregate view, a later instance's raw values carried
 * from the previous one's for every host but the consumed one, and the
 * engine's own sort (weight-order.ts). fast/equivalence.test.ts holds it to
 * the plain weighing.
 */
import type { HostState } from "../host-state";
import type { HostWeigher } from "../plugin";
import { NovaError } from "../python";
import type { RequestSpec } from "../request-spec";
import type { WeighedSet, WeigherColumn } from "../run";
import { knownViewCount } from "./snapshot";
import { orderByWeight } from "./weight-order";

/**
 * A weigher's column: the raw values and the bounds normalize() used. The
 * weights are computed from them in the host loop; the normalized values
 * are kept only when read (the same arithmetic), so a request of many
 * instances does not hold a second copy of every column per instance.
 */
export class Column implements WeigherColumn {
  private kept: Float64Array | null = null;

  constructor(
    readonly name: string,
    /** The raw values; null when every host weighs `same` (made when read). */
    private values: Float64Array | null,
    private readonly length: number,
    private readonly same: number,
    private readonly lo: number,
    private readonly hi: number,
    readonly byView: ReadonlyArray<{ value: number; source: string } | undefined>,
  ) {}

  get raw(): Float64Array {
    if (!this.values) this.values = new Float64Array(this.length).fill(this.same);
    return this.values;
  }

  /** The raw values a later instance may copy from; null for a column of one value. */
  get carried(): Float64Array | null {
    return Number.isNaN(this.same) ? this.values : null;
  }

  get normalized(): Float64Array {
    if (!this.kept) {
      this.kept = new Float64Array(this.raw.length);
      normalize(this.raw, this.lo, this.hi, this.kept);
    }
    return this.kept;
  }
}

export const EMPTY: WeighedSet = { hosts: [], weights: new Float64Array(0), columns: [], order: [] };

/** A weigher's raw values, clamped to its minval and maxval. */
function rawColumn(w: HostWeigher, hosts: HostState[], spec: RequestSpec, raw: Float64Array): void {
  // clampedWeight written out: a first request runs this loop before it is compiled, where a call costs.
  const { minval, maxval } = w;
  for (let i = 0; i < hosts.length; i++) {
    let v = w.weigh(hosts[i], spec);
    if (minval !== undefined && v < minval) v = minval;
    if (maxval !== undefined && v > maxval) v = maxval;
    raw[i] = v;
  }
}

/**
 * Every weigher's raw values into its slot of buf (slot s holds n values
 * from n × s; slot 0 is the weights). Host by host, all weighers in turn:
 * each host's fields are read once, not once per weigher. When a weigher raises, the columns are
 * made weigher by weigher instead, so the error is the one Nova's order
 * (all hosts of the first weigher first) raises.
 */
function rawColumns(
  weighers: HostWeigher[],
  hosts: HostState[],
  spec: RequestSpec,
  buf: Float64Array,
  slots: Int32Array,
): void {
  const n = hosts.length;
  try {
    for (let i = 0; i < n; i++) {
      const h = hosts[i];
      for (let k = 0; k < weighers.length; k++) {
        // a weigher that weighs every host the same has no slot: its column is one value
        if (slots[k] < 0) continue;
        const w = weighers[k];
        let v = w.weigh(h, spec);
        if (w.minval !== undefined && v < w.minval) v = w.minval;
        if (w.maxval !== undefined && v > w.maxval) v = w.maxval;
        buf[n * slots[k] + i] = v;
      }
    }
  } catch (e) {
    // only what Nova raises; a fault of ours is not Nova's answer
    if (!(e instanceof NovaError)) throw e;
    for (let k = 0; k < weighers.length; k++)
      if (slots[k] >= 0) rawColumn(weighers[k], hosts, spec, buf.subarray(n * slots[k], n * (slots[k] + 1)));
  }
}

/** The value a weigher gives every host for this request (clamped), NaN when it does not. */
function sameValue(w: HostWeigher, spec: RequestSpec): number {
  const v = w.sameForEveryHost?.(spec);
  return v === undefined || Number.isNaN(v) ? Number.NaN : clamped(w, v);
}

/**
 * Raw values of the previous instance's weighing (columns in its host
 * order) and where each host now weighed sat there; -1: weigh it again.
 */
export interface CarriedWeights {
  /** null for a column of one value: the weigher is asked again. */
  raws: Array<Float64Array | null>;
  views: Int32Array;
  from: Int32Array;
}

/** rawColumn, copying a carried host's value from `previous` (it rarely moved far: the reads stay close). */
function carryColumn(
  w: HostWeigher,
  hosts: HostState[],
  spec: RequestSpec,
  previous: Float64Array,
  from: Int32Array,
  raw: Float64Array,
): void {
  for (let i = 0; i < hosts.length; i++) raw[i] = from[i] < 0 ? clampedWeight(w, hosts[i], spec) : previous[from[i]];
}

/** A weigher's raw value of one host, clamped to its minval and maxval. */
function clampedWeight(w: HostWeigher, host: HostState, spec: RequestSpec): number {
  return clamped(w, w.weigh(host, spec));
}

/** v within the weigher's minval and maxval. */
function clamped(w: HostWeigher, v: number): number {
  let c = v;
  if (w.minval !== undefined && c < w.minval) c = w.minval;
  if (w.maxval !== undefined && c > w.maxval) c = w.maxval;
  return c;
}

// min() and max() as Nova's normalize() gets them, NaN included (a comparison with NaN is false).
function min(xs: Float64Array): number {
  let m = xs[0];
  for (let i = 1; i < xs.length; i++) if (xs[i] < m) m = xs[i];
  return m;
}

function max(xs: Float64Array): number {
  let m = xs[0];
  for (let i = 1; i < xs.length; i++) if (xs[i] > m) m = xs[i];
  return m;
}

/** normalize(): min-max scaled into [0, 1], all 0 when every value is the same. */
function normalize(raw: Float64Array, lo: number, hi: number, out: Float64Array): void {
  if (lo === hi) return;
  const range = hi - lo;
  for (let i = 0; i < raw.length; i++) out[i] = (raw[i] - lo) / range;
}

function allFinite(xs: Float64Array): boolean {
  for (let i = 0; i < xs.length; i++) if (!Number.isFinite(xs[i])) return false;
  return true;
}

/** multiplier × normalize()d value added to each weight, with normalize()'s arithmetic. */
function addNormalized(
  raw: Float64Array | null,
  lo: number,
  hi: number,
  multiplierByView: Float64Array,
  views: Int32Array,
  weights: Float64Array,
): void {
  const n = weights.length;
  if (lo === hi) {
    // Every normalized value is 0; 0 × an infinite multiplier is still NaN.
    // With every multiplier finite each term is ±0, and a weight plus ±0 is
    // the weight (a sum that starts at +0 is never −0): nothing to add.
    if (allFinite(multiplierByView)) return;
    for (let i = 0; i < n; i++) weights[i] += multiplierByView[views[i]] * 0;
    return;
  }
  const range = hi - lo;
  for (let i = 0; i < n; i++) weights[i] += multiplierByView[views[i]] * ((raw![i] - lo) / range);
}

/** One more than the largest aggregate view id of the hosts (a snapshot's list knows it). */
function viewCount(hosts: HostState[]): number {
  const known = knownViewCount(hosts);
  if (known !== undefined) return known;
  let views = 0;
  for (let i = 0; i < hosts.length; i++) views = Math.max(views, hosts[i].aggregates.id + 1);
  return views;
}

/** One request's weighers over its hosts, with what it keeps from instance to instance. */
export class WeightColumns {
  /** Multipliers per weigher and aggregate view: they depend on nothing else. */
  private readonly multipliers: Array<Array<{ value: number; source: string } | undefined>>;

  constructor(
    private readonly weighers: HostWeigher[],
    hosts: HostState[],
  ) {
    // Tables as large as the hosts' views from the start: grown later, their
    // shapes would differ from the ones the compiled weighing code has seen.
    // The host loop is a function of its own: inside the constructor, V8
    // compiled the constructor from that loop (on-stack replacement) on the
    // first request, before the `new` after it had run, and in some
    // processes that code then gave up at the `new` on every request
    // (--trace-deopt: "Insufficient type feedback for construct", one per request).
    const views = viewCount(hosts);
    this.viewsSeen = new Uint8Array(views);
    this.multipliers = weighers.map(() => []);
    this.multiplierValues = weighers.map(() => new Float64Array(views));
  }

  /**
   * The hosts' weights and every column, taking from `carried` the raw values of every host whose
   * position there it gives (the others are weighed). Returns the views of
   * the hosts too, for the next call to carry.
   */
  weigh(
    hosts: HostState[],
    spec: RequestSpec,
    carried: CarriedWeights | null,
  ): { weighed: WeighedSet; views: Int32Array } {
    const n = hosts.length;
    const W = n > 1 ? this.weighers.length : 0;
    // A weigher that weighs every host the same keeps one value, not a column
    // (a request of 50 instances at 50,000 hosts kept 50 of each).
    const same = new Float64Array(W);
    const slots = new Int32Array(W);
    let kept = 0;
    for (let k = 0; k < W; k++) {
      same[k] = sameValue(this.weighers[k], spec);
      slots[k] = Number.isNaN(same[k]) ? ++kept : -1;
    }
    // One buffer per call: weights, then raw values per weigher that has a slot.
    const buf = new Float64Array(n * (1 + kept));
    const weights = buf.subarray(0, n);
    const columns: WeigherColumn[] = [];
    if (!W) return { weighed: { hosts, weights, columns, order: orderByWeight(weights) }, views: new Int32Array(0) };
    const views = this.viewsOf(hosts, carried);
    if (!carried) rawColumns(this.weighers, hosts, spec, buf, slots);
    // Small loops in functions of their own: each is compiled on its own, early.
    for (let k = 0; k < W; k++) {
      const w = this.weighers[k];
      if (slots[k] < 0) {
        const lo = w.minval ?? same[k];
        const hi = w.maxval ?? same[k];
        const column = new Column(w.name, null, n, same[k], lo, hi, this.multipliers[k]);
        addNormalized(lo === hi ? null : column.raw, lo, hi, this.multiplierValues[k], views, weights);
        columns.push(column);
        continue;
      }
      const raw = buf.subarray(n * slots[k], n * (slots[k] + 1));
      const previous = carried?.raws[k];
      if (previous) carryColumn(w, hosts, spec, previous, carried!.from, raw);
      else if (carried) rawColumn(w, hosts, spec, raw);
      const lo = w.minval ?? min(raw);
      const hi = w.maxval ?? max(raw);
      addNormalized(raw, lo, hi, this.multiplierValues[k], views, weights);
      columns.push(new Column(w.name, raw, n, Number.NaN, lo, hi, this.multipliers[k]));
    }
    return { weighed: { hosts, weights, columns, order: orderByWeight(weights) }, views };
  }

  /** Multiplier values per weigher, indexed by aggregate view id (filled by viewsOf). */
  private multiplierValues: Float64Array[];
  private viewsSeen: Uint8Array;

  /** The hosts' aggregate view ids (a carried host's from `carried`); each weigher's multiplier is known for them. */
  private viewsOf(hosts: HostState[], carried: CarriedWeights | null): Int32Array {
    const views = new Int32Array(hosts.length);
    if (!carried) for (let i = 0; i < hosts.length; i++) views[i] = this.viewOf(hosts[i]);
    else {
      const from = carried.from;
      for (let i = 0; i < hosts.length; i++) views[i] = from[i] < 0 ? this.viewOf(hosts[i]) : carried.views[from[i]];
    }
    return views;
  }

  private viewOf(host: HostState): number {
    const v = host.aggregates.id;
    if (v < this.viewsSeen.length && this.viewsSeen[v]) return v;
    if (v >= this.viewsSeen.length) this.growViews(v + 1);
    // The first host of a view asks each weigher: a multiplier depends on the view alone.
    for (let k = 0; k < this.weighers.length; k++) {
      const byView = this.multipliers[k];
      byView[v] ??= this.weighers[k].multiplier(host);
      this.multiplierValues[k][v] = byView[v].value;
    }
    this.viewsSeen[v] = 1;
    return v;
  }

  /** For a host that was not among the constructor's (none on the engine's own paths). */
  private growViews(size: number): void {
    const seen = new Uint8Array(size);
    seen.set(this.viewsSeen);
    this.viewsSeen = seen;
    this.multiplierValues = this.multiplierValues.map((values) => {
      const grown = new Float64Array(size);
      grown.set(values);
      return grown;
    });
  }
}
