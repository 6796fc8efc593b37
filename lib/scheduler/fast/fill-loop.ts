/**
 * The capacity fill's own loop (fill.ts), fast: host states live across
 * boots, and after a boot only the hosts it changed are filtered and
 * weighed again; a flavor keeps its survivors, raw weights, multipliers and
 * each weigher's min and max, and picks the heaviest host with the
 * engine's arithmetic in the engine's order, so a boot lands where a whole
 * trial would put it. fast/equivalence.test.ts holds it to a fill made of
 * whole trials of the plain path on every capacity fixture.
 */
import type { HostState } from "../host-state";
import type { CandidateIndex } from "../placement/candidate-index";
import type { HostWeigher } from "../plugin";
import { NovaError } from "../python";
import { type RequestSpec, requestInstanceUuid } from "../request-spec";
import type { FunnelStage, WeighedSet } from "../run";

/** What a flavor's fill reads of its session (engine.ts's Session). */
export interface FillSession {
  hosts: HostState[];
  spec: RequestSpec;
  scheduler: {
    weighers: HostWeigher[];
    runFilters(pool: HostState[], index: number): { passed: HostState[]; funnel: FunnelStage[] };
    weigh(hosts: HostState[]): WeighedSet;
  };
}

/** One flavor's request over the shared host states, with what it knows between boots. */
export class FlavorFill<S extends FillSession = FillSession> {
  readonly name: string;
  private readonly n: number;
  private readonly W: number;
  /** Survivors' host indices in host order, membership and position. */
  private readonly surv: Int32Array;
  private m = 0;
  private readonly inSurv: Uint8Array;
  private readonly posOf: Int32Array;
  /** Raw weights (clamped) per weigher and host, raw[k * n + i]; stale while dirty[i]. */
  private readonly raw: Float64Array;
  private readonly mult: Float64Array;
  private readonly dirty: Uint8Array;
  private readonly dirtyList: number[] = [];
  /** raw and mult again, per weigher in survivor order ([k * n + j]): the weighing loop reads them in a row. */
  private readonly rawS: Float64Array;
  private readonly multS: Float64Array;
  private layoutStale = true;
  /** Per weigher: the survivors' min and max raw value, and whether they need a scan. */
  private readonly mn: Float64Array;
  private readonly mx: Float64Array;
  private readonly scan: Uint8Array;
  /** Per weigher: every multiplier finite, so an all-equal column adds only zeros and can be skipped. */
  private readonly finite: Uint8Array;
  private readonly weights: Float64Array;
  /** Hosts changed since the last pick, to filter again. */
  private readonly pending: number[] = [];
  private refilterAll = true;
  /** On the Placement path: the hosts Placement returns, the only ones filtered. */
  gate: CandidateIndex | null = null;

  constructor(readonly session: S) {
    this.name = session.spec.flavor.name;
    const n = session.hosts.length;
    const W = session.scheduler.weighers.length;
    this.n = n;
    this.W = W;
    this.surv = new Int32Array(n);
    this.inSurv = new Uint8Array(n);
    this.posOf = new Int32Array(n);
    this.raw = new Float64Array(W * n);
    this.mult = new Float64Array(W * n);
    this.rawS = new Float64Array(W * n);
    this.multS = new Float64Array(W * n);
    this.dirty = new Uint8Array(n).fill(1);
    this.mn = new Float64Array(W);
    this.mx = new Float64Array(W);
    this.scan = new Uint8Array(W).fill(1);
    this.finite = new Uint8Array(W).fill(1);
    this.weights = new Float64Array(n);
    for (let k = 0; k < W; k++) {
      const w = session.scheduler.weighers[k];
      for (let i = 0; i < n; i++) {
        const v = w.multiplier(session.hosts[i]).value;
        this.mult[k * n + i] = v;
        if (!Number.isFinite(v)) this.finite[k] = 0;
      }
    }
  }

  /** A boot (of any flavor) changed this host. */
  touched(h: HostState, groupHostsChanged: boolean): void {
    if (!this.dirty[h.index]) {
      this.dirty[h.index] = 1;
      this.dirtyList.push(h.index);
    }
    this.pending.push(h.index);
    // Only ServerGroupAffinityFilter reads the group's host list.
    if (groupHostsChanged && this.session.spec.instanceGroup?.policy === "affinity") this.refilterAll = true;
  }

  /** Placement now returns (or no longer returns) this host. */
  gateChanged(i: number): void {
    this.pending.push(i);
  }

  private filterAll(): void {
    const gate = this.gate;
    const pool = gate ? this.session.hosts.filter((h) => gate.returns(h.index)) : this.session.hosts;
    const { passed } = this.session.scheduler.runFilters(pool, 0);
    this.inSurv.fill(0);
    this.m = 0;
    for (const h of passed) {
      this.surv[this.m++] = h.index;
      this.inSurv[h.index] = 1;
    }
    this.pending.length = 0;
    this.refilterAll = false;
    this.layoutStale = true;
  }

