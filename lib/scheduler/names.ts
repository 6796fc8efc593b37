/**
 * The names the engine knows: the one list of filter and weigher classes.
 * Dependency-free because forms and the scenario schema (also in the
 * browser) import it, and the filters themselves reach Node's crypto through
 * host state. registry.ts keys its descriptors by these names with a mapped
 * type, so the two cannot drift apart.
 */
export const FILTER_NAMES = [
  "AllHostsFilter",
  "ComputeFilter",
  "AvailabilityZoneFilter",
  "ComputeCapabilitiesFilter",
  "ImagePropertiesFilter",
  "ServerGroupAntiAffinityFilter",
  "ServerGroupAffinityFilter",
  "AggregateInstanceExtraSpecsFilter",
  "NumInstancesFilter",
  "AggregateNumInstancesFilter",
  "IoOpsFilter",
  "AggregateIoOpsFilter",
  "DifferentHostFilter",
  "SameHostFilter",
  "SimpleCIDRAffinityFilter",
  "IsolatedHostsFilter",
  "JsonFilter",
  "AggregateTypeAffinityFilter",
  "AggregateMultiTenancyIsolation",
  "AggregateImagePropertiesIsolation",
  "MetricsFilter",
  "PciPassthroughFilter",
  "NUMATopologyFilter",
] as const;

export const WEIGHER_NAMES = [
  "RAMWeigher",
  "CPUWeigher",
  "DiskWeigher",
  "IoOpsWeigher",
  "MetricsWeigher",
  "PCIWeigher",
  "ServerGroupSoftAffinityWeigher",
  "ServerGroupSoftAntiAffinityWeigher",
  "BuildFailureWeigher",
  "CrossCellWeigher",
  "HypervisorVersionWeigher",
  "NumInstancesWeigher",
  "ImagePropertiesWeigher",
] as const;

/** Retired prefilter names: stored configs naming them are migrated (config.ts PREFILTER_MIGRATION). */
export const PREFILTER_NAMES = [
  "compute_status",
  "availability_zone",
  "tenant_aggregates",
  "traits",
  "resources",
] as const;

export type FilterName = (typeof FILTER_NAMES)[number];
export type WeigherName = (typeof WEIGHER_NAMES)[number];
export type PrefilterName = (typeof PREFILTER_NAMES)[number];

export const isFilterName = (name: string): name is FilterName => (FILTER_NAMES as readonly string[]).includes(name);
export const isWeigherName = (name: string): name is WeigherName => (WEIGHER_NAMES as readonly string[]).includes(name);
