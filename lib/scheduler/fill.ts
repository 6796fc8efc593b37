/**
 * Capacity by filling: boot a flavor (or a mix of flavors) again and again on
 * one cloud, each boot a separate single-instance request scheduled as a
 * trial would schedule it (every filter at index 0) and then kept on the
 * chosen host as a finished boot, until NoValidHost or the limit.
 *
 * Host states live across boots. Building them and filtering every host per
 * boot would cost a whole trial per boot (8 ms at 10,000 hosts), so each
 * flavor keeps its survivors and raw weights, and after a boot only the
 * host that changed is filtered and weighed again: filters judge one host at
 * a time from that host's state and the request (the one exception,
 * ServerGroupAffinityFilter, reads the group's host list; when it changes
 * every host is filtered again). Normalisation and the pick use the engine's
 * arithmetic in the engine's order, so a boot lands where a fresh trial on
 * the same cloud would put it.
 *
 * With the Placement path (config `placement`), Placement's usage comes from
 * the scenario, not from host states: the scenario is edited as the cloud
 * looks once the instance runs, the edit the Nova reference loop makes, and
 * the boot's provider reloads its usage from it. Each flavor keeps which
 * providers Placement returns (placement/candidate-index.ts) and only those
 * hosts are filtered, as the Placement path filters. Where that index does
 * not apply (provider trees, the PCPU fallback query, a 400), or a boot it
 * cannot place, every boot from then on is a whole trial (`schedule`) on the
 * edited scenario: exact, and much slower.
 */
import { resolveConfig, type SchedulerConfig } from "./config";
import { openSession, schedule, type ScheduleRun, type Session, type WeighedSet } from "./engine";
import type { HostState } from "./host-state";
import { snapshotHostStates } from "./fast/snapshot";
import { stableUuid } from "./nova-uuid";
import { NovaError, noValidHost } from "./python";
import { KNOWN } from "./registry";
import type { AllocationRequest } from "./placement";
import { CandidateIndex } from "./placement/candidate-index";
import type { Scenario, ScenarioFlavor, ScenarioHost } from "./scenario";

import { MAX_FILL_LIMIT } from "./fill-limits";

export { MAX_FILL_LIMIT };

export interface FlavorShare {
  flavor: ScenarioFlavor;
  /** Proportion of the boots (shares of one mix sum to 1 or to 100). */
  share: number;
}

export interface FillOptions {
  /** Boots to try at most (1 … MAX_FILL_LIMIT; default MAX_FILL_LIMIT). */
  limit?: number;
  /** Flavors and their proportions; default the scenario request's flavor alone. */
  mix?: FlavorShare[];
  now?: () => number;
  clock?: () => Date;
  /** On the Placement path, every boot a whole trial (what the CandidateIndex shortcut is tested against). */
  byTrial?: boolean;
}

/** A problem with the fill's own parameters, naming the field and the rule. */
export class FillInputError extends Error {}

export function checkLimit(limit: unknown): number {
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_FILL_LIMIT) {
    throw new FillInputError(
      `limit: must be a whole number of boots from 1 to ${MAX_FILL_LIMIT.toLocaleString("en-US")} (got ${String(limit)})`,
    );
  }
  return limit;
}

/** Shares of a mix: at least one flavor, each share > 0, summing to 1 or to 100 (percent). */
export function checkMix(mix: FlavorShare[]): FlavorShare[] {
  if (!mix.length) throw new FillInputError("mix: name at least one flavor to boot");
  const names = new Set<string>();
  for (const [i, m] of mix.entries()) {
    if (!m.flavor?.name) throw new FillInputError(`mix[${i}].flavor: a flavor is required`);
    if (names.has(m.flavor.name)) throw new FillInputError(`mix[${i}].flavor: ${m.flavor.name} is listed twice`);
    names.add(m.flavor.name);
    if (typeof m.share !== "number" || !Number.isFinite(m.share) || m.share <= 0) {
      throw new FillInputError(`mix[${i}].share: ${m.flavor.name} needs a proportion greater than 0`);
    }
  }
  const sum = mix.reduce((s, m) => s + m.share, 0);
  if (Math.abs(sum - 1) > 1e-6 && Math.abs(sum - 100) > 1e-4) {
    throw new FillInputError(`mix: proportions must sum to 1 or to 100% (they sum to ${Number(sum.toPrecision(6))})`);
  }
  return mix;
}