  private refilter(i: number): void {
    const h = this.session.hosts[i];
    const passes =
      (this.gate === null || this.gate.returns(i)) && this.session.scheduler.runFilters([h], 0).passed.length === 1;
    if (passes === (this.inSurv[i] === 1)) return;
    // Survivors stay in host order: the order a trial's filters keep.
    let lo = 0;
    let hi = this.m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.surv[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    if (passes) {
      this.surv.copyWithin(lo + 1, lo, this.m);
      this.surv[lo] = i;
      this.m++;
      this.inSurv[i] = 1;
    } else {
      this.surv.copyWithin(lo, lo + 1, this.m);
      this.m--;
      this.inSurv[i] = 0;
    }
    this.layoutStale = true;
  }

  /** Raw values of host i (clamped as the engine clamps); may throw Nova's errors. */
  private weighHost(i: number): void {
    const { hosts, spec, scheduler } = this.session;
    const { n, W, raw } = this;
    for (let k = 0; k < W; k++) {
      const w = scheduler.weighers[k];
      let v = w.weigh(hosts[i], spec);
      if (w.minval !== undefined && v < w.minval) v = w.minval;
      if (w.maxval !== undefined && v > w.maxval) v = w.maxval;
      raw[k * n + i] = v;
    }
    this.dirty[i] = 0;
  }

  /** Bring raw values, the survivor-ordered columns and min/max up to date. */
  private refreshColumns(): void {
    const { n, W, m, surv, raw, rawS, dirty } = this;
    if (this.layoutStale) {
      for (let j = 0; j < m; j++) if (dirty[surv[j]]) this.weighHost(surv[j]);
      for (let k = 0; k < W; k++) {
        const b = k * n;
        for (let j = 0; j < m; j++) {
          rawS[b + j] = raw[b + surv[j]];
          this.multS[b + j] = this.mult[b + surv[j]];
        }
        this.scan[k] = 1;
      }
      for (let j = 0; j < m; j++) this.posOf[surv[j]] = j;
      this.layoutStale = false;
    } else {
      for (const i of this.dirtyList) {
        if (!dirty[i] || !this.inSurv[i]) continue;
        const j = this.posOf[i];
        this.weighHost(i);
        for (let k = 0; k < W; k++) {
          const b = k * n;
          const old = rawS[b + j];
          const v = raw[b + i];
          rawS[b + j] = v;
          if (this.scan[k] || v === old) continue;
          // The engine's scan gives the true min and max when no value is NaN.
          if (Number.isNaN(v) || Number.isNaN(old)) this.scan[k] = 1;
          else {
            if (v < this.mn[k]) this.mn[k] = v;
            else if (old === this.mn[k]) this.scan[k] = 1;
            if (v > this.mx[k]) this.mx[k] = v;
            else if (old === this.mx[k]) this.scan[k] = 1;
          }
        }
      }
    }
    this.dirtyList.length = 0;
    for (let k = 0; k < W; k++) {
      if (!this.scan[k]) continue;
      // The engine's min-max scan, in its order.
      const b = k * n;
      let mn = rawS[b];
      let mx = mn;
      for (let j = 1; j < m; j++) {
        const v = rawS[b + j];
        if (v < mn) mn = v;
        if (v > mx) mx = v;
      }
      this.mn[k] = mn;
      this.mx[k] = mx;
      this.scan[k] = 0;
    }
  }

  /**
   * The host the next boot lands on, or null when a trial would not place
   * it (NoValidHost or an error Nova raises): then trialRun tells why.
   */
  pick(): HostState | null {
    const { hosts, spec, scheduler } = this.session;
    spec.instanceUuid = requestInstanceUuid(0);
    try {
      if (this.refilterAll) this.filterAll();
      else {
        for (const i of this.pending) this.refilter(i);
        this.pending.length = 0;
      }
    } catch (e) {
      if (e instanceof NovaError) return null;
      throw e;
    }
    const m = this.m;
    if (m === 0) return null;
    // One survivor: nothing is weighed, as in the engine.
    if (m === 1) return hosts[this.surv[0]];
    try {
      this.refreshColumns();
    } catch (e) {
      if (e instanceof NovaError) return null;
      throw e;
    }
    const { n, W, rawS, multS, weights } = this;
    const weighers = scheduler.weighers;
    weights.fill(0, 0, m);
    for (let k = 0; k < W; k++) {
      const w = weighers[k];
      const b = k * n;
      const lo = w.minval ?? this.mn[k];
      const hi = w.maxval ?? this.mx[k];
      if (lo === hi) {
        // Every normalised value is 0: the engine adds multiplier × 0, which
        // changes no weight unless a multiplier is infinite (NaN).
        if (!this.finite[k]) for (let j = 0; j < m; j++) weights[j] += multS[b + j] * 0;
        continue;
      }
      const range = hi - lo;
      for (let j = 0; j < m; j++) weights[j] += multS[b + j] * ((rawS[b + j] - lo) / range);
    }
    let best = 0;
    let bw = weights[0];
    for (let j = 1; j < m; j++) {
      const v = weights[j];
      if (v > bw) {
        bw = v;
        best = j;
      } else if (Number.isNaN(v)) {
        // NaN: the engine's sort decides (its comparator is not a total order).
        return this.pickByEngine();
      }
    }
    if (Number.isNaN(bw)) return this.pickByEngine();
    return hosts[this.surv[best]];
  }

  private pickByEngine(): HostState {
    const passed: HostState[] = [];
    for (let j = 0; j < this.m; j++) passed.push(this.session.hosts[this.surv[j]]);
    const w = this.session.scheduler.weigh(passed);
    return passed[w.order[0]];
  }
}
