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
import { stableUuid } from "./nova-uuid";
import { consumeNumaAndPci, type Placement } from "./numa/consume";
import { askPlacement, claim, type PlacementOutcome } from "./placement";
import type { HostFilter, HostWeigher } from "./plugin";
import { NovaError } from "./python";
import { KNOWN, getFilter, getWeigher } from "./registry";
import { buildRequestSpec, type RequestSpec } from "./request-spec";
import type { Scenario } from "./scenario";
import { orderByWeight } from "./weight-order";

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
}

export interface FunnelStage {
  filter: string;
  stage: "placement" | "filter";
  in: number;
  out: number;
  rejected: HostState[];
  /** Why each rejected host fell out (messages), parallel to `rejected`. */
  reasons: string[];
  /** The stable code of each reason, parallel to `rejected`. */
  codes: string[];
  /** Short text per code for summaries ("VCPU short"), when the reason gave one. */
  labels: Record<string, string>;
}

export interface WeigherColumn {
  name: string;
  raw: Float64Array;
  normalized: Float64Array;
  /** Multiplier and its source per aggregate view id (host.aggregates.id). */
  byView: ReadonlyArray<{ value: number; source: string } | undefined>;
}

export interface WeighedSet {
  /** Survivors in filter order; columns are indexed like this array. */
  hosts: HostState[];
  weights: Float64Array;
  columns: WeigherColumn[];
  /** Positions into `hosts`, best first. */
  order: number[];
}

export interface InstanceTrace {
  index: number;
  funnel: FunnelStage[];
  weighed: WeighedSet;
  chosen: HostState | null;
  subset?: HostState[];
}

/** What the Placement path asked, got and claimed (ScheduleRun.placement). */
export interface PlacementRun {
  query: string | null;
  fallbackQuery?: string;
  matched: number;
  candidates: number;
  claims: Array<{ index: number; tried: HostState[]; claimed: HostState | null }>;
  requestFilters: PlacementOutcome["requestFilters"];
}

export interface ScheduleRun {
  config: SchedulerConfig;
  hosts: HostState[];
  spec: RequestSpec | null;
  traces: InstanceTrace[];
  selections: Array<{ host: HostState; alternates: HostState[]; placement: Placement }>;
  error: { name: string; message: string } | null;
  engineMs: number;
  /** Set when the Placement path ran. */
  placement?: PlacementRun;
}

