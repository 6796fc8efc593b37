/**
 * Nova's filter scheduler, host loop for host loop (the placement-less path
 * of nova.scheduler.manager as the reference runs it): per instance
 * restrict → filter → weigh → pick → consume, then alternates from the
 * chosen host's cell. With `placement: true`, Nova's Placement path: the
 * hosts Placement returned (placement/), then per instance filter → weigh →
 * claim on the best host whose claim succeeds. Both paths run one instance
 * loop (selectDestinations). Nova's loops as written are in nova/, the fast
 * ones the engine runs in fast/, held to the same runs by
 * fast/equivalence.test.ts. Time and randomness come from the caller.
 */
import { resolveConfig, type SchedulerConfig } from "./config";
import type { HostState } from "./host-state";
import { snapshotHostStates } from "./fast/snapshot";
import { consumeNumaAndPci, type Placement } from "./numa/consume";
import { askPlacement, claim, claimRequest, type PlacementOutcome } from "./placement";
import { keepPlacementCloud } from "./placement/providers";
import type { HostFilter, HostWeigher } from "./plugin";
import { filterHostByHost, refilterChanged } from "./fast/host-major";
import { InstancePass, inOrder } from "./fast/instance-pass";
import { sameShapeFilter, sameShapeWeigher } from "./fast/same-shape";
import { type CarriedWeights, EMPTY, WeightColumns } from "./fast/weigh";
import { getFilteredObjects } from "./nova/filters";
import { NovaPass } from "./nova/host-pass";
import { NovaError, noValidHost } from "./python";
import { getFilter, getWeigher, KNOWN_CLASSES, notSimulatedFilter, notSimulatedWeigher } from "./registry";
import { holdSourceAllocation, instanceResources, type SourceAllocation, sourceStillFits } from "./moves/allocations";
import { applyMove, inCell } from "./moves/conductor";
import { type Move, prepareMove, ScenarioError } from "./moves";
import { conductorDecides, runConductor } from "./moves/conductor-tasks";
import { buildRequestSpec, type RequestSpec, requestInstanceUuid } from "./request-spec";
import type { Scenario } from "./scenario";
import type { FunnelStage, HostPass, InstanceTrace, PlacementRun, ScheduleRun, WeighedSet, WeigherColumn } from "./run";

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
 * One request's filters, weighers and consume step over a set of host
 * states; `schedule` drives it for a request's instances, the capacity fill
 * (fill.ts) for boot after boot on the same host states.
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
    this.columns = new WeightColumns(weighers, hosts);
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

  /**
   * HostManager.get_filtered_hosts, host-major (fast/host-major.ts); when a
   * filter raises, filter by filter (nova/filters.ts) for Nova's error.
   */
  runFilters(pool: HostState[], index: number): { passed: HostState[]; funnel: FunnelStage[] } {
    const restricted = this.restrict(pool);
    if (restricted.skipFilters) return { passed: restricted.hosts, funnel: [] };
    const active = index > 0 ? this.filters.filter((f) => !f.runOncePerRequest) : this.filters;
    if (!active.length) return { passed: restricted.hosts, funnel: [] };
    try {
      return filterHostByHost(active, restricted.hosts, this.spec, (f) => this.prepare(f));
    } catch (e) {
      if (!(e instanceof NovaError)) throw e;
      // A filter raised: raise what Nova's filter-by-filter order raises first.
      return getFilteredObjects(active, restricted.hosts, this.spec, (f) => this.prepare(f));
    }
  }

  /** A filter's per-request work, once per request and lazily, so a filter that never sees a host never raises (as in Nova). */
  prepare(f: HostFilter): void {
    if (!this.prepared.has(f)) {
      f.prepare?.(this.spec);
      this.prepared.add(f);
    }
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

  /**
   * runFilters for a later instance when `changed`, the host the previous
   * instance consumed, is the only thing its filters read that changed
   * (see `carries`): only that host is checked (fast/host-major.ts).
   */
  refilterChanged(
    pool: HostState[],
    index: number,
    changed: HostState,
  ): { passed: HostState[]; funnel: FunnelStage[] } {
    return refilterChanged(this, pool, index, changed);
  }

  private readonly columns: WeightColumns;

  /** BaseWeightHandler.get_weighed_objects with every column kept. */
  weigh(hosts: HostState[]): WeighedSet {
    return this.columns.weigh(hosts, this.spec, null).weighed;
  }

  /** weigh(), carrying from the previous instance the raw values of the hosts `carried` places (fast/weigh.ts). */
  weighCarrying(hosts: HostState[], carried: CarriedWeights | null): { weighed: WeighedSet; views: Int32Array } {
    return this.columns.weigh(hosts, this.spec, carried);
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

/** host_subset_size and shuffle_best_same_weighed_hosts applied to the weighed order. */
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
  config: SchedulerConfig = resolveConfig(scenario.config ?? {}, KNOWN_CLASSES),
  hosts: HostState[] = snapshotHostStates(scenario),
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
    const config = resolveConfig(scenario.config ?? {}, KNOWN_CLASSES);
    run.config = config;
    if (move) run.move = move.echo;
    // The snapshot's host states themselves: the consume step changes a copy (HostState.ownCopy).
    const { hosts, spec, scheduler: s } = openSession(scenario, options, config, snapshotHostStates(scenario, true));
    run.hosts = hosts;
    run.spec = spec;
    if (move) applyMove(move, spec, hosts, config, { pciAlias: config.pciAlias });
    // Placement's providers, like the host states, are the snapshot's: built once, before the clock.
    else if (config.placement) keepPlacementCloud(scenario, hosts, config.release.addedStandardTraits);
    started = now();
    if (move && conductorDecides(move))
      runConductor(move, s, run, scenario, () =>
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
  if (outcome.orderDependent) placement.orderDependent = true;
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
