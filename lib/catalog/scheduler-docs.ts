/**
 * One line per filter, weigher and placement prefilter, for the /config
 * editor (what each one does, in Nova's terms). Pure, browser-safe.
 */
export const FILTER_DOCS: Record<string, string> = {
  AllHostsFilter: "Passes every host (no filtering).",
  ComputeFilter: "Rejects hosts whose compute service is disabled, down or forced down.",
  AvailabilityZoneFilter: "Keeps hosts in the requested availability zone (aggregate metadata availability_zone).",
  ComputeCapabilitiesFilter: "Matches flavor extra specs capabilities:* (and unscoped keys) against host attributes.",
  ImagePropertiesFilter: "Keeps hosts supporting the image's architecture, hypervisor type, VM mode and version.",
  ServerGroupAntiAffinityFilter:
    "anti-affinity groups: rejects hosts already running a member (up to max_server_per_host).",
  ServerGroupAffinityFilter: "affinity groups: keeps only the host(s) already running members.",
  AggregateInstanceExtraSpecsFilter:
    "Matches flavor extra specs aggregate_instance_extra_specs:* against aggregate metadata.",
  NumInstancesFilter: "Rejects hosts with max_instances_per_host instances or more.",
  AggregateNumInstancesFilter: "As NumInstancesFilter, with the aggregate's max_instances_per_host.",
  IoOpsFilter: "Rejects hosts with max_io_ops_per_host concurrent I/O operations or more.",
  AggregateIoOpsFilter: "As IoOpsFilter, with the aggregate's max_io_ops_per_host.",
  DifferentHostFilter: "Hint different_host: hosts not running the given instances.",
  SameHostFilter: "Hint same_host: hosts running the given instances.",
  SimpleCIDRAffinityFilter: "Hints build_near_host_ip + cidr: hosts in that subnet.",
  IsolatedHostsFilter: "isolated_hosts run only isolated_images (and vice versa).",
  JsonFilter: "Hint query: a JSON expression over host state.",
  AggregateTypeAffinityFilter: "Aggregate metadata instance_type: only those flavors on its hosts.",
  AggregateMultiTenancyIsolation: "Aggregate metadata filter_tenant_id: only those projects on its hosts.",
  AggregateImagePropertiesIsolation: "Aggregate metadata that names an image property must match the image's value.",
  MetricsFilter: "Rejects hosts missing a metric named in metrics_weight_setting.",
  PciPassthroughFilter: "Hosts with the PCI devices the flavor requests.",
  NUMATopologyFilter: "Hosts whose NUMA topology fits the flavor's hw:numa_* / CPU pinning / huge pages.",
};

export const WEIGHER_DOCS: Record<string, { doc: string; multiplier: string }> = {
  RAMWeigher: { doc: "Free RAM (> 0 spreads, < 0 stacks).", multiplier: "ram_weight_multiplier" },
  CPUWeigher: { doc: "Free vCPUs (> 0 spreads, < 0 stacks).", multiplier: "cpu_weight_multiplier" },
  DiskWeigher: { doc: "Free disk (> 0 spreads, < 0 stacks).", multiplier: "disk_weight_multiplier" },
  IoOpsWeigher: { doc: "Concurrent I/O operations (< 0 prefers idle hosts).", multiplier: "io_ops_weight_multiplier" },
  MetricsWeigher: { doc: "Host metrics weighed by metrics_weight_setting.", multiplier: "metrics_weight_multiplier" },
  PCIWeigher: { doc: "Keeps PCI-capable hosts for PCI requests.", multiplier: "pci_weight_multiplier" },
  ServerGroupSoftAffinityWeigher: {
    doc: "soft-affinity: prefers hosts running group members.",
    multiplier: "soft_affinity_weight_multiplier",
  },
  ServerGroupSoftAntiAffinityWeigher: {
    doc: "soft-anti-affinity: prefers hosts without group members.",
    multiplier: "soft_anti_affinity_weight_multiplier",
  },
  BuildFailureWeigher: {
    doc: "Penalises hosts with recent failed builds.",
    multiplier: "build_failure_weight_multiplier",
  },
  CrossCellWeigher: { doc: "Prefers the source cell on moves.", multiplier: "cross_cell_move_weight_multiplier" },
  HypervisorVersionWeigher: {
    doc: "Newer hypervisor versions (2024.1+, opt-in by name).",
    multiplier: "hypervisor_version_weight_multiplier",
  },
  NumInstancesWeigher: {
    doc: "Instance count (2024.1+, opt-in by name).",
    multiplier: "num_instances_weight_multiplier",
  },
  ImagePropertiesWeigher: {
    doc: "Instances whose images share the request image's properties (2025.1+; a scenario carries none, so 0).",
    multiplier: "image_props_weight_multiplier",
  },
};

export const PREFILTER_DOCS: Record<string, string> = {
  compute_status: "Placement: drops hosts whose compute service is disabled (COMPUTE_STATUS_DISABLED trait).",
  availability_zone:
    "Placement: only the requested zone's aggregates ([scheduler] query_placement_for_availability_zone).",
  tenant_aggregates:
    "Placement: projects isolated by aggregate metadata filter_tenant_id* ([scheduler] limit_tenants_to_placement_aggregate).",
  traits: "Placement: required / forbidden traits from flavor extra specs trait:NAME.",
  resources: "Placement: hosts with enough inventory (total - reserved) × ratio - used for vCPU, RAM and disk.",
};
