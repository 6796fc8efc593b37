/**
 * Lose a host: its compute service goes down and every instance on it is
 * evacuated as Nova would (SCENARIO.md "Moves", evacuate: source ignored,
 * no alternates), one by one, each committed before the next. The sweep
 * does it for every host (or a chosen set), each loss on its own from the
 * same cloud, and reports the stranded instances and, per availability
 * zone, the worst single-host loss.
 *
 * Speed: the cloud is frozen once, and each move builds a new host list
 * that shares every unchanged (frozen) host, so the engine derives those
 * hosts' facts once for the whole sweep.
 */
import { schedule } from "../scheduler/engine";
import { hostAvailabilityZone } from "../scheduler/moves/conductor-tasks";
import { diagnose } from "../scheduler/result";
import { freezeScenario, type Scenario, type ScenarioFlavor, type ScenarioHost } from "../scheduler/scenario";
import type { Cloud } from "./drain";
import { giveBackInstance, type PciAliasRef, type Placed, pciAliases, takeInstance } from "../cloud/usage";

export interface StrandedInstance {
  instance: string;
  error: string;
  reason: string;
  /** The stage that emptied the funnel (null when Nova refused before filtering). */
  last_filter: string | null;
}

export interface HostLoss {
  host: string;
  availability_zone: string;
  instances: number;
  evacuated: number;
  stranded: StrandedInstance[];
}

export interface LossSweep {
  losses: HostLoss[];
  /** Per availability zone: the host whose loss strands the most instances. */
  worst_by_zone: Record<string, { host: string; stranded: number; hosts: number }>;
}

/**
 * A host's usage after an instance of flavor `f` left (sign -1) or arrived
 * (+1, with what the scheduler placed): a new host object (the frozen one
 * is shared), edited by the rule every commit follows (lib/cloud/usage.ts).
 */
function withInstance(
  h: ScenarioHost,
  uuid: string,
  f: ScenarioFlavor,
  sign: 1 | -1,
  aliases: PciAliasRef[],
  placed?: Placed,
): ScenarioHost {
  const { free_ram_mb: _r, free_disk_gb: _d, ...rest } = h;
  const out: ScenarioHost = {
    ...rest,
    instances: sign > 0 ? [...(h.instances ?? []), uuid] : (h.instances ?? []).filter((u) => u !== uuid),
  };
  // only what the edit may change is copied
  if (h.numa_topology) out.numa_topology = structuredClone(h.numa_topology);
  if (h.pci_device_pools) out.pci_device_pools = structuredClone(h.pci_device_pools);
  if (h.inventories) out.inventories = structuredClone(h.inventories);
  if (h.child_providers) out.child_providers = structuredClone(h.child_providers);
  if (sign > 0) takeInstance(out, f, placed, aliases);
  else giveBackInstance(out, f, aliases);
  return out;
}

/** Evacuate every instance of `hostName` from `cloud` (frozen: not changed). */
export function loseHost(cloud: Cloud, hostName: string, lookup = instanceLookup(cloud)): HostLoss {
  return loseHosts(cloud, [hostName], lookup)[0];
}

/**
 * Lose `hostNames` together: every one's service down first, then each
 * one's instances evacuated in turn (host order, instance order), each
 * move committed before the next. `cloud` (frozen) is not changed.
 */
