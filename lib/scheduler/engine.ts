/**
 * Nova's filter scheduler, host loop for host loop (the placement-less path
 * of nova.scheduler.manager as the reference runs it): per instance
 * restrict → filter → weigh → pick → consume, then alternates from the
 * chosen host's cell. With `placement: true`, Nova's Placement path: the
 * hosts Placement returned (placement/), then per instance filter → weigh →
 * claim on the best host whose claim succeeds. Time and randomness come from
 * the caller.
 */
import { resolveConfig, type SchedulerConfig } from "./config";
import { buildHostStates, type HostState } from "./host-state";
import { consumeNumaAndPci, type Placement } from "./numa/consume";
import { askPlacement, claim, claimRequest, type PlacementOutcome } from "./placement";
import { keepPlacementCloud } from "./placement/providers";
import type { HostFilter, HostWeigher } from "./plugin";
import { getFilteredObjects, newStage, reject } from "./nova/filters";
import { NovaPass } from "./nova/host-pass";
import { NovaError, noValidHost } from "./python";
import { KNOWN, getFilter, getWeigher, notSimulatedFilter, notSimulatedWeigher } from "./registry";
import { holdSourceAllocation, instanceResources, type SourceAllocation, sourceStillFits } from "./moves/allocations";
import { applyMove, inCell } from "./moves/conductor";
import { type Move, prepareMove, ScenarioError } from "./moves";
import { answerBeyondReference } from "./moves/not-modelled";
import { buildRequestSpec, type RequestSpec, requestInstanceUuid } from "./request-spec";
import type { Scenario } from "./scenario";
import type { FunnelStage, HostPass, InstanceTrace, PlacementRun, ScheduleRun, WeighedSet, WeigherColumn } from "./run";
import { orderByWeight } from "./weight-order";

export type { FunnelStage, InstanceTrace, PlacementRun, ScheduleRun, WeighedSet, WeigherColumn };

export interface ScheduleOptions {
  /** Milliseconds clock for timing.engine_ms (default performance.now). */
  now?: () => number;
  /**
   * Random source in [0, 1) for host_subset_size and
   * shuffle_best_same_weighed_hosts. Without one the engine picks the best
   * host and keeps ties in order, as the Nova reference does.
   */
  random?: () => number;
  /** Wall clock for the time a host last consumed (Nova's HostState.updated); default the epoch. */
  clock?: () => Date;
  /**
   * Filter and weigh as Nova's code reads (nova/), host list after host
   * list, instead of the fast path: the same runs, slower; what the fast
   * path is tested against.
   */
  plain?: boolean;
}

/**
 * A weigher's column: the raw values and the bounds normalize() used. The
 * weights are computed from them in the host loop; the normalized values
 * are kept only when read (the same arithmetic), so a request of many
 * instances does not hold a second copy of every column per instance.
 */
class Column implements WeigherColumn {
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

const EMPTY: WeighedSet = { hosts: [], weights: new Float64Array(0), columns: [], order: [] };

/*
 * Every filter (and every weigher) as an object of one shape: the host loops
 * call them in turn, and objects of one shape keep those call sites from
 * being recompiled for each new filter they meet.
 */
function sameShapeFilter(f: HostFilter): HostFilter {
  return {
    name: f.name,
    runOncePerRequest: f.runOncePerRequest,
    prepare: f.prepare,
    passesEveryHost: f.passesEveryHost,
    check: f.check,
  };
}

function sameShapeWeigher(w: HostWeigher): HostWeigher {
  return {
    name: w.name,
    minval: w.minval,
    maxval: w.maxval,
    weigh: w.weigh,
    sameForEveryHost: w.sameForEveryHost,
    multiplier: w.multiplier,
  };
}

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
interface CarriedWeights {
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

/** hosts in `order` (positions into hosts). */
function inOrder(hosts: HostState[], order: number[]): HostState[] {
  // Pushed, not written into new Array(n): a host list is always one kind of
  // array (packed), and the loops compiled for it stay compiled.
  const out: HostState[] = [];
  for (let i = 0; i < order.length; i++) out.push(hosts[order[i]]);
  return out;
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
    for (let i = 0; i < n; i++) weights[i] += multiplierByView[views[i]] * 0;
    return;
  }
  const range = hi - lo;
  for (let i = 0; i < n; i++) weights[i] += multiplierByView[views[i]] * ((raw![i] - lo) / range);
}

/**
 * One request's filters, weighers and consume step over a set of host
 * states; `schedule` drives it for a request's instances, the capacity fill
 * (capacity.ts) for boot after boot on the same host states.
 */
export class Scheduler {
  private prepared = new Set<object>();

