/**
 * Replay a period: the scheduling calls of a log, in the order they started,
 * scheduled again under another profile or Nova release on a copy of the
 * cloud, each placement kept before the next call (the instance's usage added
 * to its host, as the cloud looks once it runs). Beside each call: where Nova
 * really put it. At the end: free capacity per flavor and how fragmented the
 * cloud is under each answer.
 */
import { schedule } from "../scheduler/engine";
import { bootInScenario } from "../scheduler/fill";
import { toResult } from "../scheduler/result";
import type { Scenario, ScenarioConfig, ScenarioFlavor, ScenarioHost, ScenarioRequest } from "../scheduler/scenario";
import type { RequestFor } from "./explain";
import type { SchedulingCall } from "./types";

export interface PeriodStep {
  requestId: string;
  attempt: number;
  started: number;
  flavor: string | null;
  /** What Nova did: a host per instance, or the error. */
  real: { hosts: string[]; error: string | null };
  /** What the other profile would have done. */
  replayed: { hosts: string[]; error: string | null; summary: string | null } | null;
  /** The request could not be rebuilt (no flavor in the log or the cloud). */
  skipped?: string;
}

export interface FlavorCapacity {
  flavor: string;
  /** How many more instances of the flavor fit, host by host (resources only). */
  slots: number;
}

export interface PeriodOutcome {
  steps: PeriodStep[];
  placed: number;
  failed: number;
  /** Instances whose replayed host differs from Nova's. */
  moved: number;
  hostsUsed: number;
  capacity: FlavorCapacity[];
  /** Hosts left with some free RAM but too little for the smallest flavor (stranded). */
  stranded: number;
  freeVcpus: number;
  freeRamMb: number;
}

function free(h: ScenarioHost): { vcpus: number; ram: number; disk: number } {
  const vcpus = h.vcpus * (h.cpu_allocation_ratio ?? 4) - (h.vcpus_used ?? 0);
  const ram = h.memory_mb * (h.ram_allocation_ratio ?? 1) - (h.memory_mb_used ?? 0) - (h.reserved_memory_mb ?? 0);
  const disk = h.local_gb * (h.disk_allocation_ratio ?? 1) - (h.local_gb_used ?? 0);
  return { vcpus, ram, disk };
}

/** Free capacity per flavor on the enabled, up hosts. */
export function capacityOf(
  hosts: ScenarioHost[],
  flavors: ScenarioFlavor[],
): Pick<PeriodOutcome, "capacity" | "stranded" | "freeVcpus" | "freeRamMb"> {
  const up = hosts.filter((h) => !h.service?.disabled && h.service?.up !== false);
  const capacity = flavors.map((f) => ({
    flavor: f.name,
    slots: up.reduce((s, h) => {
      const x = free(h);
      const disk = (f.root_gb ?? 0) + (f.ephemeral_gb ?? 0);
      const n = Math.min(
        Math.floor(x.vcpus / Math.max(f.vcpus, 1)),
        Math.floor(x.ram / Math.max(f.memory_mb, 1)),
        disk > 0 ? Math.floor(x.disk / disk) : Number.POSITIVE_INFINITY,
      );
      return s + Math.max(0, n);
    }, 0),
  }));
  const smallest = flavors.length ? Math.min(...flavors.map((f) => f.memory_mb)) : 0;
  return {
    capacity,
    stranded: up.filter((h) => {
      const x = free(h);
      return x.ram > 0 && x.ram < smallest;
    }).length,
    freeVcpus: up.reduce((s, h) => s + Math.max(0, free(h).vcpus), 0),
    freeRamMb: up.reduce((s, h) => s + Math.max(0, free(h).ram), 0),
  };
}

export interface PeriodOptions {
  /** The cloud at the period's start. Copied; never changed. */
  cloud: Omit<Scenario, "request"> & { request?: ScenarioRequest };
  /** The profile's scheduler configuration to try (the cloud's own when absent). */
  config?: ScenarioConfig;
  requestFor: RequestFor;
  /** Flavors to report free capacity for (default: the flavors the calls used). */
  flavors?: ScenarioFlavor[];
}

export function replayPeriod(calls: SchedulingCall[], options: PeriodOptions): PeriodOutcome {
  const sc = structuredClone(options.cloud) as Scenario;
  const config = { not_simulated: "pass", ...(options.config ?? sc.config) } as ScenarioConfig;
  const steps: PeriodStep[] = [];
  const used = new Set<string>();
  const flavors = new Map<string, ScenarioFlavor>();
  let placed = 0;
  let failed = 0;
  let moved = 0;
  let n = 0;
  for (const call of calls) {
    const real = { hosts: call.selected.map((s) => s.host), error: call.error };
    const request = options.requestFor(call, options.cloud);
    if (!request) {
      steps.push({
        requestId: call.requestId,
        attempt: call.attempt,
        started: call.started,
        flavor: null,
        real,
        replayed: null,
        skipped: "the request could not be rebuilt",
      });
      continue;
    }
    flavors.set(request.flavor.name, request.flavor);
    const scenario: Scenario = { ...sc, config, request };
    const r = toResult(schedule(scenario));
    const hosts = r.selections.map((s) => s.host);
    for (const [i, name] of hosts.entries()) {
      const h = sc.hosts.find(
        (x) => x.name === name && (!r.selections[i].node || (x.node ?? x.name) === r.selections[i].node),
      );
      if (!h) continue;
      bootInScenario(scenario, h, request.flavor, call.instanceUuids[i] ?? `replayed-${++n}`);
      used.add(name);
      placed++;
      if (real.hosts[i] !== undefined && real.hosts[i] !== name) moved++;
    }
    if (r.error) failed += Math.max(1, (request.num_instances ?? 1) - hosts.length);
    steps.push({
      requestId: call.requestId,
      attempt: call.attempt,
      started: call.started,
      flavor: request.flavor.name,
      real,
      replayed: { hosts, error: r.error, summary: r.diagnosis?.summary ?? r.message ?? null },
    });
  }
  return {
    steps,
    placed,
    failed,
    moved,
    hostsUsed: used.size,
    ...capacityOf(sc.hosts, options.flavors ?? [...flavors.values()]),
  };
}