/** Nova's host availability zone: its aggregates' zones, sorted and joined, or the default. */
export function hostAvailabilityZone(host: HostState, config: SchedulerConfig): string {
  const zones = host.aggregates.raw.get("availability_zone");
  return zones?.size ? [...zones].sort().join(",") : config.defaultAvailabilityZone;
}

// The uuid a trial gives its one instance; never a finished instance's.
const REQUEST_UUID = stableUuid("instance-0");

/** The uuid of the n-th finished boot of a fill (the Nova reference loop uses the same). */
export function bootUuid(n: number): string {
  return stableUuid(`capacity-${n}`);
}

/**
 * A trial of the session's request on its host states as they are now,
 * exactly as `schedule` runs a single-instance request, without consuming.
 */
export function trialRun(session: Session, now: () => number = () => performance.now()): ScheduleRun {
  const { config, hosts, spec, scheduler: s } = session;
  const run: ScheduleRun = { config, hosts, spec, traces: [], selections: [], error: null, engineMs: 0 };
  const started = now();
  try {
    spec.instanceUuid = REQUEST_UUID;
    const { passed, funnel } = s.runFilters(hosts, 0);
    const weighed: WeighedSet = passed.length
      ? s.weigh(passed)
      : { hosts: [], weights: new Float64Array(0), columns: [], order: [] };
    const ordered = weighed.order.map((i) => passed[i]);
    const chosen = ordered[0] ?? null;
    run.traces.push({ index: 0, funnel, weighed, chosen });
    if (chosen && config.hostSubsetSize > 1) run.traces[0].subset = ordered.slice(0, config.hostSubsetSize);
    if (!chosen) run.error = noValidHost();
    else {
      const numAlts = Math.max(config.maxAttempts - 1, 0);
      run.selections = [
        {
          host: chosen,
          alternates: ordered.filter((h) => h.cell === chosen.cell && h !== chosen).slice(0, numAlts),
          placement: {},
        },
      ];
    }
  } catch (e) {
    if (!(e instanceof NovaError)) throw e;
    run.error = { name: e.novaName, message: e.message };
    run.traces = [];
  }
  run.engineMs = now() - started;
  return run;
}

/** One flavor's request over the shared host states, with what it knows between boots. */
class FlavorFill {
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

