/**
 * HostState as Nova's HostManager builds it from a compute node, its service
 * and its aggregates (nova/scheduler/host_manager.py), including the
 * coercions Nova applies on the way (int() of sizes, metrics ×100 for the
 * percent kinds, canonical supported_instances, a parsed host IP).
 */
import { formatIp, isValidIp, parseIp, type ParsedIp } from "./ip";
import {
  METRICS_STORED_PERCENT,
  MONITOR_METRIC_TYPES,
  canonicalizeArch,
  canonicalizeHvType,
  canonicalizeVmMode,
} from "./nova-fields";
import {
  NovaError,
  pyFloat,
  pyFloatOfJson,
  pyIntOfJson,
  pyIter,
  pyJsonDumps,
  pyStrAt,
  pyStrip,
  pyTruthy,
  pyValueAt,
  type PyValue,
} from "./python";
import type { NUMALimits } from "./numa/fit";
import { buildNumaCells, buildPciStats } from "./numa/host-topology";
import type { NUMACell } from "./numa/objects";
import { PciDeviceStats } from "./pci/stats";
import type { Scenario, ScenarioAggregate, ScenarioHost } from "./scenario";

export interface Aggregate {
  name: string;
  /** id and hosts as the scenario gives them (they show in str(aggregate)). */
  id: number;
  hosts: string[];
  /** str(k): str(v), availability_zone folded in as Nova does. */
  metadata: Map<string, string>;
}

/**
 * What a host's aggregates say, computed once per distinct set of
 * aggregates (hosts share them), not once per host and filter.
 */
export class AggregateView {
  /** aggregate_metadata_get_by_host: key -> values split on ',' and stripped. */
  readonly split = new Map<string, Set<string>>();
  /** aggregate_values_from_key: key -> raw values. */
  readonly raw = new Map<string, Set<string>>();
  private readonly multipliers = new Map<string, { configured: number; result: { value: number; source: string } }>();

  /**
   * @param id small integer, unique per request: lets the engine keep
   *   per-view results (multipliers) in arrays instead of maps.
   */
  constructor(
    readonly aggregates: Aggregate[],
    readonly id = 0,
  ) {
    for (const agg of aggregates) {
      for (const [k, v] of agg.metadata) {
        let s = this.split.get(k);
        if (!s) this.split.set(k, (s = new Set()));
        for (const part of v.split(",")) s.add(pyStrip(part));
        let r = this.raw.get(k);
        if (!r) this.raw.set(k, (r = new Set()));
        r.add(v);
      }
    }
  }

  /**
   * nova.scheduler.utils.get_weight_multiplier: the minimum of the float
   * values aggregates set for `key`, or the configured value when none is set
   * or any fails to parse. `source` says which won, for the weight charts.
   */
  weightMultiplier(key: string, configured: number): { value: number; source: string } {
    const hit = this.multipliers.get(key);
    if (hit && hit.configured === configured) return hit.result;
    let result = { value: configured, source: "config" };
    const vals = this.raw.get(key);
    if (vals?.size) {
      try {
        let best = Infinity;
        let bestVal = "";
        for (const v of vals) {
          const f = pyFloat(v);
          if (f < best || best === Infinity) {
            best = f;
            bestVal = v;
          }
        }
        const names = this.aggregates.filter((a) => a.metadata.get(key) === bestVal).map((a) => a.name);
        result = { value: best, source: `aggregate ${names.join(", ")}` };
      } catch {
        result = { value: configured, source: "config (aggregate value unparsable)" };
      }
    }
    this.multipliers.set(key, { configured, result });
    return result;
  }

  /** validate_num_values(values, default, cast_to=int): min, or default on error. */
  intOverride(key: string, configured: number): number {
    const vals = this.raw.get(key);
    if (!vals?.size) return configured;
    let best = Infinity;
    for (const v of vals) {
      const t = pyStrip(v);
      if (!/^[+-]?\d(?:_?\d)*$/.test(t)) return configured;
      best = Math.min(best, Number(t.replace(/_/g, "")));
    }
    return best;
  }
}

