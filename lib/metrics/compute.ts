/**
 * What /metrics reports about one cloud snapshot, computed once per
 * revision (lib/metrics/cache.ts) and rendered by exposition.ts.
 *
 * Free slots per flavor are the exact fill (lib/scheduler/fill.ts) of that
 * flavor alone — the same call `npm run -s capacity` makes for a scenario
 * whose request is the flavor and nothing else (no group, no hints, no
 * image): every filter, NUMA, PCI, server groups' members, Placement's
 * max_unit. os-capacity counts the same series from Placement's allocation
 * candidates alone ((capacity − used) / request per class, the minimum).
 * The per-hypervisor series are the fill's boots per host, so they sum to
 * the total.
 */
import { resolveConfig } from "@/lib/scheduler/config";
import { CapacityFill, type FillResult } from "@/lib/scheduler/fill";
import { capacity, hostInventories } from "@/lib/scheduler/placement/providers";
import type { Scenario, ScenarioFlavor, ScenarioHost } from "@/lib/scheduler/scenario";
import { MAX_FILL_LIMIT } from "@/lib/scheduler/fill-limits";
import { instanceLookup, loseHost } from "@/lib/maintenance/lose-hosts";
import { freezeScenario } from "@/lib/scheduler/scenario";
import type { Cloud } from "@/lib/maintenance/drain";

export type MetricsFlavor = ScenarioFlavor & { is_public?: boolean };
export type MetricsCloud = Omit<Cloud, "flavors"> & { flavors?: MetricsFlavor[] };

export interface FlavorSlots {
  flavor: string;
  /** os-capacity's label: Python's str(flavor.is_public), "True" or "False". */
  public: "True" | "False";
  count: number;
  /** The fill stopped at its limit (MAX_FILL_LIMIT), as the CLI's default does: a floor, not the count. */
  limitReached: boolean;
  /** Boots per host (hosts that took none are left out, as os-capacity leaves out zeros). */
  perHost: Map<string, number>;
  /** Why the first boot that did not fit failed (NoValidHost, or Nova's error). */
  stoppedBy: string | null;
  fillMs: number;
}

export interface HypervisorFacts {
  /** The compute node (Placement's provider name): the node's name, else the host's. */
  hypervisor: string;
  /** The service host the fill counts boots on (several nodes may share one). */
  host: string;
  /** os-capacity's az_aggregate: the AZ an aggregate gives the host, "" when none does. */
  azAggregate: string;
  /** Nova's host AZ (the default zone when no aggregate names one): what our own series use. */
  az: string;
  /** os-capacity's project_aggregate: the one aggregate with filter_tenant_id*, "multiple", or "". */
  projectAggregate: string;
  /** Enabled and up: the hosts ComputeFilter lets through. */
  usable: boolean;
  /** Placement usage per resource class. */
  allocated: Record<string, number>;
  /** Placement capacity per resource class: (total − reserved) × allocation_ratio. */
  allocatable: Record<string, number>;
}

export interface ZoneLoss {
  az: string;
  hosts: number;
  /** Hosts whose loss was tried (all of them, unless the sweep ran out of time). */
  checked: number;
  /** true when losing any one host strands no instance; false when some loss strands one; null: not known yet. */
  survives: boolean | null;
  worstHost: string | null;
  worstStranded: number;
}

export interface CapacityMetrics {
  flavors: FlavorSlots[];
  hypervisors: HypervisorFacts[];
  /** Free capacity (Placement's rule) on usable hosts where not one instance of any flavor fits. */
  stranded: Record<string, number>;
  /** null until the host-loss sweep has run (it is slower; see cache.ts). */
  hostLoss: ZoneLoss[] | null;
  computeMs: number;
}

const STANDARD = ["VCPU", "MEMORY_MB", "DISK_GB"];

/**
 * The same scenario without weighers, when that cannot change the fill's
 * count or its boots per host; null when it could.
 *
 * A flavor alone (no group, no hints) fills hosts independently: a boot
 * changes only the chosen host, and every filter judges a host from its own
 * state and the request (ServerGroupAffinityFilter, the one that reads other
 * hosts, passes a request with no group). So each host takes boots until
 * its own first refusal, whichever order the weighers pick hosts in, and the
 * fill ends when every host refuses: the same count and the same boots per
 * host. Weighing is most of a boot's cost at 10,000 hosts. Not on the
 * Placement path (sharing providers tie hosts together), not when the
 * MetricsWeigher may raise (metrics_required with a metric missing stops a
 * fill early), and not when the limit cuts the fill short (then the order
 * decides which hosts got boots; the count is the same).
 */