  constructor(readonly session: Session) {
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
    spec.instanceUuid = REQUEST_UUID;
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

export interface FillCounts {
  count: number;
  perHost: Map<string, number>;
  perFlavor: Map<string, number>;
  /** AZ → flavor → boots. */
  perAz: Map<string, Map<string, number>>;
  perAggregate: Map<string, number>;
  perCell: Map<string, number>;
}

export interface FillResult extends FillCounts {
  /** The flavor filled, or the mix's flavors joined with "+". */
  flavor: string;
  limit: number;
  /** The trial of the boot that failed (NoValidHost or Nova's error); null when the limit was reached. */
  stoppedBy: ScheduleRun | null;
  /** Which flavor's boot failed. */
  stoppedFlavor: string | null;
  /** The host states after the fill (for fragmentation). */
  hosts: HostState[];
  config: SchedulerConfig;
  engineMs: number;
}

/**
 * A fill that can run in slices (`step`), so a caller can report progress
 * between them; `fill()` runs it at once.
 */
export class CapacityFill {
  readonly limit: number;
  readonly mix: FlavorShare[];
  readonly counts: FillCounts = {
    count: 0,
    perHost: new Map(),
    perFlavor: new Map(),
    perAz: new Map(),
    perAggregate: new Map(),
    perCell: new Map(),
  };
  stoppedBy: ScheduleRun | null = null;
  stoppedFlavor: string | null = null;
  done = false;
  engineMs = 0;
  private config: SchedulerConfig | null = null;
  private hosts: HostState[] = [];
  private fills: FlavorFill[] = [];
  /** Smooth weighted round robin: boots follow the mix's proportions closely at every point. */
  private readonly current: number[];
  private readonly now: () => number;
  private readonly clock: () => Date;
  private readonly byTrial: boolean;
  private readonly azOf: string[] = [];
  private readonly firstIndex = new Map<string, number>();
  /** The scenario as edited boot after boot (the Placement path). */
  private trial: Scenario | null = null;
  /** Every flavor has its CandidateIndex: boots are picked as without Placement, among the hosts it returns. */
  private indexed = false;

  constructor(
    private readonly scenario: Scenario,
    options: FillOptions = {},
  ) {
    this.limit = checkLimit(options.limit ?? MAX_FILL_LIMIT);
    this.mix = checkMix(options.mix ?? [{ flavor: scenario.request.flavor, share: 1 }]);
    this.current = this.mix.map(() => 0);
    this.now = options.now ?? (() => performance.now());
    this.clock = options.clock ?? (() => new Date(0));
    this.byTrial = options.byTrial ?? false;
  }

  private sessionScenario(flavor: ScenarioFlavor): Scenario {
    return { ...this.scenario, request: { ...this.scenario.request, flavor, num_instances: 1 } };
  }

  private open(): boolean {
    let k = 0;
    try {
      const config = resolveConfig(this.scenario.config ?? {}, KNOWN);
      this.config = config;
      this.hosts = snapshotHostStates(this.scenario);
      for (k = 0; k < this.mix.length; k++) {
        const session = openSession(
          this.sessionScenario(this.mix[k].flavor),
          { clock: this.clock },
          config,
          this.hosts,
        );
        this.fills.push(new FlavorFill(session));
      }
      // Placement keeps its own usage (providers built from the scenario):
      // with it, every boot is a whole trial on the scenario as edited so far.
      if (config.placement) {
        const trial = structuredClone(this.scenario);
        this.trial = trial;
        // A move's trial is the move's own request (its source allocation, its cell): left to whole trials.
        const move = "operation" in trial.request;
        for (let i = 0; i < this.fills.length && !this.byTrial && !move; i++)
          this.fills[i].gate = CandidateIndex.open(
            config,
            { ...trial, request: { ...trial.request, flavor: this.mix[i].flavor, num_instances: 1 } },
            this.hosts,
            this.fills[i].session.spec,
          );
        this.indexed = this.fills.every((f) => f.gate !== null);
      }
      for (const h of this.hosts) {
        this.azOf.push(hostAvailabilityZone(h, config));
        if (!this.firstIndex.has(h.host)) this.firstIndex.set(h.host, h.index);
      }
      return true;
    } catch (e) {
      if (!(e instanceof NovaError)) throw e;
      this.stoppedFlavor = this.mix[Math.min(k, this.mix.length - 1)].flavor.name;
      this.stoppedBy = {
        config: this.config ?? resolveConfig({}),
        hosts: [],
        spec: null,
        traces: [],
        selections: [],
        error: { name: e.novaName, message: e.message },
        engineMs: 0,
      };
      this.done = true;
      return false;
    }
  }

  private nextFlavor(): number {
    if (this.mix.length === 1) return 0;
    let total = 0;
    let best = 0;
    for (let i = 0; i < this.mix.length; i++) {
      this.current[i] += this.mix[i].share;
      total += this.mix[i].share;
      if (this.current[i] > this.current[best]) best = i;
    }
    this.current[best] -= total;
    return best;
  }

  /** Keep the boot on the host as a finished instance, and tell every flavor. */
  private finish(host: HostState, fill: FlavorFill, flavor: ScenarioFlavor): void {
    const uuid = bootUuid(this.counts.count);
    const { updated, numIoOps } = host;
    const spec = fill.session.spec;
    const f = spec.flavor;
    const numaRequest = spec.numaTopology;
    // The engine's consume (resources, instance count, NUMA cells, PCI
    // devices), minus what only an in-flight boot holds: its I/O op.
    fill.session.scheduler.consume(host);
    host.numIoOps = numIoOps;
    host.updated = updated;
    // Consume replaces the request's NUMA topology with the one fitted here;
    // the next boot is a new request for the flavor's own.
    spec.numaTopology = numaRequest;
    // What the compute node reports once the instance runs.
    host.diskMbUsed += (f.rootGb + f.ephemeralGb) * 1024;
    // A new object: a host's stats may be shared with the snapshot it was derived from.
    host.stats = { ...host.stats, num_instances: String(host.numInstances) };
    host.instances.add(uuid);
    for (const other of this.fills) {
      // Every flavor's request names the same server group; each spec holds its own copy.
      const group = other.session.spec.instanceGroup;
      let groupHostsChanged = false;
      if (group) {
        group.members.add(uuid);
        if (!group.hosts.includes(host.host)) {
          // The group's hosts in host order, as the request spec lists them.
          let at = 0;
          while (at < group.hosts.length && (this.firstIndex.get(group.hosts[at]) ?? 0) < host.index) at++;
          group.hosts.splice(at, 0, host.host);
          groupHostsChanged = true;
        }
      }
      other.touched(host, groupHostsChanged);
    }
    if (this.trial) {
      // Placement's usage: the scenario as the reference loop edits it, the boot's provider reloaded from it.
      const h = keepBoot(this.trial, host, flavor, uuid, fill.gate!.claimed(host.index));
      for (const other of this.fills) for (const j of other.gate!.update(host.index, h)) other.gateChanged(j);
    }
    this.record(host, fill.name);
  }

  private record(host: HostState, flavor: string): void {
    const c = this.counts;
    c.count++;
    c.perHost.set(host.host, (c.perHost.get(host.host) ?? 0) + 1);
    c.perFlavor.set(flavor, (c.perFlavor.get(flavor) ?? 0) + 1);
    const az = this.azOf[host.index];
    let byFlavor = c.perAz.get(az);
    if (!byFlavor) c.perAz.set(az, (byFlavor = new Map()));
    byFlavor.set(flavor, (byFlavor.get(flavor) ?? 0) + 1);
    for (const a of host.aggregates.aggregates) c.perAggregate.set(a.name, (c.perAggregate.get(a.name) ?? 0) + 1);
    c.perCell.set(host.cell, (c.perCell.get(host.cell) ?? 0) + 1);
  }

  /**
   * One boot as a whole trial of the edited scenario, kept by editing it as
   * the cloud looks once the instance runs (the Nova reference loop's edit).
   */
  private bootByTrial(sc: Scenario, flavor: ScenarioFlavor): boolean {
    const run = schedule({ ...sc, request: { ...sc.request, flavor, num_instances: 1 } }, { clock: this.clock });
    if (run.error || !run.selections.length) {
      this.stoppedBy = run;
      this.stoppedFlavor = flavor.name;
      this.done = true;
      return false;
    }
    const host = run.selections[0].host;
    keepBoot(sc, host, flavor, bootUuid(this.counts.count), run.placement?.claims.at(-1)?.allocations ?? null);
    this.record(host, flavor.name);
    return true;
  }

  /** Make up to `boots` more boots; returns true when the fill is over. */
  step(boots: number): boolean {
    if (this.done) return true;
    const started = this.now();
    if (!this.fills.length && !this.open()) return true;
    for (let b = 0; b < boots && this.counts.count < this.limit; b++) {
      const k = this.nextFlavor();
      const fill = this.fills[k];
      if (this.trial && this.indexed) {
        const host = fill.pick();
        if (host && fill.gate!.claimable(host.index)) {
          this.finish(host, fill, this.mix[k].flavor);
          continue;
        }
        // The boot as a whole trial says what happens; the host states kept here stop following.
        this.indexed = false;
      }
      if (this.trial) {
        if (!this.bootByTrial(this.trial, this.mix[k].flavor)) break;
        continue;
      }
      const host = fill.pick();
      if (!host) {
        this.stoppedBy = trialRun(fill.session, this.now);
        this.stoppedFlavor = fill.name;
        // The shortcut and the trial must agree; a trial that places the boot would be a bug here.
        if (!this.stoppedBy.error) throw new Error(`capacity: ${fill.name} placed by a trial but not by the fill`);
        this.done = true;
        break;
      }
      this.finish(host, fill, this.mix[k].flavor);
    }
    if (this.counts.count >= this.limit) this.done = true;
    this.engineMs += this.now() - started;
    return this.done;
  }

  result(): FillResult {
    const at = (name: string) => this.firstIndex.get(name) ?? 0;
    return {
      ...this.counts,
      // Hosts in the cloud's order, not the order they were first chosen.
      perHost: new Map([...this.counts.perHost].sort((a, b) => at(a[0]) - at(b[0]))),
      flavor: this.mix.map((m) => m.flavor.name).join("+"),
      limit: this.limit,
      stoppedBy: this.stoppedBy,
      stoppedFlavor: this.stoppedFlavor,
      hosts: this.trial ? snapshotHostStates(this.trial) : this.hosts,
      config: this.config ?? resolveConfig({}),
      engineMs: this.engineMs,
    };
  }
}

/**
 * Keep a boot in the scenario as the cloud looks once the instance runs (the
 * Nova reference loop's edit); returns the host's entry.
 */
function keepBoot(
  sc: Scenario,
  host: HostState,
  flavor: ScenarioFlavor,
  uuid: string,
  allocations: AllocationRequest | null,
): ScenarioHost {
  const h = sc.hosts[host.index];
  const disk = (flavor.root_gb ?? 0) + (flavor.ephemeral_gb ?? 0);
  h.vcpus_used = (h.vcpus_used ?? 0) + flavor.vcpus;
  h.memory_mb_used = (h.memory_mb_used ?? 0) + flavor.memory_mb;
  h.local_gb_used = (h.local_gb_used ?? 0) + disk;
  if (h.free_ram_mb !== undefined) h.free_ram_mb -= flavor.memory_mb;
  if (h.free_disk_gb !== undefined) h.free_disk_gb -= disk;
  if (h.disk_available_least != null) h.disk_available_least -= disk;
  h.num_instances = (h.num_instances ?? 0) + 1;
  h.instances = [...(h.instances ?? []), uuid];
  const ref = sc.request.server_group;
  const g = ref ? sc.server_groups?.find((x) => x.uuid === ref || x.name === ref) : undefined;
  if (g) g.members = [...(g.members ?? []), uuid];
  keepConsumed(h, host);
  if (allocations) keepAllocations(sc, host, allocations);
  return h;
}

const sortedInts = (xs: Iterable<number>) => [...xs].sort((a, b) => a - b);

/**
 * The NUMA cells and PCI pools a host reports once the boot runs: what the
 * engine's consume step left in its state (tools/nova-fill.py makes the same
 * edit with Nova's numa_usage_from_instance_numa and the devices taken).
 */
export function keepConsumed(h: ScenarioHost, host: HostState): void {
  if (h.numa_topology && host.numaCells)
    h.numa_topology = {
      cells: host.numaCells.map((c) => ({
        id: c.id,
        cpuset: sortedInts(c.cpuset.values()),
        pcpuset: sortedInts(c.pcpuset.values()),
        memory: c.memory,
        cpu_usage: c.cpuUsage,
        memory_usage: c.memoryUsage,
        pinned_cpus: sortedInts(c.pinnedCpus.values()),
        siblings: c.siblings.map((sib) => sortedInts(sib.values())),
        mempages: c.mempages.map((m) => ({ size_kb: m.sizeKb, total: m.total, used: m.used, reserved: m.reserved })),
        socket: c.socket,
      })),
    };
  if (h.pci_device_pools?.length) {
    // The pools as the host lists them, less the devices taken; an emptied pool is gone.
    const left = host.pciStats.pools;
    h.pci_device_pools = h.pci_device_pools.flatMap((p) => {
      const same = left.find(
        (q) =>
          q.props.get("vendor_id") === String(p.vendor_id) &&
          q.props.get("product_id") === String(p.product_id) &&
          (q.props.get("numa_node") ?? null) === (p.numa_node ?? null) &&
          Object.entries(p.tags ?? {}).every(([k, v]) => (q.props.get(k) ?? null) === (v === null ? null : String(v))),
      );
      return same && same.count > 0 ? [{ ...p, count: same.count }] : [];
    });
  }
}

/** What Placement allocated beyond the flavor's VCPU, MEMORY_MB and DISK_GB, kept as the providers' usage. */
function keepAllocations(sc: Scenario, host: HostState, allocations: AllocationRequest): void {
  const h = sc.hosts[host.index];
  for (const [p, amounts] of allocations.allocations) {
    const child = h.child_providers?.find((c) => c.name === p.name && p.root.index === host.index);
    for (const [rc, n] of amounts) {
      if (child) {
        const usages = (child.usages ??= {});
        usages[rc] = (usages[rc] ?? child.inventories?.[rc]?.used ?? 0) + n;
      } else if (h.inventories?.[rc]) h.inventories[rc].used = (h.inventories[rc].used ?? 0) + n;
      else if (rc === "PCPU") h.pcpus_used = (h.pcpus_used ?? 0) + n;
    }
  }
}

/** Fill the cloud at once (see CapacityFill). Throws FillInputError for a bad limit or mix. */
export function fill(scenario: Scenario, options: FillOptions = {}): FillResult {
  const f = new CapacityFill(scenario, options);
  f.step(Number.POSITIVE_INFINITY);
  return f.result();
}
