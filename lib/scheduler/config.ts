/**
 * The scheduler's configuration, resolved like nova.conf: Nova's defaults
 * for every option left out, and the same range checks oslo.config applies
 * (a failing option raises ValueError naming it, as Nova does at start-up).
 */
import { NovaError, type PyValue, pyFloat, pyInt, pyTruthy } from "./python";
import { isNovaRelease, NOVA_RELEASES, type ReleaseBehaviour, releaseBehaviour } from "./releases";
import type { ScenarioConfig } from "./scenario";

export interface SchedulerConfig {
  enabledFilters: string[];
  weighers: string[];
  /** The Nova release whose behaviour applies (default Zed). */
  release: ReleaseBehaviour;
  /** What the release changed in this config (e.g. a removed filter left out). */
  releaseNotes: string[];
  /** Filters and weighers kept in the profile that Schedscope does not simulate (pass every host / weigh 0). */
  notSimulated: { filters: string[]; weighers: string[] };
  /** Nova's Placement path: request filters, allocation candidates, claims. */
  placement: boolean;
  queryPlacementForAvailabilityZone: boolean;
  limitTenantsToPlacementAggregate: boolean;
  placementAggregateRequiredForTenants: boolean;
  queryPlacementForImageTypeSupport: boolean;
  enableIsolatedAggregateFiltering: boolean;
  imageMetadataPrefilter: boolean;
  maxPlacementResults: number;
  disableFallbackPcpuQuery: boolean;
  ramWeightMultiplier: number;
  cpuWeightMultiplier: number;
  diskWeightMultiplier: number;
  ioOpsWeightMultiplier: number;
  pciWeightMultiplier: number;
  softAffinityWeightMultiplier: number;
  softAntiAffinityWeightMultiplier: number;
  buildFailureWeightMultiplier: number;
  crossCellMoveWeightMultiplier: number;
  hypervisorVersionWeightMultiplier: number;
  numInstancesWeightMultiplier: number;
  /** ImagePropertiesWeigher (2025.1+). */
  imagePropsWeightMultiplier: number;
  imagePropsWeightSetting: string[];
  metricsWeightSetting: string[];
  metricsWeightMultiplier: number;
  metricsRequired: boolean;
  metricsWeightOfUnavailable: number;
  hostSubsetSize: number;
  shuffleBestSameWeighedHosts: boolean;
  maxAttempts: number;
  maxInstancesPerHost: number;
  maxIoOpsPerHost: number;
  isolatedHosts: string[];
  isolatedImages: string[];
  restrictIsolatedHostsToIsolatedImages: boolean;
  aggregateImagePropertiesIsolationNamespace: string | null;
  aggregateImagePropertiesIsolationSeparator: string;
  defaultAvailabilityZone: string;
  imagePropertiesDefaultArchitecture: string | null;
  /** [pci] alias: one JSON document (or object) per alias, checked when a flavor uses one, as Nova does. */
  pciAlias: unknown[];
  /** [compute] packing_host_numa_cells_allocation_strategy */
  packingHostNumaCellsAllocationStrategy: boolean;
  /** [DEFAULT] allow_resize_to_same_host (moves: a resize keeps its source as a candidate). */
  allowResizeToSameHost: boolean;
  /** [DEFAULT] migrate_max_retries: hosts live-migrate's loop may refuse before MaxRetriesExceeded (-1: no limit). */
  migrateMaxRetries: number;
}

/** Nova Zed's default [filter_scheduler] enabled_filters. */
export const DEFAULT_ENABLED_FILTERS = [
  "ComputeFilter",
  "ComputeCapabilitiesFilter",
  "ImagePropertiesFilter",
  "ServerGroupAntiAffinityFilter",
  "ServerGroupAffinityFilter",
];

export interface OptionDoc {
  key: keyof ScenarioConfig;
  default: unknown;
  help: string;
  min?: number;
  /** An IntOpt: a float is truncated, text must be an integer. */
  int?: true;
}