export function weigherFree(scenario: Scenario): Scenario | null {
  const c = resolveConfig(scenario.config ?? {});
  if (c.placement) return null;
  if (c.metricsRequired && c.weighers.includes("MetricsWeigher")) return null;
  const { request } = scenario;
  if (request.server_group || request.scheduler_hints) return null;
  return { ...scenario, config: { ...scenario.config, weighers: [] } };
}

function flavorScenario(cloud: MetricsCloud, flavor: MetricsFlavor): Scenario {
  const { is_public: _p, ...f } = flavor;
  const { flavors: _f, images: _i, instances: _n, request: _r, ...base } = cloud;
  const scenario: Scenario = { ...base, request: { flavor: f, num_instances: 1 } };
  return weigherFree(scenario) ?? scenario;
}

function slotsOf(flavor: MetricsFlavor, r: FillResult, limit: number, t0: number): FlavorSlots {
  return {
    flavor: flavor.name,
    public: flavor.is_public === false ? "False" : "True",
    count: r.count,
    limitReached: r.count >= limit,
    perHost: r.perHost,
    stoppedBy: r.stoppedBy?.error?.name ?? (r.stoppedBy ? "NoValidHost" : null),
    fillMs: performance.now() - t0,
  };
}

/** The exact fill of one flavor alone on the cloud. */
export function flavorSlots(cloud: MetricsCloud, flavor: MetricsFlavor, limit = MAX_FILL_LIMIT): FlavorSlots {
  const t0 = performance.now();
  const f = new CapacityFill(flavorScenario(cloud, flavor), { limit });
  f.step(Number.POSITIVE_INFINITY);
  return slotsOf(flavor, f.result(), limit, t0);
}

/** flavorSlots in slices, yielding between them so a server keeps answering (scrapes, pages) meanwhile. */
export async function flavorSlotsSliced(
  cloud: MetricsCloud,
  flavor: MetricsFlavor,
  limit: number,
  pause: () => Promise<void>,
  sliceMs = 10,
): Promise<FlavorSlots> {
  const t0 = performance.now();
  const f = new CapacityFill(flavorScenario(cloud, flavor), { limit });
  // slices of about sliceMs: a boot costs microseconds without Placement and a whole trial with it
  let boots = 1;
  for (;;) {
    const s = performance.now();
    if (f.step(boots)) break;
    const took = performance.now() - s;
    if (took < sliceMs / 2) boots = Math.min(boots * 2, 1 << 20);
    else if (took > sliceMs * 2) boots = Math.max(1, boots >> 1);
    await pause();
  }
  return slotsOf(flavor, f.result(), limit, t0);
}

