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
import { buildImageProps, type ImageProps } from "./image-meta";
import { NumaFitFacts, type NUMALimits } from "./numa/fit";
import { buildNumaCells, buildPciStats } from "./numa/host-topology";
import type { NUMACell } from "./numa/objects";
import { stableUuid } from "./nova-uuid";
import type { NovaRelease } from "./releases";
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

const DEFAULT_SERVICE: HostService = Object.freeze({
  disabled: false,
  disabled_reason: null,
  up: true,
  forced_down: false,
});
const NO_SPECS: Array<[string | null, string | null, string | null]> = [];
const NO_METRIC_NAMES: readonly string[] = [];
const NO_METRIC_VALUES: ArrayLike<number> = [];
const NO_INSTANCES: readonly string[] = [];
const NO_STATS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_TRAITS: ReadonlySet<string> = new Set<string>();

export class HostState {
  /*
   * The fields the host loops read for every host come first: V8 lays an
   * object's fields out in the order they are declared, so these share a
   * few cache lines, and a loop over 10,000 hosts reads those lines only.
   */
  freeRamMb = 0;
  freeDiskMb = 0;
  vcpusTotal = 0;
  vcpusUsed = 0;
  numInstances = 0;
  numIoOps = 0;
  failedBuilds = 0;
  hypervisorVersion = 0;
  cpuAllocationRatio = 4.0;
  service: HostService = DEFAULT_SERVICE;
  aggregates!: AggregateView;
  supportedInstances: Array<[string | null, string | null, string | null]> = NO_SPECS;
  cpuInfoSource: PyValue = {};
  /**
   * The host's metrics as Nova stores them (ints), a name's value at its
   * name's position: hosts that report the same metrics share one list of
   * names, so a weigher reading every host's metric finds the names in cache.
   */
  metricNames: readonly string[] = NO_METRIC_NAMES;
  /**
   * The values: a name's at metricAt + its position in metricNames. A frozen
   * snapshot's hosts share one table, in host order, so a weigher reading
   * every host's metric reads one block of memory front to back.
   */
  metricTable: ArrayLike<number> = NO_METRIC_VALUES;
  metricAt = 0;
  cell = "";
  /** NUMA cells with their usage (Nova's numa_topology); null without one. */
  numaCells: NUMACell[] | null = null;
  private fitFacts: NumaFitFacts | null = null;
  /**
   * A frozen snapshot's hosts' fit summaries, in one table in host order
   * (the NUMA filter reads every host's): this host's starts at numaAt, and
   * stands for numaCells while they are `summarized` (consuming replaces them).
   */
  numaTable: ArrayLike<number> | null = null;
  numaAt = 0;
  summarized: NUMACell[] | null = null;
  /** Free PCI devices by pool (Nova's pci_stats; always present, maybe empty). */
  pciStats: PciDeviceStats = EMPTY_PCI_STATS;
  // Position in the scenario's host list: the order hosts enter the filters.
  index = 0;
  host = "";
  nodename = "";
  uuid = "";
  totalUsableRamMb = 0;
  totalUsableDiskGb = 0;
  diskMbUsed = 0;
  hostIp = "";
  hypervisorType = "";
  /**
   * cpu_info as Nova keeps it: JSON text (json.dumps of the scenario's
   * object), which filters parse back. The text is made only when asked for;
   * parsing it back gives the scenario's object, so that is kept as is.
   */
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
  // Defaults are shared constants: buildHostState replaces them, and a
  // fresh Map or Set per host and request only fed the garbage collector.
  ramAllocationRatio = 1.0;
  diskAllocationRatio = 1.0;
  /** The metric's value, undefined when the host does not report it. */
  metric(name: string): number | undefined {
    const names = this.metricNames;
    for (let i = 0; i < names.length; i++) if (names[i] === name) return this.metricTable[this.metricAt + i];
    return undefined;
  }
  /** How many metrics the host reported (duplicates included). */
  metricsReported = 0;
  /**
   * UUIDs of the instances on the host. Only server group filters and
   * weighers and the host hints look at them: the Set is built on first use.
   */
  get instances(): Set<string> {
    if (this.instanceSet === null) this.instanceSet = new Set(this.instanceList);
    return this.instanceSet;
  }
  set instances(uuids: Set<string>) {
    this.instanceSet = uuids;
  }
  instanceList: readonly string[] = NO_INSTANCES;
  private instanceSet: Set<string> | null = null;
  /** Image properties of the host's instances that have them (ImagePropertiesWeigher: instanceImageProps()). */
  instanceImages: readonly InstanceImage[] = NO_INSTANCE_IMAGES;
  stats: Record<string, string> = NO_STATS;
  // Placement inventory (our extension).
  traits: ReadonlySet<string> = NO_TRAITS;
  reservedVcpus = 0;
  reservedMemoryMb = 0;
  reservedDiskGb = 0;
  memoryMb = 0;
  localGb = 0;
  /** When the host consumed an instance (Nova's `updated`), from the caller's clock. */
  updated: Date | null = null;
  /** NumaFitFacts of numaCells, made when first asked and again once consuming replaced the cells. */
  numaFitFacts(cells: NUMACell[]): NumaFitFacts {
    if (this.fitFacts?.cells !== cells) this.fitFacts = new NumaFitFacts(cells);
    return this.fitFacts;
  }
  /**
   * limits["numa_topology"]: set once NUMATopologyFilter passed the host, for
   * the request in numaLimitsFor (a shared state keeps an earlier request's).
   */
  private numaLimits: NUMALimits | null = null;
  private numaLimitsFor: object | null = null;
  /** limits["numa_topology"] as the request `spec` left it (null: never set for it). */
  numaLimitsOf(spec: object): NUMALimits | null {
    return this.numaLimitsFor === spec ? this.numaLimits : null;
  }
  setNumaLimits(limits: NUMALimits, spec: object): void {
    this.numaLimits = limits;
    this.numaLimitsFor = spec;
  }