export interface HostService {
  disabled: boolean;
  disabled_reason: string | null;
  up: boolean;
  forced_down: boolean;
}

export class HostState {
  // Position in the scenario's host list: the order hosts enter the filters.
  index = 0;
  host = "";
  nodename = "";
  cell = "";
  uuid = "";
  totalUsableRamMb = 0;
  totalUsableDiskGb = 0;
  diskMbUsed = 0;
  freeRamMb = 0;
  freeDiskMb = 0;
  vcpusTotal = 0;
  vcpusUsed = 0;
  numInstances = 0;
  numIoOps = 0;
  failedBuilds = 0;
  hostIp = "";
  hypervisorType = "";
  hypervisorVersion = 0;
  /**
   * cpu_info as Nova keeps it: JSON text (json.dumps of the scenario's
   * object), which filters parse back. The text is made only when asked for;
   * parsing it back gives the scenario's object, so that is kept as is.
   */
  cpuInfoSource: PyValue = {};
  private cpuInfoText: string | undefined;
  get cpuInfo(): string {
    if (this.cpuInfoText === undefined) this.cpuInfoText = pyJsonDumps(this.cpuInfoSource);
    return this.cpuInfoText;
  }
  cpuInfoObject(): PyValue {
    return this.cpuInfoSource as PyValue;
  }
  private ipParsed: ParsedIp | null = null;
  get parsedIp(): ParsedIp {
    if (this.ipParsed === null) this.ipParsed = parseIp(this.hostIp);
    return this.ipParsed;
  }
  supportedInstances: Array<[string | null, string | null, string | null]> = [];
  cpuAllocationRatio = 4.0;
  ramAllocationRatio = 1.0;
  diskAllocationRatio = 1.0;
  service: HostService = { disabled: false, disabled_reason: null, up: true, forced_down: false };
  /** name -> value as Nova stores it (an int). */
  metrics = new Map<string, number>();
  /** How many metrics the host reported (duplicates included). */
  metricsReported = 0;
  instances = new Set<string>();
  stats: Record<string, string> = {};
  aggregates!: AggregateView;
  // Placement inventory (our extension).
  traits: ReadonlySet<string> = new Set<string>();
  reservedVcpus = 0;
  reservedMemoryMb = 0;
  reservedDiskGb = 0;
  memoryMb = 0;
  localGb = 0;
  /** When the host consumed an instance (Nova's `updated`), from the caller's clock. */
  updated: Date | null = null;
  /** NUMA cells with their usage (Nova's numa_topology); null without one. */
  numaCells: NUMACell[] | null = null;
  /** Free PCI devices by pool (Nova's pci_stats; always present, maybe empty). */
  pciStats: PciDeviceStats = EMPTY_PCI_STATS;
  /** limits["numa_topology"]: set once NUMATopologyFilter passed the host. */
  numaLimits: NUMALimits | null = null;
}

const EMPTY_PCI_STATS = new PciDeviceStats([], null);

/** netaddr.IPAddress(value) takes an integer too (1 is 0.0.0.1). */
function hostIpText(v: unknown): string {
  if (typeof v === "boolean") v = v ? 1 : 0;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) {
    const n = BigInt(v);
    if (n <= 0xffffffffn) return formatIp({ version: 4, value: n });
    if (n < 1n << 128n) return formatIp({ version: 6, value: n });
  }
  return typeof v === "string" ? v : String(v);
}

const int = pyIntOfJson;
const float = pyFloatOfJson;

export function buildAggregates(aggs: ScenarioAggregate[] = []): Aggregate[] {
  return aggs.map((a, i) => {
    const metadata = new Map<string, string>();
    const md = a.metadata ?? {};
    for (const k of Object.keys(md)) metadata.set(k, pyStrAt(md, k));
    const az = a.availability_zone as unknown;
    if (pyTruthy(az as PyValue)) {
      // DictOfStringsField: numbers and booleans become str(), anything else is refused
      if (typeof az !== "string" && typeof az !== "number" && typeof az !== "boolean") {
        throw new NovaError("ValueError", `aggregates[${i}].availability_zone: a string is required`);
      }
      metadata.set("availability_zone", pyStrAt(a, "availability_zone"));
    }
    return { name: a.name, id: a.id ?? i + 1, hosts: a.hosts ?? [], metadata };
  });
}

