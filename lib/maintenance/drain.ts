/**
 * Drain hosts for maintenance, as an operator does it with Nova: disable
 * the hosts' compute services, then move their instances off one by one,
 * in the hosts' order and each host's instance order: live-migrate each
 * (Nova's scheduler picks the destination, SCENARIO.md "Moves"), or
 * cold-migrate it where live migration is not possible for it; each move
 * is committed to the cloud (virtually) before the next is scheduled.
 * Instances that cannot go are stranded, with the funnel and Nova's reason,
 * and the drain says how many more hosts like the drained one(s) would
 * take them.
 *
 * The input is a cloud (a scenario with `flavors`, `images` and
 * `instances`, as `scenario export` writes it): an instance's flavor and
 * image are looked up there by name and id. What a cloud does not record
 * (the availability zone and hints an instance was booted with) is not
 * passed on: the moves run with the stored request's defaults.
 */
import { schedule } from "../scheduler/engine";
import { giveBackInstance, type Placed, pciAliases, takeInstance } from "../cloud/usage";
import { type ScheduleResult, toResult } from "../scheduler/result";
import type { Scenario, ScenarioFlavor, ScenarioHost, ScenarioImage } from "../scheduler/scenario";

export interface CloudInstance {
  uuid: string;
  name?: string | null;
  flavor?: string | null;
  image?: string | null;
  project_id?: string | null;
}

/** A scenario with the rest of a cloud (lib/scenario/schema.ts CloudSchema). */
export type Cloud = Omit<Scenario, "request"> & {
  request?: Scenario["request"];
  flavors?: ScenarioFlavor[];
  images?: ScenarioImage[];
  instances?: CloudInstance[];
};

export interface DrainStep {
  instance: string;
  source: string;
  /** The move Nova made: live-migrate, or migrate (cold) when the live migration failed. */
  operation: "live-migrate" | "migrate" | null;
  destination: string | null;
  /** Why the instance could not go (Nova's error and the last filter that emptied the funnel). */
  stranded?: { error: string; reason: string; funnel: Array<{ filter: string; in: number; out: number }> };
  /** Set when live migration failed first and the instance was cold-migrated (or stranded). */
  live_migration_failed?: string;
  /** "not checked: ..." when the live migration ended on a host: what its destination compute would still check. */
  not_checked?: string;
}

export interface DrainSummary {
  summary: true;
  hosts: string[];
  moved: number;
  stranded: number;
  /** More hosts like the first drained one (empty, same aggregates) the stranded instances need; null when more hosts do not help. */
  more_hosts_needed: number | null;
}

/** A move scenario of the cloud as it is now. */
export function moveScenario(
  cloud: Cloud,
  uuid: string,
  host: ScenarioHost,
  operation: "live-migrate" | "migrate",
): Scenario | { error: string } {
  const inst = (cloud.instances ?? []).find((i) => i.uuid === uuid);
  if (!inst) return { error: `instance ${uuid} is not in the cloud's instances (its flavor is unknown)` };
  const flavor = (cloud.flavors ?? []).find((f) => f.name === inst.flavor);
  if (!flavor) return { error: `instance ${uuid}: flavor "${inst.flavor}" is not in the cloud's flavors` };
  const image = inst.image ? (cloud.images ?? []).find((im) => im.id === inst.image || im.name === inst.image) : null;
  const instance: Record<string, unknown> = { uuid, host: host.name, flavor };
  if (host.node && host.node !== host.name) instance.node = host.node;
  if (image) instance.image = image;
  const { flavors: _f, images: _i, instances: _n, request: _r, ...rest } = cloud;
  return {
    ...rest,
    request: {
      operation,
      instance,
      ...(inst.project_id ? { project_id: inst.project_id } : {}),
    } as unknown as Scenario["request"],
  };
}

/**
 * Commit a move in the (copied) cloud: the instance and everything it holds
 * leave the source for the destination (lib/cloud/usage.ts, the rule every
 * commit follows): the destination takes the NUMA cells and PCI devices
 * the scheduler's consume step placed (`placed`), the source gives back
 * from the cell that can account for them (which cells and devices the
 * instance held is not recorded in a cloud file).
 */
export function commitMove(cloud: Cloud, uuid: string, from: ScenarioHost, to: ScenarioHost, placed?: Placed): void {
  const inst = (cloud.instances ?? []).find((i) => i.uuid === uuid)!;
  const f = (cloud.flavors ?? []).find((x) => x.name === inst.flavor)! as ScenarioFlavor;
  const aliases = pciAliases(cloud.config);
  from.instances = (from.instances ?? []).filter((u) => u !== uuid);
  giveBackInstance(from, f, aliases);
  to.instances = [...(to.instances ?? []), uuid];
  takeInstance(to, f, placed, aliases);
  // free_* given explicitly would no longer match the usage: Nova derives them from it
  for (const h of [from, to]) {
    delete h.free_ram_mb;
    delete h.free_disk_gb;
  }
}