  constructor(
    readonly config: SchedulerConfig,
    readonly hosts: HostState[],
    readonly spec: RequestSpec,
    readonly filters: HostFilter[],
    readonly weighers: HostWeigher[],
    readonly clock: () => Date,
  ) {
    this.multipliers = weighers.map(() => []);
    // Tables as large as the hosts' views from the start: grown later, their
    // shapes would differ from the ones the compiled weighing code has seen.
    let views = 0;
    for (let i = 0; i < hosts.length; i++) views = Math.max(views, hosts[i].aggregates.id + 1);
    this.viewsSeen = new Uint8Array(views);
    this.multiplierValues = weighers.map(() => new Float64Array(views));
    this.asked = { numa: spec.numaTopology !== null, pci: spec.pciRequests.length > 0 };
  }

  /** HostManager.get_filtered_hosts' prologue: ignore/force hosts and nodes. */
  restrict(hosts: HostState[]): { hosts: HostState[]; skipFilters: boolean } {
    const { ignoreHosts, forceHosts, forceNodes, requestedDestination: dest } = this.spec;
    // _get_hosts_matching_request: a move's target host (and node) only
    if (dest?.host) hosts = hosts.filter((h) => h.host === dest.host && (!dest.node || h.nodename === dest.node));
    if (!ignoreHosts.length && !forceHosts.length && !forceNodes.length) return { hosts, skipFilters: false };
    const ignore = new Set(ignoreHosts.map((h) => h.toLowerCase()));
    const force = new Set(forceHosts.map((h) => h.toLowerCase()));
    const nodes = new Set(forceNodes);
    let kept = hosts.filter((h) => !ignore.has(h.host.toLowerCase()));
    if (ignore.size && !kept.length) return { hosts: [], skipFilters: true };
    if (force.size) kept = kept.filter((h) => force.has(h.host.toLowerCase()));
    if (nodes.size) kept = kept.filter((h) => nodes.has(h.nodename));
    return { hosts: kept, skipFilters: force.size > 0 || nodes.size > 0 };
  }

  runFilters(pool: HostState[], index: number): { passed: HostState[]; funnel: FunnelStage[] } {
    const restricted = this.restrict(pool);
    if (restricted.skipFilters) return { passed: restricted.hosts, funnel: [] };
    const active = index > 0 ? this.filters.filter((f) => !f.runOncePerRequest) : this.filters;
    if (!active.length) return { passed: restricted.hosts, funnel: [] };
    try {
      return this.filterHostByHost(active, restricted.hosts);
    } catch (e) {
      if (!(e instanceof NovaError)) throw e;
      // A filter raised: raise what Nova's filter-by-filter order raises first.
      return getFilteredObjects(active, restricted.hosts, this.spec, (f) => this.prepare(f));
    }
  }