export function loseHosts(cloud: Cloud, hostNames: string[], lookup = instanceLookup(cloud)): HostLoss[] {
  const { flavors: _f, images: _i, instances: _n, request: _r, ...base } = cloud;
  const aliases = pciAliases(cloud.config);
  let hosts = cloud.hosts.slice();
  const lost = hostNames.map((name) => {
    const at = hosts.findIndex((h) => h.name === name);
    if (at < 0) throw new Error(`no host "${name}" in the cloud`);
    hosts[at] = { ...hosts[at], service: { ...(hosts[at].service ?? {}), up: false } };
    return at;
  });
  return lost.map((at) => {
    const hostName = hosts[at].name;
    const loss: HostLoss = {
      host: hostName,
      availability_zone: hostAvailabilityZone(cloud, hostName),
      instances: (hosts[at].instances ?? []).length,
      evacuated: 0,
      stranded: [],
    };
    for (const uuid of [...(hosts[at].instances ?? [])]) {
      const inst = lookup.get(uuid);
      if (!inst) {
        loss.stranded.push({
          instance: uuid,
          error: "UnknownInstance",
          reason: "not in the cloud's instances",
          last_filter: null,
        });
        continue;
      }
      const request = {
        operation: "evacuate",
        instance: {
          uuid,
          host: hostName,
          node: hosts[at].node ?? hostName,
          flavor: inst.flavor,
          ...(inst.image ? { image: inst.image } : {}),
        },
        ...(inst.projectId ? { project_id: inst.projectId } : {}),
      } as unknown as Scenario["request"];
      // The run itself, not its result document: materialising every weighed host costs more than scheduling.
      const r = schedule({ ...base, hosts, request } as Scenario);
      if (r.error || !r.selections.length) {
        const d = diagnose(r);
        loss.stranded.push({
          instance: uuid,
          error: r.error?.name ?? "",
          reason: d?.summary ?? r.error?.message ?? "",
          last_filter: d?.lastFilter ?? null,
        });
        continue;
      }
      const chosen = r.selections[0];
      // by host and node: an Ironic service host has one entry per node
      const dest = hosts.findIndex((h) => h.name === chosen.host.host && (h.node ?? h.name) === chosen.host.nodename);
      hosts = hosts.slice();
      hosts[at] = withInstance(hosts[at], uuid, inst.flavor, -1, aliases);
      hosts[dest] = withInstance(hosts[dest], uuid, inst.flavor, 1, aliases, chosen.placement);
      loss.evacuated++;
    }
    return loss;
  });
}

/**
 * "This cloud survives the loss of any k hosts in zone Z": the largest k
 * (up to `maxK`) such that losing any k of the zone's hosts together
 * strands no instance, with the first set that strands one (k + 1 hosts).
 * Every combination is tried: meant for zones of tens of hosts.
 */
export function survivableLosses(
  input: Cloud,
  zone: string,
  maxK = 2,
): { zone: string; survives: number; hosts: number; first_failure: { hosts: string[]; stranded: number } | null } {
  const cloud = freezeScenario(structuredClone(input));
  const lookup = instanceLookup(cloud);
  const names = [...new Set(cloud.hosts.map((h) => h.name))].filter((h) => hostAvailabilityZone(cloud, h) === zone);
  for (let k = 1; k <= Math.min(maxK, names.length); k++) {
    for (const set of combinations(names, k)) {
      const stranded = loseHosts(cloud, set, lookup).reduce((a, l) => a + l.stranded.length, 0);
      if (stranded) return { zone, survives: k - 1, hosts: names.length, first_failure: { hosts: set, stranded } };
    }
  }
  return { zone, survives: Math.min(maxK, names.length), hosts: names.length, first_failure: null };
}

function* combinations<T>(xs: T[], k: number, from = 0): Generator<T[]> {
  if (k === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= xs.length - k; i++) for (const rest of combinations(xs, k - 1, i + 1)) yield [xs[i], ...rest];
}

interface InstanceFacts {
  flavor: ScenarioFlavor;
  image: unknown;
  projectId: string | null;
}

/** Each instance's flavor, image and project, looked up once for a whole sweep. */
export function instanceLookup(cloud: Cloud): Map<string, InstanceFacts> {
  const flavors = new Map((cloud.flavors ?? []).map((f) => [f.name, f]));
  const images = new Map<string, unknown>();
  for (const im of cloud.images ?? []) {
    if (im.name) images.set(im.name, im);
    if (im.id) images.set(im.id, im);
  }
  const out = new Map<string, InstanceFacts>();
  for (const i of cloud.instances ?? []) {
    const flavor = i.flavor ? flavors.get(i.flavor) : undefined;
    if (!flavor) continue;
    out.set(i.uuid, { flavor, image: i.image ? (images.get(i.image) ?? null) : null, projectId: i.project_id ?? null });
  }
  return out;
}

/** Lose each of `hostNames` (default: every host) on its own. */
export function sweepHostLosses(input: Cloud, hostNames?: string[]): LossSweep {
  const cloud = freezeScenario(structuredClone(input));
  const lookup = instanceLookup(cloud);
  const names = hostNames ?? [...new Set(cloud.hosts.map((h) => h.name))];
  const losses = names.map((h) => loseHost(cloud, h, lookup));
  const worst: LossSweep["worst_by_zone"] = {};
  for (const l of losses) {
    const w = worst[l.availability_zone];
    if (!w) worst[l.availability_zone] = { host: l.host, stranded: l.stranded.length, hosts: 1 };
    else {
      w.hosts++;
      if (l.stranded.length > w.stranded) Object.assign(w, { host: l.host, stranded: l.stranded.length });
    }
  }
  return { losses, worst_by_zone: worst };
}