/** Every option with Nova's default and meaning (the /config page shows these). */
export const OPTION_DOCS: OptionDoc[] = [
  {
    key: "host_subset_size",
    int: true,
    default: 1,
    min: 1,
    help: "Pick randomly among the N best-weighed hosts (1 = always the best).",
  },
  {
    key: "shuffle_best_same_weighed_hosts",
    default: false,
    help: "Shuffle hosts that tie for the best weight (spreads ironic nodes).",
  },
  {
    key: "max_attempts",
    int: true,
    default: 3,
    min: 1,
    help: "Attempts per instance: the chosen host plus max_attempts - 1 alternates from its cell.",
  },
  {
    key: "max_instances_per_host",
    int: true,
    default: 50,
    min: 1,
    help: "NumInstancesFilter: hosts with this many instances are full.",
  },
  {
    key: "max_io_ops_per_host",
    int: true,
    default: 8,
    min: 0,
    help: "IoOpsFilter: hosts with this many concurrent I/O-heavy operations are busy.",
  },
  {
    key: "migrate_max_retries",
    int: true,
    default: -1,
    min: -1,
    help: "Live-migrate: hosts the conductor may refuse (other hypervisor, older version, PCI) before MaxRetriesExceeded; -1: no limit.",
  },
  { key: "ram_weight_multiplier", default: 1.0, help: "RAMWeigher: > 0 spreads by free RAM, < 0 stacks." },
  { key: "cpu_weight_multiplier", default: 1.0, help: "CPUWeigher: > 0 spreads by free vCPUs, < 0 stacks." },
  { key: "disk_weight_multiplier", default: 1.0, help: "DiskWeigher: > 0 spreads by free disk, < 0 stacks." },
  {
    key: "io_ops_weight_multiplier",
    default: -1.0,
    help: "IoOpsWeigher: < 0 prefers hosts with fewer I/O operations.",
  },
  {
    key: "pci_weight_multiplier",
    default: 1.0,
    min: 0,
    help: "PCIWeigher: keeps PCI hosts free for PCI requests (>= 0).",
  },
  {
    key: "soft_affinity_weight_multiplier",
    default: 1.0,
    min: 0,
    help: "ServerGroupSoftAffinityWeigher: pull soft-affinity group members together (>= 0).",
  },
  {
    key: "soft_anti_affinity_weight_multiplier",
    default: 1.0,
    min: 0,
    help: "ServerGroupSoftAntiAffinityWeigher: push soft-anti-affinity members apart (>= 0).",
  },
  {
    key: "build_failure_weight_multiplier",
    default: 1000000.0,
    help: "BuildFailureWeigher: penalty per recent failed build on a host.",
  },
  {
    key: "cross_cell_move_weight_multiplier",
    default: 1000000.0,
    help: "CrossCellWeigher: preference for the source cell on moves.",
  },
  {
    key: "hypervisor_version_weight_multiplier",
    default: 1.0,
    help: "HypervisorVersionWeigher (2023.2+): > 0 prefers newer hypervisors.",
  },
  {
    key: "num_instances_weight_multiplier",
    default: 0.0,
    help: "NumInstancesWeigher (2023.2+): > 0 packs, < 0 spreads by instance count.",
  },
  {
    key: "image_props_weight_multiplier",
    default: 0.0,
    help: "ImagePropertiesWeigher (2025.1+): > 0 packs, < 0 spreads instances whose images share properties.",
  },
  {
    key: "image_props_weight_setting",
    default: [],
    help: 'ImagePropertiesWeigher (2025.1+): "property=ratio, ..."; empty weighs every property 1.0, else a property not named weighs 0.',
  },
  { key: "metrics_weight_setting", default: "", help: 'MetricsWeigher: "name=ratio, ..." over the host metrics.' },
  { key: "metrics_weight_multiplier", default: 1.0, help: "MetricsWeigher multiplier." },
  {
    key: "metrics_required",
    default: true,
    help: "A host missing a weighed metric fails the request (ComputeHostMetricNotFound).",
  },
  {
    key: "metrics_weight_of_unavailable",
    default: -10000.0,
    help: "Weight of a host missing a metric when metrics_required is false.",
  },
  { key: "isolated_hosts", default: [], help: "IsolatedHostsFilter: hosts reserved for isolated images." },
  { key: "isolated_images", default: [], help: "IsolatedHostsFilter: images that run only on isolated hosts." },
  {
    key: "restrict_isolated_hosts_to_isolated_images",
    default: true,
    help: "IsolatedHostsFilter: isolated hosts refuse other images.",
  },
  {
    key: "aggregate_image_properties_isolation_namespace",
    default: null,
    help: "AggregateImagePropertiesIsolation: only metadata keys in this namespace.",
  },
  {
    key: "aggregate_image_properties_isolation_separator",
    default: ".",
    help: "Separator between that namespace and the key.",
  },
  { key: "default_availability_zone", default: "nova", help: "AZ of hosts in no AZ aggregate." },
  {
    key: "image_properties_default_architecture",
    default: null,
    help: "ImagePropertiesFilter: architecture assumed for images without hw_architecture.",
  },
  {
    key: "max_placement_results",
    int: true,
    default: 1000,
    min: 1,
    help: "[scheduler] Placement returns at most this many allocation candidates; other hosts are never considered.",
  },
  {
    key: "query_placement_for_availability_zone",
    default: true,
    help: "[scheduler] Ask Placement only for hosts in the requested AZ's aggregates (always on from 2023.2).",
  },
  {
    key: "limit_tenants_to_placement_aggregate",
    default: false,
    help: "[scheduler] A project named in an aggregate's filter_tenant_id* metadata lands only in those aggregates.",
  },
  {
    key: "placement_aggregate_required_for_tenants",
    default: false,
    help: "[scheduler] With the option above: a project no aggregate names gets NoValidHost.",
  },
  {
    key: "query_placement_for_image_type_support",
    default: false,
    help: "[scheduler] Require COMPUTE_IMAGE_TYPE_<disk_format> on hosts.",
  },
  {
    key: "enable_isolated_aggregate_filtering",
    default: false,
    help: "[scheduler] Keep requests out of aggregates that require traits (trait:X=required) they do not ask for.",
  },
  {
    key: "image_metadata_prefilter",
    default: false,
    help: "[scheduler] Turn image properties (hw_architecture, hw_disk_bus, ...) into required traits.",
  },
  {
    key: "disable_fallback_pcpu_query",
    default: false,
    help: "[workarounds] Do not ask Placement a second time with VCPU when PCPU was requested.",
  },
];