function strandedOf(r: ScheduleResult): NonNullable<DrainStep["stranded"]> {
  const last = r.requests[r.requests.length - 1];
  return {
    error: r.error ?? "",
    reason: r.diagnosis?.summary ?? r.message ?? r.error ?? "",
    funnel: (last?.funnel ?? []).map((s) => ({ filter: s.filter, in: s.in, out: s.out })),
  };
}

/** Move one instance as Nova would: live-migrate, else cold-migrate. */
function moveOne(cloud: Cloud, uuid: string, source: ScenarioHost): DrainStep {
  const step: DrainStep = { instance: uuid, source: source.name, operation: null, destination: null };
  let failedLive: ScheduleResult | null = null;
  for (const op of ["live-migrate", "migrate"] as const) {
    const scenario = moveScenario(cloud, uuid, source, op);
    if ("error" in scenario) {
      step.stranded = { error: "UnknownInstance", reason: scenario.error, funnel: [] };
      return step;
    }
    const run = schedule(scenario);
    const r = toResult(run);
    if (r.not_checked) step.not_checked = r.not_checked;
    if (!r.error && r.selections.length) {
      const destName = r.selections[0].host;
      const chosen = run.selections[0].host;
      // by host and node: an Ironic service host has one entry per node
      const dest = cloud.hosts.find((h) => h.name === destName && (h.node ?? h.name) === chosen.nodename)!;
      const claim = r.placement?.claims.find((c) => c.index === 0);
      commitMove(cloud, uuid, source, dest, { ...run.selections[0].placement, allocations: claim?.allocations });
      step.operation = op;
      step.destination = destName;
      if (failedLive) step.live_migration_failed = strandedOf(failedLive).reason;
      return step;
    }
    if (op === "live-migrate") failedLive = r;
    else {
      step.stranded = strandedOf(r);
      if (failedLive) step.live_migration_failed = strandedOf(failedLive).reason;
    }
  }
  return step;
}

function deepCopy<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/**
 * Drain `hostNames` of `input` (not changed). Yields one step per instance,
 * then the summary. The hosts' services are disabled first, so no instance
 * of one drained host lands on another.
 */
export function* drainHosts(input: Cloud, hostNames: string[], opts: { maxExtraHosts?: number } = {}) {
  const cloud = deepCopy(input);
  const drained = hostNames.map((name) => {
    const h = cloud.hosts.find((x) => x.name === name);
    if (!h) throw new Error(`no host "${name}" in the cloud`);
    return h;
  });
  for (const h of drained) h.service = { ...(h.service ?? {}), disabled: true, disabled_reason: "drain" };
  const stranded: Array<{ uuid: string; host: ScenarioHost }> = [];
  let moved = 0;
  for (const h of drained) {
    for (const uuid of [...(h.instances ?? [])]) {
      const step = moveOne(cloud, uuid, h);
      if (step.destination) moved++;
      else stranded.push({ uuid, host: h });
      yield step;
    }
  }
  const summary: DrainSummary = {
    summary: true,
    hosts: hostNames,
    moved,
    stranded: stranded.length,
    more_hosts_needed: stranded.length ? moreHostsNeeded(cloud, drained[0], stranded, opts.maxExtraHosts ?? 20) : 0,
  };
  yield summary;
  return cloud;
}

/**
 * How many empty hosts like `model` (same aggregates, enabled) the stranded
 * instances need: add one at a time and move them again; null when even
 * `limit` more do not take them all (the reason is not room).
 */
function moreHostsNeeded(
  after: Cloud,
  model: ScenarioHost,
  stranded: Array<{ uuid: string; host: ScenarioHost }>,
  limit: number,
): number | null {
  for (let k = 1; k <= limit; k++) {
    const cloud = deepCopy(after);
    for (let i = 1; i <= k; i++) {
      const name = `${model.name}-extra-${i}`;
      const { uuid: _u, node: _n, ...rest } = deepCopy(model);
      cloud.hosts.push({
        ...rest,
        name,
        instances: [],
        vcpus_used: 0,
        memory_mb_used: 0,
        local_gb_used: 0,
        num_instances: 0,
        num_io_ops: 0,
        service: { disabled: false, up: true },
      });
      for (const a of cloud.aggregates ?? []) if ((a.hosts ?? []).includes(model.name)) a.hosts!.push(name);
    }
    let all = true;
    for (const s of stranded) {
      const src = cloud.hosts.find((h) => h.name === s.host.name)!;
      if (!moveOne(cloud, s.uuid, src).destination) {
        all = false;
        break;
      }
    }
    if (all) return k;
  }
  return null;
}
