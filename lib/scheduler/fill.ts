/**
 * Capacity by filling: boot a flavor (or a mix of flavors) again and again on
 * one cloud, each boot a separate single-instance request scheduled as a
 * trial would schedule it (every filter at index 0) and then kept on the
 * chosen host as a finished boot, until NoValidHost or the limit.
 *
 * Host states live across boots. Building them and filtering every host per
 * boot would cost a whole trial per boot (8 ms at 10,000 hosts), so each
 * flavor keeps its survivors and raw weights (fast/fill-loop.ts), and after a boot only the
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
import { KNOWN_CLASSES } from "./registry";
import { stableUuid } from "./nova-uuid";
import { NovaError, noValidHost } from "./python";
import type { AllocationRequest } from "./placement";
import { CandidateIndex } from "./placement/candidate-index";
import { FlavorFill } from "./fast/fill-loop";
import { requestInstanceUuid } from "./request-spec";
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
  /**
   * Every boot a whole trial of the plain path (schedule's `plain`) on the
   * scenario as edited so far, as the Nova reference loop fills: what the
   * fill's own loop (fast/fill-loop.ts) and, on the Placement path, the
   * CandidateIndex shortcut are tested against.
   */
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
    spec.instanceUuid = requestInstanceUuid(0);
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
  private fills: Array<FlavorFill<Session>> = [];
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
      const config = resolveConfig(this.scenario.config ?? {}, KNOWN_CLASSES);
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
      if (config.placement || this.byTrial) {
        const trial = structuredClone(this.scenario);
        this.trial = trial;
        // A move's trial is the move's own request (its source allocation, its cell): left to whole trials.
        const move = "operation" in trial.request;
        for (let i = 0; i < this.fills.length && config.placement && !this.byTrial && !move; i++)
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
  private finish(host: HostState, fill: FlavorFill<Session>, flavor: ScenarioFlavor): void {
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
    const request = { ...sc.request, flavor, num_instances: 1 };
    const run = schedule({ ...sc, request }, { clock: this.clock, plain: this.byTrial });
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
 * The scenario as the cloud looks once an instance of `flavor` runs on `h`
 * (the Nova reference loop's edit): the host's usage and instances, and the
 * request's server group's members.
 */
export function bootInScenario(sc: Scenario, h: ScenarioHost, flavor: ScenarioFlavor, uuid: string): void {
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
}

/**
 * Keep a boot in the scenario, with the NUMA cells, PCI pools and Placement
 * allocations the engine's consume step left; returns the host's entry.
 */
function keepBoot(
  sc: Scenario,
  host: HostState,
  flavor: ScenarioFlavor,
  uuid: string,
  allocations: AllocationRequest | null,
): ScenarioHost {
  const h = sc.hosts[host.index];
  bootInScenario(sc, h, flavor, uuid);
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