/** Config keys that are not in OPTION_DOCS but are known (lists, NUMA/PCI, the path switch). */
const OTHER_KEYS = [
  "enabled_filters",
  "weighers",
  "nova_release",
  "not_simulated",
  "placement",
  "pci_alias",
  "packing_host_numa_cells_allocation_strategy",
  "placement_prefilters",
  "allow_resize_to_same_host",
];

/** Every config key the engine understands: anything else is refused, naming it. */
export const CONFIG_KEYS: ReadonlySet<string> = new Set([...OPTION_DOCS.map((o) => o.key as string), ...OTHER_KEYS]);

/**
 * Scenarios stored before the Placement path carried `placement_prefilters`
 * (our own guesses). Each maps onto what Nova does, where that is faithful:
 * resources, traits and compute_status are what any Placement query does;
 * availability_zone is query_placement_for_availability_zone;
 * tenant_aggregates is limit_tenants_to_placement_aggregate (Nova matches
 * the whole filter_tenant_id* value, not comma-split items). An empty list
 * means the legacy path. Unknown names are refused.
 */
export const PREFILTER_MIGRATION: Record<string, Partial<ScenarioConfig>> = {
  resources: {},
  traits: {},
  compute_status: {},
  availability_zone: { query_placement_for_availability_zone: true },
  tenant_aggregates: { limit_tenants_to_placement_aggregate: true },
};