  /**
   * Nova's BaseFilterHandler runs each filter over the hosts the previous
   * one kept. A check reads its host and the request only, so a host's
   * verdict is the first filter, in order, that rejects it: this loop asks
   * one host all its filters in turn, reading each host's fields once
   * instead of once per filter (at 10,000 hosts the reads, not the checks,
   * are the cost). A filter is prepared when the first host reaches it, and
   * the funnel ends at the first filter that leaves no host, as Nova's does.
   */
  private filterHostByHost(active: HostFilter[], current: HostState[]): { passed: HostState[]; funnel: FunnelStage[] } {
    const spec = this.spec;
    const nf = active.length;
    const stages = active.map((f) => newStage(f, 0));
    // Filters that pass every host this time are not asked (known once the first host reaches them).
    const skip = new Uint8Array(nf);
    this.prepare(active[0]);
    skip[0] = active[0].passesEveryHost?.(spec) ? 1 : 0;
    let reached = 1;
    // Copied from the first rejection on: filters that keep every host return the input.
    let kept: HostState[] | null = null;
    for (let i = 0; i < current.length; i++) {
      const h = current[i];
      let j = 0;
      for (; j < nf; j++) {
        if (j === reached) {
          this.prepare(active[j]);
          skip[j] = active[j].passesEveryHost?.(spec) ? 1 : 0;
          reached++;
        }
        if (skip[j]) continue;
        const why = active[j].check(h, spec);
        if (why !== null) {
          kept ??= current.slice(0, i);
          reject(stages[j], h, why);
          break;
        }
      }
      if (j === nf) kept?.push(h);
    }
    const funnel: FunnelStage[] = [];
    let left = current.length;
    for (const stage of stages) {
      stage.in = left;
      left -= stage.rejected.length;
      stage.out = left;
      funnel.push(stage);
      if (!left) break;
    }
    return { passed: kept ?? current, funnel };
  }

  /** A filter's per-request work, once per request and lazily, so a filter that never sees a host never raises (as in Nova). */
  prepare(f: HostFilter): void {
    if (!this.prepared.has(f)) {
      f.prepare?.(this.spec);
      this.prepared.add(f);
    }
  }

  /**
   * runFilters for a later instance of a request when `changed`, the host
   * the previous instance consumed, is the only thing its filters read that
   * changed (see `carries`): every other host of `pool` passed these filters
   * for the previous instance and passes again, so only `changed` is
   * checked. The funnel is the one runFilters would give.
   */
  refilterChanged(
    pool: HostState[],
    index: number,
    changed: HostState,
  ): { passed: HostState[]; funnel: FunnelStage[] } {
    const funnel: FunnelStage[] = [];
    const restricted = this.restrict(pool);
    let current = restricted.hosts;
    if (restricted.skipFilters) return { passed: current, funnel };
    let present = current.includes(changed);
    for (const f of this.filters) {
      if (f.runOncePerRequest && index > 0) continue;
      this.prepare(f);
      const stage = newStage(f, current.length);
      const why = present ? f.check(changed, this.spec) : null;
      if (why !== null) {
        reject(stage, changed, why);
        current = current.filter((h) => h !== changed);
        present = false;
      }
      stage.out = current.length;
      funnel.push(stage);
      if (!current.length) break;
    }
    return { passed: current, funnel };
  }

  /**
   * Whether the next instance may reuse this one's verdicts and raw weights
   * for every host but the consumed one: its filters and weighers read the
   * host and the request, and the request changes between instances only
   * through a server group (its hosts grow) or a NUMA topology (replaced by
   * the fitted one).
   */
  carries(numaBefore: RequestSpec["numaTopology"]): boolean {
    return this.spec.instanceGroup === null && this.spec.numaTopology === numaBefore;
  }

  /** Multipliers per weigher and aggregate view: they depend on nothing else. */
  private readonly multipliers: Array<Array<{ value: number; source: string } | undefined>>;

  /** BaseWeightHandler.get_weighed_objects with every column kept. */
  weigh(hosts: HostState[]): WeighedSet {
    return this.weighCarrying(hosts, null).weighed;
  }