/** Build every HostState of a scenario, sharing AggregateViews between hosts. */
export function buildHostStates(scenario: Scenario): HostState[] {
  const aggs = buildAggregates(scenario.aggregates);
  const byHost = new Map<string, number[]>();
  (scenario.aggregates ?? []).forEach((a, i) => {
    for (const h of a.hosts === undefined ? [] : (pyIter(a.hosts, `aggregates[${i}].hosts`) as string[])) {
      let l = byHost.get(h);
      if (!l) byHost.set(h, (l = []));
      l.push(i);
    }
  });
  const views = new Map<string, AggregateView>();
  return scenario.hosts.map((h, index) => {
    const idx = byHost.get(h.name) ?? [];
    const sig = idx.join(",");
    let view = views.get(sig);
    if (!view)
      views.set(
        sig,
        (view = new AggregateView(
          idx.map((i) => aggs[i]),
          views.size,
        )),
      );
    return buildHostState(h, index, view);
  });
}

const HV_SPECS = new Map<string, [string | null, string | null, string | null]>();
const NO_TRAITS: ReadonlySet<string> = new Set<string>();

export function buildHostState(h: ScenarioHost, index: number, view: AggregateView): HostState {
  const s = new HostState();
  const f = `hosts[${index}]`;
  s.index = index;
  s.host = h.name;
  s.nodename = h.node ?? h.name;
  s.cell = h.cell ?? "cell1";
  s.uuid = h.uuid ?? "";
  const memoryMb = int(h.memory_mb, `${f}.memory_mb`);
  const memoryMbUsed = int(h.memory_mb_used ?? 0, `${f}.memory_mb_used`);
  const localGb = int(h.local_gb, `${f}.local_gb`);
  const localGbUsed = int(h.local_gb_used ?? 0, `${f}.local_gb_used`);
  let freeGb = int(h.free_disk_gb ?? localGb - localGbUsed, `${f}.free_disk_gb`);
  if (h.disk_available_least !== undefined && h.disk_available_least !== null) {
    freeGb = Math.min(int(h.disk_available_least, `${f}.disk_available_least`), freeGb);
  }
  s.memoryMb = memoryMb;
  s.localGb = localGb;
  s.freeDiskMb = freeGb * 1024;
  s.diskMbUsed = localGbUsed * 1024;
  s.freeRamMb = int(h.free_ram_mb ?? memoryMb - memoryMbUsed, `${f}.free_ram_mb`);
  s.totalUsableRamMb = memoryMb;
  s.totalUsableDiskGb = localGb;
  s.vcpusTotal = int(h.vcpus, `${f}.vcpus`);
  s.vcpusUsed = int(h.vcpus_used ?? 0, `${f}.vcpus_used`);
  s.hostIp = hostIpText(h.host_ip ?? "10.0.0.1");
  if (!isValidIp(s.hostIp)) {
    throw new NovaError("ValueError", `${f}.host_ip: failed to detect a valid IP address from '${s.hostIp}'`);
  }
  s.hypervisorType = h.hypervisor_type ?? "QEMU";
  s.hypervisorVersion = int(h.hypervisor_version ?? 6002000, `${f}.hypervisor_version`);
  s.cpuInfoSource = h.cpu_info ? pyValueAt(h, "cpu_info") : {};
  s.supportedInstances = (
    h.supported_instances === undefined
      ? []
      : (pyIter(h.supported_instances, `${f}.supported_instances`) as typeof h.supported_instances & object)
  ).map((spec, j) => {
    // HVSpec.from_list(list(spec)): spec[0..2], each canonicalised with .lower()
    const items = pyIter(spec, `${f}.supported_instances[${j}]`);
    if (items.length < 3) {
      throw new NovaError("IndexError", `${f}.supported_instances[${j}]: needs [arch, hv_type, vm_mode]`);
    }
    for (const x of items.slice(0, 3)) {
      if (typeof x !== "string" && x !== null)
        throw new NovaError(
          "AttributeError",
          `${f}.supported_instances[${j}]: ${JSON.stringify(x)} has no attribute 'lower'`,
        );
    }
    spec = items as typeof spec;
    // Hosts share a handful of combinations: canonicalise each once.
    const key = `${spec[0]}\0${spec[1]}\0${spec[2]}`;
    let hv = HV_SPECS.get(key);
    if (!hv)
      HV_SPECS.set(key, (hv = [canonicalizeArch(spec[0]), canonicalizeHvType(spec[1]), canonicalizeVmMode(spec[2])]));
    return hv;
  });
  // str() of the scenario's numbers: "3.0" would make Nova's int() fail.
  s.stats = {
    num_instances: h.num_instances === undefined ? "0" : pyStrAt(h, "num_instances"),
    io_workload: h.num_io_ops === undefined ? "0" : pyStrAt(h, "num_io_ops"),
    failed_builds: h.failed_builds === undefined ? "0" : pyStrAt(h, "failed_builds"),
  };
  s.numInstances = int(s.stats.num_instances, `${f}.num_instances`);
  s.numIoOps = int(s.stats.io_workload, `${f}.num_io_ops`);
  s.failedBuilds = int(s.stats.failed_builds, `${f}.failed_builds`);
  const metrics = (h.metrics === undefined ? [] : pyIter(h.metrics, `${f}.metrics`)) as typeof h.metrics & object;
  s.metricsReported = metrics.length;
  for (const m of metrics) {
    if (m === null || typeof m !== "object")
      throw new NovaError("TypeError", `${f}.metrics: a metric must be an object`);
    if (!MONITOR_METRIC_TYPES.has(m.name)) {
      throw new NovaError("ValueError", `${f}.metrics: '${m.name}' is not a valid metric name`);
    }
    const v = float(m.value, `${f}.metrics.${m.name}`);
    // MonitorMetricList.from_json: percent metrics are kept ×100, then int().
    s.metrics.set(m.name, Math.trunc(METRICS_STORED_PERCENT.has(m.name) ? v * 100 : v));
  }
  s.cpuAllocationRatio = float(h.cpu_allocation_ratio ?? 4.0, `${f}.cpu_allocation_ratio`);
  s.ramAllocationRatio = float(h.ram_allocation_ratio ?? 1.0, `${f}.ram_allocation_ratio`);
  s.diskAllocationRatio = float(h.disk_allocation_ratio ?? 1.0, `${f}.disk_allocation_ratio`);
  const svc = h.service ?? {};
  s.service = {
    // bool() of what the scenario gives: a null "up" is a down service.
    disabled: svc.disabled === undefined ? false : pyTruthy(svc.disabled as PyValue),
    disabled_reason: svc.disabled_reason ?? null,
    up: svc.up === undefined ? true : pyTruthy(svc.up as PyValue),
    forced_down: svc.forced_down === undefined ? false : pyTruthy(svc.forced_down as PyValue),
  };
  s.instances = new Set(h.instances === undefined ? [] : (pyIter(h.instances, `${f}.instances`) as string[]));
  s.aggregates = view;
  s.traits = h.traits?.length ? new Set(h.traits) : NO_TRAITS;
  s.reservedVcpus = h.reserved_vcpus ?? 0;
  s.reservedMemoryMb = h.reserved_memory_mb ?? 0;
  s.reservedDiskGb = h.reserved_disk_gb ?? 0;
  if (h.numa_topology) s.numaCells = buildNumaCells(h.numa_topology.cells ?? [], `${f}.numa_topology`);
  // Every host gets its own stats (consuming mutates them), empty ones shared.
  if (h.pci_device_pools?.length || s.numaCells)
    s.pciStats = buildPciStats(h.pci_device_pools ?? undefined, s.numaCells, `${f}.pci_device_pools`);
  return s;
}