/** The config with `placement_prefilters` replaced by `placement` and [scheduler] options. */
export function migratePlacementPrefilters(c: ScenarioConfig): ScenarioConfig {
  const list = c.placement_prefilters as unknown;
  if (list === undefined) return c;
  const { placement_prefilters: _, ...rest } = c;
  if (list === null || (Array.isArray(list) && !list.length)) return rest;
  if (!Array.isArray(list)) throw new NovaError("ValueError", "config.placement_prefilters: must be a list of names");
  const out: ScenarioConfig = { ...rest, placement: true };
  list.forEach((name, i) => {
    const m = typeof name === "string" && Object.hasOwn(PREFILTER_MIGRATION, name) ? PREFILTER_MIGRATION[name] : null;
    if (!m)
      throw new NovaError(
        "ValueError",
        `config.placement_prefilters[${i}]: "${String(name)}" has no Nova equivalent; use placement: true and the [scheduler] options`,
      );
    Object.assign(out, m);
  });
  // Without the AZ prefilter the old list never restricted by zone; Nova's default would.
  if (!list.includes("availability_zone")) out.query_placement_for_availability_zone ??= false;
  return out;
}

const NUMBER_KEYS = OPTION_DOCS.filter((o) => typeof o.default === "number").map((o) => o.key);

function num(c: ScenarioConfig, key: keyof ScenarioConfig, dflt: number): number {
  const v = c[key] as unknown;
  if (v === undefined || v === null) return dflt;
  const doc = OPTION_DOCS.find((o) => o.key === key);
  // oslo.config IntOpt/FloatOpt: int()/float() of the value, then the range.
  let n: number;
  try {
    if (typeof v === "boolean") n = v ? 1 : 0;
    else if (typeof v === "number") n = doc?.int ? Math.trunc(v) : v;
    else if (typeof v === "string") n = doc?.int ? pyInt(v) : pyFloat(v);
    else throw new NovaError("ValueError", "not a number");
  } catch {
    throw new NovaError("ValueError", `config.${key}: must be a number, got ${JSON.stringify(v)}`);
  }
  if (doc?.min !== undefined && n < doc.min) {
    throw new NovaError("ValueError", `config.${key}: should be greater than or equal to ${doc.min}, got ${n}`);
  }
  return n;
}