  /**
   * A frozen snapshot host's derived state, which requests read as it is
   * (snapshotHostStates with `shared`, fast/snapshot.ts): a request changes its own copy instead
   * (ownCopy), so nothing it does reaches the next request.
   */
  shared = false;

  /** This state, or for a shared one a copy for the request to change (the consume step). */
  ownCopy(): HostState {
    if (!this.shared) return this;
    const c = this.copyForRequest();
    c.aggregates = this.aggregates;
    c.numaLimits = this.numaLimits;
    c.numaLimitsFor = this.numaLimitsFor;
    return c;
  }

  /**
   * A copy for one request of a state built once (a frozen snapshot host's):
   * numbers are copied, objects a request never changes are shared, and
   * what a request does change starts over (the instance set, which a
   * server group's consume adds to, NUMA limits, `updated`). The caller
   * sets the request's aggregate view and its own PCI pools. Field by field,
   * not Object.assign: this runs for every host of every request.
   */
  copyForRequest(): HostState {
    const c = new HostState();
    c.index = this.index;
    c.host = this.host;
    c.nodename = this.nodename;
    c.cell = this.cell;
    c.uuid = this.uuid;
    c.totalUsableRamMb = this.totalUsableRamMb;
    c.totalUsableDiskGb = this.totalUsableDiskGb;
    c.diskMbUsed = this.diskMbUsed;
    c.freeRamMb = this.freeRamMb;
    c.freeDiskMb = this.freeDiskMb;
    c.vcpusTotal = this.vcpusTotal;
    c.vcpusUsed = this.vcpusUsed;
    c.numInstances = this.numInstances;
    c.numIoOps = this.numIoOps;
    c.failedBuilds = this.failedBuilds;
    c.hostIp = this.hostIp;
    c.hypervisorType = this.hypervisorType;
    c.hypervisorVersion = this.hypervisorVersion;
    c.cpuInfoSource = this.cpuInfoSource;
    c.cpuInfoText = this.cpuInfoText;
    c.ipParsed = this.ipParsed;
    c.supportedInstances = this.supportedInstances;
    c.cpuAllocationRatio = this.cpuAllocationRatio;
    c.ramAllocationRatio = this.ramAllocationRatio;
    c.diskAllocationRatio = this.diskAllocationRatio;
    c.service = this.service;
    c.metricNames = this.metricNames;
    c.metricTable = this.metricTable;
    c.metricAt = this.metricAt;
    c.metricsReported = this.metricsReported;
    c.instanceList = this.instanceList;
    c.instanceImages = this.instanceImages;
    c.stats = this.stats;
    c.traits = this.traits;
    c.reservedVcpus = this.reservedVcpus;
    c.reservedMemoryMb = this.reservedMemoryMb;
    c.reservedDiskGb = this.reservedDiskGb;
    c.memoryMb = this.memoryMb;
    c.localGb = this.localGb;
    c.numaCells = this.numaCells;
    c.fitFacts = this.fitFacts;
    c.numaTable = this.numaTable;
    c.numaAt = this.numaAt;
    c.summarized = this.summarized;
    c.pciStats = this.pciStats;
    return c;
  }
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

// int()/float() of a host's field; the field's name is only spelled out for an error.
const int = (v: unknown, index: number, key: string): number =>
  typeof v === "number" ? Math.trunc(v) : pyIntOfJson(v, `hosts[${index}].${key}`);
const float = (v: unknown, index: number, key: string): number =>
  typeof v === "number" ? v : pyFloatOfJson(v, `hosts[${index}].${key}`);
const iter = (v: unknown, index: number, key: string): unknown[] =>
  Array.isArray(v) ? v : pyIter(v, `hosts[${index}].${key}`);

const NO_IMAGE_PROPS: readonly ImageProps[] = [];
const NO_INSTANCE_IMAGES: readonly InstanceImage[] = [];

/** An instance's image properties as the scenario gives them, parsed per release when weighed. */
export interface InstanceImage {
  /** hosts[i].instance_image_properties.<uuid>: where an invalid value is reported. */
  field: string;
  properties: Record<string, unknown>;
}

/** hosts[i].instance_image_properties: each key one of the host's instances, each value image properties. */
function instanceImages(h: ScenarioHost, index: number, instances: readonly string[]): InstanceImage[] {
  const field = `hosts[${index}].instance_image_properties`;
  const given = h.instance_image_properties as unknown;
  if (given === null || typeof given !== "object" || Array.isArray(given))
    throw new NovaError("ValueError", `${field}: must be an object of instance UUID -> image properties`);
  const out: InstanceImage[] = [];
  for (const [uuid, props] of Object.entries(given as Record<string, unknown>)) {
    if (!instances.includes(uuid))
      throw new NovaError("ValueError", `${field}.${uuid}: not one of hosts[${index}].instances`);
    out.push({ field: `${field}.${uuid}`, properties: props as Record<string, unknown> });
  }
  return out;
}

const PARSED_IMAGES = new WeakMap<readonly InstanceImage[], Map<NovaRelease | undefined, ImageProps[]>>();

/**
 * The host's instances' image properties as the release's ImageMetaProps
 * types them (ImageMeta.from_instance in ImagePropertiesWeigher): parsed
 * once per host list and release; an invalid value raises, naming it.
 */
export function instanceImageProps(images: readonly InstanceImage[], release?: NovaRelease): readonly ImageProps[] {
  if (!images.length) return NO_IMAGE_PROPS;
  let byRelease = PARSED_IMAGES.get(images);
  if (!byRelease) PARSED_IMAGES.set(images, (byRelease = new Map()));
  let out = byRelease.get(release);
  if (!out) {
    out = images.map(({ field, properties }) => {
      try {
        return buildImageProps(properties, { release });
      } catch (e) {
        if (!(e instanceof NovaError)) throw e;
        throw new NovaError(e.name, `${field}: ${e.message.replace(/^image\.properties(: )?/, "")}`);
      }
    });
    byRelease.set(release, out);
  }
  return out;
}

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

/** host name -> the indexes of its aggregates, as a key ("0,3"); hosts in none are absent. */
export type AggregateKeys = Map<string, string>;

export function aggregateKeys(aggregates: Scenario["aggregates"]): AggregateKeys {
  const byHost = new Map<string, number[]>();
  (aggregates ?? []).forEach((a, i) => {
    for (const h of a.hosts === undefined ? [] : (pyIter(a.hosts, `aggregates[${i}].hosts`) as string[])) {
      let l = byHost.get(h);
      if (!l) byHost.set(h, (l = []));
      l.push(i);
    }
  });
  const keys: AggregateKeys = new Map();
  for (const [h, l] of byHost) keys.set(h, l.join(","));
  return keys;
}

/**
 * HostManager.get_all_host_states: every HostState of a scenario, read
 * afresh, hosts in the same aggregates sharing one AggregateView.
 * fast/snapshot.ts keeps a frozen scenario's from request to request.
 */
export function buildHostStates(scenario: Scenario): HostState[] {
  const byName = aggregateKeys(scenario.aggregates);
  const keys = scenario.hosts.map((h) => byName.get(h.name) ?? "");
  const aggs = buildAggregates(scenario.aggregates);
  return hostStatesOf(scenario.hosts, keys, aggs, new Map(), repeatedNames(scenario.hosts), buildHostState);
}

/**
 * The states of `hosts` (keys[i]: host i's aggregate key), each view made
 * when a host first needs it, and a compute node's uuid, unless given:
 * uuid5 of its name, or of its node when several nodes share the service
 * host (`repeated`; the reference's rule).
 */
export function hostStatesOf(
  hosts: ScenarioHost[],
  keys: string[],
  aggs: Aggregate[],
  views: Map<string, AggregateView>,
  repeated: ReadonlySet<string> | null,
  build: (h: ScenarioHost, index: number, view: AggregateView) => HostState,
): HostState[] {
  // Pushed: a packed array, the one kind of host list the engine's loops see (see inOrder).
  const out: HostState[] = [];
  for (let index = 0; index < hosts.length; index++) {
    const key = keys[index];
    let view = views.get(key);
    if (!view) {
      const members = key === "" ? [] : key.split(",").map((i) => aggs[Number(i)]);
      views.set(key, (view = new AggregateView(members, views.size)));
    }
    out.push(build(hosts[index], index, view));
  }
  if (repeated) for (const s of out) if (s.uuid === "" && repeated.has(s.host)) s.uuid = stableUuid(s.nodename);
  return out;
}

/** Service host names several entries (compute nodes) share; null when none does. */
export function repeatedNames(hosts: ScenarioHost[]): ReadonlySet<string> | null {
  const seen = new Set<string>();
  let repeated: Set<string> | null = null;
  for (const h of hosts) {
    if (seen.has(h.name)) (repeated ??= new Set()).add(h.name);
    else seen.add(h.name);
  }
  return repeated;
}

function numaCells(h: ScenarioHost, field: string): NUMACell[] {
  return buildNumaCells(h.numa_topology?.cells ?? [], field);
}

const HV_SPECS = new Map<string, [string | null, string | null, string | null]>();

/**
 * A host's state as HostManager builds it from its compute node. `facts`
 * and `cellsOf` are what fast/snapshot.ts keeps of a frozen host; read
 * afresh by default.
 */
export function buildHostState(
  h: ScenarioHost,
  index: number,
  view: AggregateView,
  facts: HostFacts = deriveHostFacts(h, index),
  cellsOf: (h: ScenarioHost, field: string) => NUMACell[] = numaCells,
): HostState {
  const s = new HostState();
  s.index = index;
  s.host = h.name;
  s.nodename = h.node ?? h.name;
  s.cell = h.cell ?? "cell1";
  s.uuid = h.uuid ?? "";
  const memoryMb = int(h.memory_mb, index, "memory_mb");
  const memoryMbUsed = int(h.memory_mb_used ?? 0, index, "memory_mb_used");
  const localGb = int(h.local_gb, index, "local_gb");
  const localGbUsed = int(h.local_gb_used ?? 0, index, "local_gb_used");
  let freeGb = int(h.free_disk_gb ?? localGb - localGbUsed, index, "free_disk_gb");
  if (h.disk_available_least !== undefined && h.disk_available_least !== null) {
    freeGb = Math.min(int(h.disk_available_least, index, "disk_available_least"), freeGb);
  }
  s.memoryMb = memoryMb;
  s.localGb = localGb;
  s.freeDiskMb = freeGb * 1024;
  s.diskMbUsed = localGbUsed * 1024;
  s.freeRamMb = int(h.free_ram_mb ?? memoryMb - memoryMbUsed, index, "free_ram_mb");
  s.totalUsableRamMb = memoryMb;
  s.totalUsableDiskGb = localGb;
  s.vcpusTotal = int(h.vcpus, index, "vcpus");
  s.vcpusUsed = int(h.vcpus_used ?? 0, index, "vcpus_used");
  Object.assign(s, facts);
  s.aggregates = view;
  // Neither is changed in place: consuming builds new NUMA cells and takes
  // devices from its own copy of the pools (numa/consume.ts).
  const f = `hosts[${index}]`;
  if (h.numa_topology) s.numaCells = cellsOf(h, `${f}.numa_topology`);
  if (h.pci_device_pools?.length || s.numaCells)
    s.pciStats = buildPciStats(h.pci_device_pools ?? undefined, s.numaCells, `${f}.pci_device_pools`);
  return s;
}

/**
 * The part of a HostState that comes from its scenario entry alone and that
 * scheduling never changes (fast/snapshot.ts shares a frozen entry's);
 * anything consume() changes stays outside (sizes and counters are
 * numbers, copied per request).
 */
export type HostFacts = Pick<
  HostState,
  | "hostIp"
  | "hypervisorType"
  | "hypervisorVersion"
  | "cpuInfoSource"
  | "supportedInstances"
  | "stats"
  | "numInstances"
  | "numIoOps"
  | "failedBuilds"
  | "metricsReported"
  | "metricNames"
  | "metricTable"
  | "metricAt"
  | "cpuAllocationRatio"
  | "ramAllocationRatio"
  | "diskAllocationRatio"
  | "service"
  | "instanceList"
  | "instanceImages"
  | "traits"
  | "reservedVcpus"
  | "reservedMemoryMb"
  | "reservedDiskGb"
>;

export function deriveHostFacts(h: ScenarioHost, index: number): HostFacts {
  const f = `hosts[${index}]`;
  const t = {
    metricNames: NO_METRIC_NAMES,
    metricTable: NO_METRIC_VALUES,
    metricAt: 0,
    instanceList: NO_INSTANCES,
    instanceImages: NO_INSTANCE_IMAGES,
  } as HostFacts;
  t.hostIp = hostIpText(h.host_ip ?? "10.0.0.1");
  if (!isValidIp(t.hostIp)) {
    throw new NovaError("ValueError", `${f}.host_ip: failed to detect a valid IP address from '${t.hostIp}'`);
  }
  t.hypervisorType = h.hypervisor_type ?? "QEMU";
  t.hypervisorVersion = int(h.hypervisor_version ?? 6002000, index, "hypervisor_version");
  t.cpuInfoSource = h.cpu_info ? pyValueAt(h, "cpu_info") : {};
  t.supportedInstances = (
    h.supported_instances === undefined
      ? []
      : (iter(h.supported_instances, index, "supported_instances") as typeof h.supported_instances & object)
  ).map((spec, j) => {
    // HVSpec.from_list(list(spec)): spec[0..2], each canonicalised with .lower()
    const items = Array.isArray(spec) ? spec : pyIter(spec, `${f}.supported_instances[${j}]`);
    if (items.length < 3) {
      throw new NovaError("IndexError", `${f}.supported_instances[${j}]: needs [arch, hv_type, vm_mode]`);
    }
    for (let k = 0; k < 3; k++) {
      const x = items[k];
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
  t.stats = {
    num_instances: h.num_instances === undefined ? "0" : pyStrAt(h, "num_instances"),
    io_workload: h.num_io_ops === undefined ? "0" : pyStrAt(h, "num_io_ops"),
    failed_builds: h.failed_builds === undefined ? "0" : pyStrAt(h, "failed_builds"),
  };
  t.numInstances = int(t.stats.num_instances, index, "num_instances");
  t.numIoOps = int(t.stats.io_workload, index, "num_io_ops");
  t.failedBuilds = int(t.stats.failed_builds, index, "failed_builds");
  const metrics = (h.metrics === undefined ? [] : iter(h.metrics, index, "metrics")) as typeof h.metrics & object;
  t.metricsReported = metrics.length;
  // name -> value, the last value of a name reported twice
  const byName = new Map<string, number>();
  for (const m of metrics) {
    if (m === null || typeof m !== "object")
      throw new NovaError("TypeError", `${f}.metrics: a metric must be an object`);
    if (!MONITOR_METRIC_TYPES.has(m.name)) {
      throw new NovaError("ValueError", `${f}.metrics: '${m.name}' is not a valid metric name`);
    }
    const v = typeof m.value === "number" ? m.value : float(m.value, index, `metrics.${m.name}`);
    // MonitorMetricList.from_json: percent metrics are kept ×100, then int().
    byName.set(m.name, Math.trunc(METRICS_STORED_PERCENT.has(m.name) ? v * 100 : v));
  }
  if (byName.size) {
    t.metricNames = [...byName.keys()];
    t.metricTable = [...byName.values()];
  }
  t.cpuAllocationRatio = float(h.cpu_allocation_ratio ?? 4.0, index, "cpu_allocation_ratio");
  t.ramAllocationRatio = float(h.ram_allocation_ratio ?? 1.0, index, "ram_allocation_ratio");
  t.diskAllocationRatio = float(h.disk_allocation_ratio ?? 1.0, index, "disk_allocation_ratio");
  const svc = h.service ?? {};
  t.service = {
    // bool() of what the scenario gives: a null "up" is a down service.
    disabled: svc.disabled === undefined ? false : pyTruthy(svc.disabled as PyValue),
    disabled_reason: svc.disabled_reason ?? null,
    up: svc.up === undefined ? true : pyTruthy(svc.up as PyValue),
    forced_down: svc.forced_down === undefined ? false : pyTruthy(svc.forced_down as PyValue),
  };
  if (h.instances !== undefined) t.instanceList = iter(h.instances, index, "instances") as string[];
  if (h.instance_image_properties !== undefined) t.instanceImages = instanceImages(h, index, t.instanceList);
  t.traits = h.traits?.length ? new Set(h.traits) : NO_TRAITS;
  t.reservedVcpus = h.reserved_vcpus ?? 0;
  t.reservedMemoryMb = h.reserved_memory_mb ?? 0;
  t.reservedDiskGb = h.reserved_disk_gb ?? 0;
  return t;
}