  /**
   * weigh(), taking from `carried` the raw values of every host whose
   * position there it gives (the others are weighed). Returns the views of
   * the hosts too, for the next call to carry.
   */
  weighCarrying(hosts: HostState[], carried: CarriedWeights | null): { weighed: WeighedSet; views: Int32Array } {
    const n = hosts.length;
    const W = n > 1 ? this.weighers.length : 0;
    const spec = this.spec;
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

  /** What the request asked for, fixed before the first consume replaces the NUMA topology. */
  private readonly asked: { numa: boolean; pci: boolean };

  /** HostState.consume_from_request; a NUMA/PCI failure is swallowed, as Nova does. */
  consume(host: HostState): Placement {
    const f = this.spec.flavor;
    host.freeRamMb -= f.memoryMb;
    host.freeDiskMb -= (f.rootGb + f.ephemeralGb) * 1024;
    host.vcpusUsed += f.vcpus;
    host.numInstances += 1;
    const { placement, ok } = consumeNumaAndPci(
      host,
      this.spec,
      this.config.packingHostNumaCellsAllocationStrategy,
      this.asked,
      {
        freeSmallPages: this.config.release.pinnedCellsUseFreePages,
        emptyPinningFits: this.config.release.mixedCellsWithoutDedicatedFit,
      },
    );
    if (!ok) return placement;
    host.numIoOps += 1;
    host.updated = this.clock();
    return placement;
  }

  /** SchedulerManager._consume_selected_host: the host, then the server group. */
  consumeSelected(host: HostState): Placement {
    const placed = this.consume(host);
    if (this.spec.instanceGroup) {
      this.spec.instanceGroup.hosts.push(host.host);
      host.instances.add(this.spec.instanceUuid);
    }
    return placed;
  }
}

function pickWithRandom(
  order: number[],
  weights: Float64Array,
  config: SchedulerConfig,
  random: () => number,
): number[] {
  let o = order;
  if (config.shuffleBestSameWeighedHosts && o.length) {
    const best = o.filter((i) => weights[i] === weights[o[0]]);
    for (let i = best.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [best[i], best[j]] = [best[j], best[i]];
    }
    o = [...best, ...o.slice(best.length)];
  }
  const subset = Math.min(config.hostSubsetSize, o.length);
  if (subset > 1) {
    const pick = o[Math.floor(random() * subset)];
    o = [pick, ...o.filter((i) => i !== pick)];
  }
  return o;
}

export interface Session {
  config: SchedulerConfig;
  hosts: HostState[];
  spec: RequestSpec;
  scheduler: Scheduler;
}

/**
 * The config, host states, request spec and plugins of a scenario, before
 * any host is filtered. Throws NovaError as Nova would on bad input. Several
 * sessions may share `hosts` (requests of different flavors on one cloud).
 */
export function openSession(
  scenario: Scenario,
  options: ScheduleOptions = {},
  config: SchedulerConfig = resolveConfig(scenario.config ?? {}, KNOWN),
  hosts: HostState[] = buildHostStates(scenario),
): Session {
  const filter = (n: string) => (config.notSimulated.filters.includes(n) ? notSimulatedFilter(n) : getFilter(n));
  const weigher = (n: string) => (config.notSimulated.weighers.includes(n) ? notSimulatedWeigher(n) : getWeigher(n));
  const filters = config.enabledFilters.map((n) => sameShapeFilter(filter(n)(config)));
  const weighers = config.weighers.map((n) => sameShapeWeigher(weigher(n)(config)));
  const spec = buildRequestSpec(scenario, hosts, config);
  const scheduler = new Scheduler(config, hosts, spec, filters, weighers, options.clock ?? (() => new Date(0)));
  return { config, hosts, spec, scheduler };
}

/** Schedule one request of a scenario. Nova's errors come back in `error`. */
export function schedule(scenario: Scenario, options: ScheduleOptions = {}): ScheduleRun {
  const now = options.now ?? (() => performance.now());
  const run: ScheduleRun = {
    config: resolveConfig({}),
    hosts: [],
    spec: null,
    traces: [],
    selections: [],
    error: null,
    engineMs: 0,
  };
  let started = 0;
  let move: Move | null = null;
  try {
    // A move (SCENARIO.md "Moves"): the request the scheduler sees, then the move's RequestSpec.
    ({ scenario, move } = prepareMove(scenario));
    const config = resolveConfig(scenario.config ?? {}, KNOWN);
    run.config = config;
    if (move) run.move = move.echo;
    // The snapshot's host states themselves: the consume step changes a copy (HostState.ownCopy).
    const { hosts, spec, scheduler: s } = openSession(scenario, options, config, buildHostStates(scenario, true));
    run.hosts = hosts;
    run.spec = spec;
    if (move) applyMove(move, spec, hosts, config, { pciAlias: config.pciAlias });
    // Placement's providers, like the host states, are the snapshot's: built once, before the clock.
    else if (config.placement) keepPlacementCloud(scenario, hosts, config.release.addedStandardTraits);
    started = now();
    if (move?.beyondReference)
      answerBeyondReference(move, s, run, scenario, () =>
        selectDestinations(s, run, scenario, move, options.random, options.plain),
      );
    else selectDestinations(s, run, scenario, move, options.random, options.plain);
    run.engineMs = now() - started;
  } catch (e) {
    if (e instanceof ScenarioError) run.error = { name: "ScenarioError", message: e.message };
    else if (e instanceof NovaError) run.error = { name: e.novaName, message: e.message };
    else throw e;
    run.traces = [];
    run.selections = [];
    run.engineMs = started ? now() - started : 0;
  }
  return run;
}

/**
 * SchedulerManager.select_destinations for the session's request: the
 * candidate hosts (every host, or those Placement returned), then
 * _schedule's loop, filling `run` (traces, selections, error). `pass` filters
 * and weighs each instance: the fast one by default, the plain one
 * (nova/host-pass.ts) when asked.
 */
export function selectDestinations(
  s: Scheduler,
  run: ScheduleRun,
  scenario: Scenario,
  move: Move | null,
  random: (() => number) | undefined,
  plain = false,
): void {
  const { config, hosts, spec } = s;
  const candidates = config.placement ? placementCandidates(s, run, scenario, move) : everyHost(hosts);
  if (!candidates) return;
  const instanceUuids = move
    ? [move.uuid]
    : Array.from({ length: spec.numInstances }, (_, i) => requestInstanceUuid(i));
  const numAlts = move && !move.returnAlternates ? 0 : Math.max(config.maxAttempts - 1, 0);
  const pass: HostPass = plain ? new NovaPass(s) : new InstancePass(s);
  const selected: HostState[] = [];
  const placed: Placement[] = [];
  // HostManager loads the requested cell's host states only
  let pool = move ? inCell(spec, candidates.hosts) : candidates.hosts;
  let index = 0;
  for (index = 0; index < spec.numInstances; index++) {
    spec.instanceUuid = instanceUuids[index];
    const { passed, funnel, weighed } = pass.run(pool, index);
    if (index === 0 && candidates.stage) funnel.unshift(candidates.stage);
    const trace: InstanceTrace = { index, funnel, weighed, chosen: null };
    run.traces.push(trace);
    if (!passed.length) break;
    let order = weighed.order;
    if (random) order = pickWithRandom(order, weighed.weights, config, random);
    const ordered = pass.arrange(passed, order);
    if (config.hostSubsetSize > 1) trace.subset = ordered.slice(0, config.hostSubsetSize);
    pool = ordered;
    const chosen = candidates.choose(ordered, index);
    if (!chosen) break;
    trace.chosen = chosen;
    selected.push(chosen);
    placed.push(pass.consume(chosen));
  }
  // Python's loop variable stays on the last index after a full loop.
  if (index >= spec.numInstances) index = Math.max(spec.numInstances - 1, 0);
  if (selected.length < spec.numInstances) {
    run.error = noValidHost();
    return;
  }
  run.selections = withAlternates(pass, pool, index, numAlts, selected, placed, candidates.eligible);
}

/** Where a request's hosts come from and how one is chosen from an instance's ordered hosts. */
interface Candidates {
  hosts: HostState[];
  /** Shown before the first instance's filters (Placement's answer). */
  stage: FunnelStage | null;
  /**
   * The host this instance lands on, or null: the pool's entry is replaced
   * by the copy the consume step changes, which the next instance's pool holds.
   */
  choose(ordered: HostState[], index: number): HostState | null;
  /** Whether a host may be an alternate. */
  eligible(h: HostState): boolean;
}

/** Without Placement: every host, the best one chosen. */
function everyHost(hosts: HostState[]): Candidates {
  return {
    hosts,
    stage: null,
    choose: (ordered) => (ordered[0] = ordered[0].ownCopy()),
    eligible: () => true,
  };
}

/**
 * Filter and weigh the instances of one request in turn. After the first,
 * when nothing but the consumed host changed (Scheduler.carries), only that
 * host is filtered and weighed again; the other hosts' verdicts and raw
 * weights come from the previous instance.
 */
class InstancePass {
  private changed: HostState | null = null;
  private numaBefore: RequestSpec["numaTopology"] = null;
  /** The previous weighing: its hosts, raw columns and views. */
  private last: { hosts: HostState[]; raws: Array<Float64Array | null>; views: Int32Array } | null = null;
  /** The order (positions into last.hosts) the next pool was arranged in. */
  private arranged: number[] | null = null;