function strList(c: ScenarioConfig, key: keyof ScenarioConfig): string[] {
  const v = c[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new NovaError("ValueError", `config.${key}: must be a list of strings`);
  return v.map(String);
}

/** The classes the engine has: registry.ts's, passed in because the registry's filters read this module. */
export interface KnownClasses {
  isFilterName(name: string): boolean;
  isWeigherName(name: string): boolean;
}

/** Resolve a scenario's config against Nova's defaults, validating ranges. */
export function resolveConfig(
  given: ScenarioConfig = {},
  /** Refuse (or, with not_simulated: pass, keep as not simulated) a class not among these. */
  known: KnownClasses | null = null,
): SchedulerConfig {
  if (given === null || typeof given !== "object" || Array.isArray(given))
    throw new NovaError("ValueError", "config: must be an object of nova.conf options");
  for (const key of Object.keys(given)) {
    if (!CONFIG_KEYS.has(key)) throw new NovaError("ValueError", `config.${key}: unknown option`);
  }
  const c = migratePlacementPrefilters(given);
  const releaseName = c.nova_release ?? "zed";
  if (!isNovaRelease(releaseName))
    throw new NovaError(
      "ValueError",
      `config.nova_release: unknown release ${JSON.stringify(releaseName)} (known: ${NOVA_RELEASES.join(", ")})`,
    );
  const release = releaseBehaviour(releaseName);
  for (const key of NUMBER_KEYS) num(c, key, 0);
  const bool = (key: keyof ScenarioConfig, dflt: boolean): boolean => {
    const v = c[key] as unknown;
    if (v === undefined || v === null) return dflt;
    if (typeof v !== "boolean") throw new NovaError("ValueError", `config.${key}: must be true or false`);
    return v;
  };
  // The reference iterates what is given: null (or a non-list) is a TypeError.
  const names = (key: "enabled_filters" | "weighers"): string[] => {
    const v = c[key] as unknown;
    if (typeof v === "string") return [...v];
    if (v !== null && typeof v === "object" && !Array.isArray(v)) return Object.keys(v);
    if (!Array.isArray(v))
      throw new NovaError("TypeError", `config.${key}: '${v === null ? "NoneType" : typeof v}' object is not iterable`);
    return v.map(String);
  };
  const enabledFilters = c.enabled_filters === undefined ? [...DEFAULT_ENABLED_FILTERS] : names("enabled_filters");
  const weighers = c.weighers === undefined || c.weighers === "all" ? [...release.allWeighers] : names("weighers");
  // A filter the release no longer ships is left out and said so: an upgrade
  // comparison must still run (nova.conf would have to drop it too).
  const releaseNotes: string[] = [];
  for (const f of enabledFilters.filter((f) => release.removedFilters.has(f)))
    releaseNotes.push(`${f} is not in Nova ${release.label} (removed); it did not run`);
  const keptFilters = enabledFilters.filter((f) => !release.removedFilters.has(f));
  // A weigher newer than the release: Nova would not find its class. Left
  // out and said so, like a removed filter, so that a comparison still runs.
  for (const w of weighers.filter((w) => release.laterWeighers.has(w)))
    releaseNotes.push(`${w} is not in Nova ${release.label} (added later); it did not run`);
  const keptWeighers = weighers.filter((w) => !release.laterWeighers.has(w));
  if (release.azRequestFilterAlwaysOn && c.query_placement_for_availability_zone === false)
    releaseNotes.push(
      `query_placement_for_availability_zone is not in Nova ${release.label} (removed); the availability zone request filter always runs`,
    );
  // Schedscope's "not_simulated: pass" (set for stored profiles): a class it does not simulate (an
  // out-of-tree ShardFilter, BlazarFilter, ...) passes every host / weighs 0, and every result says so.
  const notSimulated = { filters: [] as string[], weighers: [] as string[] };
  if (known) {
    const pass = (c as { not_simulated?: unknown }).not_simulated === "pass";
    enabledFilters.forEach((f, i) => {
      if (known.isFilterName(f)) return;
      // The reference looks classes up in a dict: an unknown name is a KeyError.
      if (!pass) throw new NovaError("KeyError", `config.enabled_filters[${i}]: unknown filter "${f}"`);
      notSimulated.filters.push(f);
      releaseNotes.push(`${f}: not simulated: passes every host`);
    });
    weighers.forEach((w, i) => {
      if (known.isWeigherName(w)) return;
      if (!pass) throw new NovaError("KeyError", `config.weighers[${i}]: unknown weigher "${w}"`);
      notSimulated.weighers.push(w);
      releaseNotes.push(`${w}: not simulated: weighs 0`);
    });
  }
  const metricsWeightSetting = settingList(c, "metrics_weight_setting");
  return {
    enabledFilters: keptFilters,
    weighers: keptWeighers,
    release,
    releaseNotes,
    notSimulated,
    placement: bool("placement", false),
    queryPlacementForAvailabilityZone:
      release.azRequestFilterAlwaysOn || bool("query_placement_for_availability_zone", true),
    limitTenantsToPlacementAggregate: bool("limit_tenants_to_placement_aggregate", false),
    placementAggregateRequiredForTenants: bool("placement_aggregate_required_for_tenants", false),
    queryPlacementForImageTypeSupport: bool("query_placement_for_image_type_support", false),
    enableIsolatedAggregateFiltering: bool("enable_isolated_aggregate_filtering", false),
    imageMetadataPrefilter: bool("image_metadata_prefilter", false),
    maxPlacementResults: num(c, "max_placement_results", 1000),
    disableFallbackPcpuQuery: bool("disable_fallback_pcpu_query", false),
    ramWeightMultiplier: num(c, "ram_weight_multiplier", 1.0),
    cpuWeightMultiplier: num(c, "cpu_weight_multiplier", 1.0),
    diskWeightMultiplier: num(c, "disk_weight_multiplier", 1.0),
    ioOpsWeightMultiplier: num(c, "io_ops_weight_multiplier", -1.0),
    pciWeightMultiplier: num(c, "pci_weight_multiplier", 1.0),
    softAffinityWeightMultiplier: num(c, "soft_affinity_weight_multiplier", 1.0),
    softAntiAffinityWeightMultiplier: num(c, "soft_anti_affinity_weight_multiplier", 1.0),
    buildFailureWeightMultiplier: num(c, "build_failure_weight_multiplier", 1000000.0),
    crossCellMoveWeightMultiplier: num(c, "cross_cell_move_weight_multiplier", 1000000.0),
    hypervisorVersionWeightMultiplier: num(c, "hypervisor_version_weight_multiplier", 1.0),
    numInstancesWeightMultiplier: num(c, "num_instances_weight_multiplier", 0.0),
    imagePropsWeightMultiplier: num(c, "image_props_weight_multiplier", 0.0),
    imagePropsWeightSetting: settingList(c, "image_props_weight_setting"),
    metricsWeightSetting,
    metricsWeightMultiplier: num(c, "metrics_weight_multiplier", 1.0),
    metricsRequired: c.metrics_required ?? true,
    metricsWeightOfUnavailable: num(c, "metrics_weight_of_unavailable", -10000.0),
    hostSubsetSize: num(c, "host_subset_size", 1),
    shuffleBestSameWeighedHosts: c.shuffle_best_same_weighed_hosts ?? false,
    maxAttempts: num(c, "max_attempts", 3),
    maxInstancesPerHost: num(c, "max_instances_per_host", 50),
    maxIoOpsPerHost: num(c, "max_io_ops_per_host", 8),
    isolatedHosts: strList(c, "isolated_hosts"),
    isolatedImages: strList(c, "isolated_images"),
    restrictIsolatedHostsToIsolatedImages: c.restrict_isolated_hosts_to_isolated_images ?? true,
    aggregateImagePropertiesIsolationNamespace: c.aggregate_image_properties_isolation_namespace ?? null,
    aggregateImagePropertiesIsolationSeparator: c.aggregate_image_properties_isolation_separator ?? ".",
    defaultAvailabilityZone: c.default_availability_zone ?? "nova",
    imagePropertiesDefaultArchitecture: c.image_properties_default_architecture ?? null,
    pciAlias: pciAliasList(c.pci_alias),
    packingHostNumaCellsAllocationStrategy: pyTruthy(
      (c.packing_host_numa_cells_allocation_strategy ?? false) as PyValue,
    ),
    allowResizeToSameHost: pyTruthy((c.allow_resize_to_same_host ?? false) as PyValue),
    migrateMaxRetries: num(c, "migrate_max_retries", -1),
  };
}

/**
 * [pci] alias is a MultiStrOpt: a list whose items are JSON text or objects
 * (dumped to JSON). The aliases themselves are validated against Nova's
 * schema when a flavor asks for one (PciInvalidAlias), as Nova does.
 */
function pciAliasList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v))
    throw new NovaError("ValueError", "config.pci_alias: must be a list of aliases (JSON text or objects)");
  return v;
}

/** nova.scheduler.utils.parse_options(sep='=', converter=float): bad items are ignored. */
/** A ListOpt of "name=ratio": a list as given, or text split at commas. */
function settingList(c: ScenarioConfig, key: "metrics_weight_setting" | "image_props_weight_setting"): string[] {
  const setting = c[key] as unknown;
  if (setting === undefined || setting === null) return [];
  if (Array.isArray(setting)) return setting.map(String);
  if (typeof setting !== "string")
    throw new NovaError("ValueError", `config.${key}: must be "name=ratio, ..." or a list of them`);
  return String(setting)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

export function parseMetricsWeightSetting(items: string[]): Array<[string, number]> {
  const good: Array<[string, number]> = [];
  for (const opt of items) {
    const i = opt.indexOf("=");
    if (i < 0) continue;
    const key = opt.slice(0, i);
    const raw = opt.slice(i + 1);
    let value: number;
    try {
      value = pyFloat(raw);
    } catch {
      continue;
    }
    if (key) good.push([key, value]);
  }
  return good;
}
