/**
 * The names the engine knows, dependency-free so forms and schemas (also in
 * the browser) can import them. registry.ts is typed against these lists, so
 * the two cannot drift apart.
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