  constructor(private readonly s: Scheduler) {}

  run(pool: HostState[], index: number): { passed: HostState[]; funnel: FunnelStage[]; weighed: WeighedSet } {
    const { s, changed, last, arranged } = this;
    this.last = null;
    this.arranged = null;
    if (changed === null || !s.carries(this.numaBefore)) {
      const { passed, funnel } = s.runFilters(pool, index);
      return { passed, funnel, weighed: this.weigh(passed, null) };
    }
    const { passed, funnel } = s.refilterChanged(pool, index, changed);
    const carried =
      last && arranged && last.raws.length
        ? { raws: last.raws, views: last.views, from: positionsIn(pool, arranged, passed, changed) }
        : null;
    return { passed, funnel, weighed: this.weigh(passed, carried) };
  }

  private weigh(passed: HostState[], carried: CarriedWeights | null): WeighedSet {
    if (!passed.length) return EMPTY;
    const { weighed, views } = this.s.weighCarrying(passed, carried);
    this.last = { hosts: passed, raws: weighed.columns.map((c) => (c as Column).carried), views };
    return weighed;
  }

  /** The next pool: the hosts just weighed, in `order`. */
  arrange(passed: HostState[], order: number[]): HostState[] {
    if (this.last?.hosts === passed) this.arranged = order;
    return inOrder(passed, order);
  }