function aggregatesByHost(
  cloud: MetricsCloud,
): Map<string, Array<{ name: string; az: string | null; tenant: boolean }>> {
  const out = new Map<string, Array<{ name: string; az: string | null; tenant: boolean }>>();
  for (const a of cloud.aggregates ?? []) {
    const md = a.metadata ?? {};
    const az = a.availability_zone ?? (md.availability_zone === undefined ? null : String(md.availability_zone));
    const tenant = Object.keys(md).some((k) => k.startsWith("filter_tenant_id"));
    for (const h of a.hosts ?? []) {
      let list = out.get(h);
      if (!list) out.set(h, (list = []));
      list.push({ name: a.name, az, tenant });
    }
  }
  return out;
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** Placement's view of each host, and its labels as os-capacity sets them. */
export function hypervisorFacts(cloud: MetricsCloud): HypervisorFacts[] {
  const byHost = aggregatesByHost(cloud);
  const defaultAz = cloud.config?.default_availability_zone ?? "nova";
  return cloud.hosts.map((h: ScenarioHost) => {
    const aggs = byHost.get(h.name) ?? [];
    const zones = [...new Set(aggs.map((a) => a.az).filter((z): z is string => !!z))].sort();
    const tenants = aggs.filter((a) => a.tenant);
    const { inv, used } = hostInventories(h);
    const allocated: Record<string, number> = {};
    const allocatable: Record<string, number> = {};
    for (const [rc, i] of inv) {
      allocatable[rc] = round(capacity(i));
      allocated[rc] = used.get(rc) ?? 0;
    }
    return {
      hypervisor: h.node ?? h.name,
      host: h.name,
      azAggregate: zones.join(","),
      az: zones.length ? zones.join(",") : String(defaultAz),
      projectAggregate: tenants.length > 1 ? "multiple" : (tenants[0]?.name ?? ""),
      usable: !(h.service?.disabled ?? false) && (h.service?.up ?? true) && !(h.service?.forced_down ?? false),
      allocated,
      allocatable,
    };
  });
}

/**
 * Free capacity no flavor can use: on usable hosts where the exact fill of
 * every flavor placed nothing, what Placement still has free per class.
 */
export function strandedCapacity(hypervisors: HypervisorFacts[], flavors: FlavorSlots[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(STANDARD.map((rc) => [rc, 0]));
  for (const h of hypervisors) {
    if (!h.usable) continue;
    if (flavors.some((f) => (f.perHost.get(h.host) ?? 0) > 0)) continue;
    for (const [rc, cap] of Object.entries(h.allocatable))
      out[rc] = round((out[rc] ?? 0) + Math.max(0, cap - (h.allocated[rc] ?? 0)));
  }
  return out;
}

/**
 * Per AZ: does losing any one host strand an instance? Each host is lost on
 * its own and its instances evacuated by the scheduler, one by one
 * (lib/maintenance/lose-hosts.ts). At 10,000 hosts with instances on each
 * that is minutes of scheduling, so it runs in slices (`pause`) within
 * `budgetMs`: an AZ is answered once every host of it was lost (survives),
 * or as soon as one loss strands an instance (does not); otherwise it is
 * reported unknown, with how many of its hosts were checked.
 */
export async function hostLossByZone(
  cloud: MetricsCloud,
  hypervisors: HypervisorFacts[],
  opts: { budgetMs?: number; pause?: () => Promise<void> } = {},
): Promise<ZoneLoss[]> {
  const t0 = performance.now();
  const frozen = freezeScenario(structuredClone(cloud)) as Cloud;
  const lookup = instanceLookup(frozen);
  const azOf = new Map(hypervisors.map((h) => [h.host, h.az]));
  const zones = new Map<string, ZoneLoss>();
  for (const host of new Set(cloud.hosts.map((h) => h.name))) {
    const az = azOf.get(host) ?? "";
    const z = zones.get(az) ?? { az, hosts: 0, checked: 0, survives: null, worstHost: null, worstStranded: 0 };
    z.hosts++;
    zones.set(az, z);
  }
  let slice = performance.now();
  for (const host of new Set(cloud.hosts.map((h) => h.name))) {
    const z = zones.get(azOf.get(host) ?? "")!;
    if (opts.budgetMs !== undefined && performance.now() - t0 > opts.budgetMs) break;
    const loss = loseHost(frozen, host, lookup);
    z.checked++;
    if (loss.stranded.length > z.worstStranded) {
      z.worstStranded = loss.stranded.length;
      z.worstHost = host;
      z.survives = false;
    }
    if (opts.pause && performance.now() - slice > 10) {
      await opts.pause();
      slice = performance.now();
    }
  }
  for (const z of zones.values()) if (z.survives === null && z.checked === z.hosts) z.survives = true;
  return [...zones.values()].sort((a, b) => (a.az < b.az ? -1 : 1));
}

/** Everything but the host-loss sweep; `onFlavor` sees each flavor as it is done (progressive publishing). */
export async function computeCapacityMetrics(
  cloud: MetricsCloud,
  opts: { limit?: number; onFlavor?: (done: FlavorSlots[]) => void; yieldEvery?: () => Promise<void> } = {},
): Promise<CapacityMetrics> {
  const t0 = performance.now();
  const hypervisors = hypervisorFacts(cloud);
  const flavors: FlavorSlots[] = [];
  for (const f of [...(cloud.flavors ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    // in slices when the caller lets the server answer requests meanwhile
    flavors.push(
      opts.yieldEvery
        ? await flavorSlotsSliced(cloud, f, opts.limit ?? MAX_FILL_LIMIT, opts.yieldEvery)
        : flavorSlots(cloud, f, opts.limit),
    );
    opts.onFlavor?.(flavors.slice());
  }
  return {
    flavors,
    hypervisors,
    stranded: strandedCapacity(hypervisors, flavors),
    hostLoss: null,
    computeMs: performance.now() - t0,
  };
}