const EMPTY: WeighedSet = { hosts: [], weights: new Float64Array(0), columns: [], order: [] };

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
    this.asked = { numa: spec.numaTopology !== null, pci: spec.pciRequests.length > 0 };
  }

  /** HostManager.get_filtered_hosts' prologue: ignore/force hosts and nodes. */
  private restrict(hosts: HostState[]): { hosts: HostState[]; skipFilters: boolean } {
    const { ignoreHosts, forceHosts, forceNodes } = this.spec;
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
    const funnel: FunnelStage[] = [];
    let current = pool;
    const restricted = this.restrict(current);
    current = restricted.hosts;
    if (restricted.skipFilters) return { passed: current, funnel };
    // BaseFilterHandler: a filter runs (and shows) even on no hosts; the
    // loop stops after the first filter that leaves none.
    for (const f of this.filters) {
      if (f.runOncePerRequest && index > 0) continue;
      current = this.runStage(f, current, funnel);
      if (!current.length) break;
    }
    return { passed: current, funnel };
  }

  private runStage(f: HostFilter, current: HostState[], funnel: FunnelStage[]): HostState[] {
    if (!this.prepared.has(f)) {
      // Lazily, so a filter that never sees a host never raises (as in Nova).
      f.prepare?.(this.spec);
      this.prepared.add(f);
    }
    const kept: HostState[] = [];
    const rejected: HostState[] = [];
    const reasons: string[] = [];
    const codes: string[] = [];
    const labels: Record<string, string> = {};
    const spec = this.spec;
    for (let i = 0; i < current.length; i++) {
      const h = current[i];
      const why = f.check(h, spec);
      if (why === null) kept.push(h);
      else {
        rejected.push(h);
        // A plain message is coded with the filter's name.
        if (typeof why === "string") {
          reasons.push(why);
          codes.push(f.name);
        } else {
          reasons.push(why.message);
          codes.push(why.code);
          if (why.label) labels[why.code] = why.label;
        }
      }
    }
    funnel.push({
      filter: f.name,
      stage: "filter",
      in: current.length,
      out: kept.length,
      rejected,
      reasons,
      codes,
      labels,
    });
    return kept;
  }

  /** BaseWeightHandler.get_weighed_objects with every column kept. */
  /** Multipliers per weigher and aggregate view: they depend on nothing else. */
  private readonly multipliers: Array<Array<{ value: number; source: string } | undefined>>;

  /** BaseWeightHandler.get_weighed_objects with every column kept. */
  weigh(hosts: HostState[]): WeighedSet {
    const n = hosts.length;
    const W = n > 1 ? this.weighers.length : 0;
    // One buffer per call: weights, then raw and normalized per weigher.
    const buf = new Float64Array(n * (1 + 2 * W));
    const weights = buf.subarray(0, n);
    const columns: WeigherColumn[] = [];
    const spec = this.spec;
    for (let k = 0; k < W; k++) {
      const w = this.weighers[k];
      const raw = buf.subarray(n * (1 + 2 * k), n * (2 + 2 * k));
      const normalized = buf.subarray(n * (2 + 2 * k), n * (3 + 2 * k));
      const minval = w.minval;
      const maxval = w.maxval;
      for (let i = 0; i < n; i++) {
        let v = w.weigh(hosts[i], spec);
        if (minval !== undefined && v < minval) v = minval;
        if (maxval !== undefined && v > maxval) v = maxval;
        raw[i] = v;
      }
      let lo = minval;
      let hi = maxval;
      if (lo === undefined || hi === undefined) {
        let mn = raw[0];
        let mx = raw[0];
        for (let i = 1; i < n; i++) {
          if (raw[i] < mn) mn = raw[i];
          if (raw[i] > mx) mx = raw[i];
        }
        if (lo === undefined) lo = mn;
        if (hi === undefined) hi = mx;
      }
      const range = hi - lo;
      const byView = this.multipliers[k];
      for (let i = 0; i < n; i++) {
        const norm = lo === hi ? 0 : (raw[i] - lo) / range;
        const h = hosts[i];
        let m = byView[h.aggregates.id];
        if (m === undefined) byView[h.aggregates.id] = m = w.multiplier(h);
        normalized[i] = norm;
        weights[i] += m.value * norm;
      }
      columns.push({ name: w.name, raw, normalized, byView });
    }
    return { hosts, weights, columns, order: orderByWeight(weights) };
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
  const filters = config.enabledFilters.map((n) => getFilter(n)(config));
  const weighers = config.weighers.map((n) => getWeigher(n)(config));
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
  try {
    const config = resolveConfig(scenario.config ?? {}, KNOWN);
    run.config = config;
    const { hosts, spec, scheduler: s } = openSession(scenario, options, config);
    run.hosts = hosts;
    run.spec = spec;
    const instanceUuids = Array.from({ length: spec.numInstances }, (_, i) => stableUuid(`instance-${i}`));
    const numAlts = Math.max(config.maxAttempts - 1, 0);
    if (config.placement) {
      started = now();
      schedulePlacement(s, run, scenario, instanceUuids, numAlts, options.random);
      run.engineMs = now() - started;
      return run;
    }

    started = now();
    const selected: HostState[] = [];
    const placed: Placement[] = [];
    let pool = hosts;
    let index = 0;
    for (index = 0; index < spec.numInstances; index++) {
      spec.instanceUuid = instanceUuids[index];
      const { passed, funnel } = s.runFilters(pool, index);
      const weighed = passed.length ? s.weigh(passed) : EMPTY;
      const trace: InstanceTrace = { index, funnel, weighed, chosen: null };
      run.traces.push(trace);
      if (!passed.length) break;
      let order = weighed.order;
      if (options.random) order = pickWithRandom(order, weighed.weights, config, options.random);
      const ordered = order.map((i) => passed[i]);
      if (config.hostSubsetSize > 1) trace.subset = ordered.slice(0, config.hostSubsetSize);
      const chosen = ordered[0];
      trace.chosen = chosen;
      selected.push(chosen);
      placed.push(s.consumeSelected(chosen));
      pool = ordered;
    }
    // Python's loop variable stays on the last index after a full loop.
    if (index >= spec.numInstances) index = Math.max(spec.numInstances - 1, 0);
    if (selected.length < spec.numInstances) {
      run.error = { name: "NoValidHost", message: "No valid host was found." };
    } else {
      run.selections = withAlternates(s, pool, index, numAlts, selected, placed, () => true);
    }
    run.engineMs = now() - started;
  } catch (e) {
    if (!(e instanceof NovaError)) throw e;
    run.error = { name: e.novaName, message: e.message };
    run.traces = [];
    run.selections = [];
    run.engineMs = started ? now() - started : 0;
  }
  return run;
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
 * SchedulerManager.select_destinations with Placement: the candidates, then
 * _schedule's loop (sort, claim the first host whose claim succeeds, consume)
 * and _get_alternate_hosts, skipping hosts without an allocation request.
 */
function schedulePlacement(
  s: Scheduler,
  run: ScheduleRun,
  scenario: Scenario,
  instanceUuids: string[],
  numAlts: number,
  random: (() => number) | undefined,
): void {
  const { config, hosts, spec } = s;
  const outcome = askPlacement(config, scenario, hosts, spec);
  const placement: PlacementRun = {
    query: outcome.query,
    matched: outcome.matched,
    candidates: outcome.candidates,
    claims: [],
    requestFilters: outcome.requestFilters,
  };
  if (outcome.fallbackQuery !== undefined) placement.fallbackQuery = outcome.fallbackQuery;
  run.placement = placement;
  const noValidHost = { name: "NoValidHost", message: "No valid host was found." };
  if (outcome.failedBeforeQuery) {
    run.error = { name: "NoValidHost", message: `No valid host was found. ${outcome.failedBeforeQuery}` };
    return;
  }
  // Zed extends its candidate list with the None of a refused fallback query.
  if (outcome.typeError) throw new NovaError("TypeError", "'NoneType' object is not iterable");
  const stage = placementStage(hosts, outcome);
  if (!outcome.returned.length) {
    run.traces.push({ index: 0, funnel: [stage], weighed: EMPTY, chosen: null });
    run.error = noValidHost;
    return;
  }
  // Only hosts Placement returned ever enter the filters.
  const providerOf = new Map(outcome.returned.map((p) => [p.host, p]));
  const selected: HostState[] = [];
  const placed: Placement[] = [];
  let pool = outcome.returned.map((p) => p.host);
  let index = 0;
  for (index = 0; index < spec.numInstances; index++) {
    spec.instanceUuid = instanceUuids[index];
    const { passed, funnel } = s.runFilters(pool, index);
    if (index === 0) funnel.unshift(stage);
    const weighed = passed.length ? s.weigh(passed) : EMPTY;
    const trace: InstanceTrace = { index, funnel, weighed, chosen: null };
    run.traces.push(trace);
    if (!passed.length) break;
    let order = weighed.order;
    if (random) order = pickWithRandom(order, weighed.weights, config, random);
    const ordered = order.map((i) => passed[i]);
    if (config.hostSubsetSize > 1) trace.subset = ordered.slice(0, config.hostSubsetSize);
    pool = ordered;
    const attempt = { index, tried: [] as HostState[], claimed: null as HostState | null };
    for (const host of ordered) {
      const p = providerOf.get(host);
      const amounts = p && outcome.allocations.get(p);
      if (!p || !amounts) continue;
      if (claim(p, amounts) === null) {
        attempt.claimed = host;
        break;
      }
      attempt.tried.push(host);
    }
    placement.claims.push(attempt);
    if (!attempt.claimed) break;
    trace.chosen = attempt.claimed;
    selected.push(attempt.claimed);
    placed.push(s.consumeSelected(attempt.claimed));
  }
  if (index >= spec.numInstances) index = Math.max(spec.numInstances - 1, 0);
  if (selected.length < spec.numInstances) {
    run.error = noValidHost;
    return;
  }
  const hasAllocation = (h: HostState) => {
    const p = providerOf.get(h);
    return !!p && outcome.allocations.has(p);
  };
  run.selections = withAlternates(s, pool, index, numAlts, selected, placed, hasAllocation);
}

/**
 * _get_alternate_hosts: for each selection, hosts of its cell that no
 * instance chose, in the last instance's order — filtered and weighed once
 * more after it consumed when there were several instances. `eligible`
 * drops hosts Placement gave no allocation request.
 */
function withAlternates(
  s: Scheduler,
  pool: HostState[],
  index: number,
  numAlts: number,
  selected: HostState[],
  placed: Placement[],
  eligible: (h: HostState) => boolean,
): ScheduleRun["selections"] {
  let altPool = pool;
  if (index > 0 && numAlts > 0) {
    const { passed } = s.runFilters(pool, index);
    const w = passed.length ? s.weigh(passed) : EMPTY;
    altPool = w.order.map((i) => passed[i]);
  }
  const chosenSet = new Set(selected);
  return selected.map((host, i) => ({
    host,
    alternates: altPool.filter((h) => h.cell === host.cell && !chosenSet.has(h) && eligible(h)).slice(0, numAlts),
    placement: placed[i],
  }));
}