  consume(host: HostState): Placement {
    this.numaBefore = this.s.spec.numaTopology;
    const placed = this.s.consumeSelected(host);
    this.changed = host;
    return placed;
  }
}

/**
 * Where each of `passed` (a subsequence of `pool`) sat in the previous
 * weighing, given that pool[j] sat at arranged[j]; -1 for `changed`.
 */
function positionsIn(pool: HostState[], arranged: number[], passed: HostState[], changed: HostState): Int32Array {
  const from = new Int32Array(passed.length);
  let j = 0;
  for (let i = 0; i < passed.length; i++, j++) {
    while (pool[j] !== passed[i]) j++;
    from[i] = passed[i] === changed ? -1 : arranged[j];
  }
  return from;
}

function placementStage(hosts: HostState[], outcome: PlacementOutcome): FunnelStage {
  const stage: FunnelStage = {
    filter: "Placement",
    stage: "placement",
    in: hosts.length,
    out: outcome.returned.length,
    rejected: [],
    reasons: [],
    codes: [],
    labels: {},
  };
  for (let i = 0; i < hosts.length; i++) {
    const why = outcome.reasons[i];
    if (!why) continue; // returned by Placement
    stage.rejected.push(hosts[i]);
    stage.reasons.push(why.message);
    stage.codes.push(why.code);
    if (why.label) stage.labels[why.code] = why.label;
  }
  return stage;
}

/**
 * With Placement: the hosts Placement returned (null when the request ends
 * there, `run` filled), each instance claiming on the first host, in its
 * order, whose claim succeeds; hosts without an allocation request are skipped.
 */
function placementCandidates(s: Scheduler, run: ScheduleRun, scenario: Scenario, move: Move | null): Candidates | null {
  const { config, hosts, spec } = s;
  let source: SourceAllocation | null = null;
  const outcome = askPlacement(config, scenario, hosts, spec, (cloud) => {
    if (move?.source) source = holdSourceAllocation(move, cloud, instanceResources(move, !!spec.isBfv, config));
  });
  const sourceFits = () => source === null || sourceStillFits(source);
  const placement: PlacementRun = {
    query: outcome.query,
    matched: outcome.matched,
    candidates: outcome.candidates,
    claims: [],
    requestFilters: outcome.requestFilters,
  };
  if (outcome.fallbackQuery !== undefined) placement.fallbackQuery = outcome.fallbackQuery;
  const firstRequest = outcome.firstRequest;
  if (outcome.requests) placement.requests = outcome.requests;
  run.placement = placement;
  if (outcome.failedBeforeQuery) {
    run.error = noValidHost(outcome.failedBeforeQuery);
    return null;
  }
  // Zed extends its candidate list with the None of a refused fallback query.
  if (outcome.typeError) throw new NovaError("TypeError", "'NoneType' object is not iterable");
  const stage = placementStage(hosts, outcome);
  if (!outcome.returned.length) {
    run.traces.push({ index: 0, funnel: [stage], weighed: EMPTY, chosen: null });
    run.error = noValidHost();
    return null;
  }
  // Only hosts Placement returned ever enter the filters.
  const providerOf = new Map(outcome.returned.map((p) => [p.host, p]));
  const choose = (ordered: HostState[], index: number): HostState | null => {
    const attempt: PlacementRun["claims"][number] = { index, tried: [], claimed: null };
    if (firstRequest) attempt.allocations = null;
    placement.claims.push(attempt);
    for (let i = 0; i < ordered.length; i++) {
      const host = ordered[i];
      const p = providerOf.get(host);
      if (!p) continue;
      let claimed: boolean;
      if (firstRequest) {
        // Nova claims a host's first allocation request, never its others.
        const areq = firstRequest.get(p);
        if (!areq) continue;
        claimed = sourceFits() && claimRequest(areq) === null;
        if (claimed) attempt.allocations = areq;
      } else {
        const amounts = outcome.allocations.get(p);
        if (!amounts) continue;
        claimed = sourceFits() && claim(p, amounts) === null;
      }
      if (claimed) {
        attempt.claimed = ordered[i] = host.ownCopy();
        providerOf.set(attempt.claimed, p);
        return attempt.claimed;
      }
      attempt.tried.push(host);
    }
    return null;
  };
  const eligible = (h: HostState) => {
    const p = providerOf.get(h);
    return !!p && (firstRequest ? firstRequest.has(p) : outcome.allocations.has(p));
  };
  return { hosts: outcome.returned.map((p) => p.host), stage, choose, eligible };
}

/**
 * _get_alternate_hosts: for each selection, hosts of its cell that no
 * instance chose, in the last instance's order — filtered and weighed once
 * more after it consumed when there were several instances. `eligible`
 * drops hosts Placement gave no allocation request.
 */
function withAlternates(
  pass: HostPass,
  pool: HostState[],
  index: number,
  numAlts: number,
  selected: HostState[],
  placed: Placement[],
  eligible: (h: HostState) => boolean,
): ScheduleRun["selections"] {
  let altPool = pool;
  if (index > 0 && numAlts > 0) {
    const { passed, weighed } = pass.run(pool, index);
    altPool = inOrder(passed, weighed.order);
  }
  const chosenSet = new Set(selected);
  return selected.map((host, i) => ({
    host,
    alternates: firstAlternates(altPool, host, chosenSet, eligible, numAlts),
    placement: placed[i],
  }));
}

/** The first `count` hosts of the pool in the chosen host's cell, not chosen, eligible. */
function firstAlternates(
  pool: HostState[],
  host: HostState,
  chosen: Set<HostState>,
  eligible: (h: HostState) => boolean,
  count: number,
): HostState[] {
  const out: HostState[] = [];
  for (let i = 0; i < pool.length && out.length < count; i++) {
    const h = pool[i];
    if (h.cell === host.cell && !chosen.has(h) && eligible(h)) out.push(h);
  }
  return out;
}
