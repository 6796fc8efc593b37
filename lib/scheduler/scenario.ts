/**
 * The scenario format (../shared/nova-reference/SCENARIO.md): a cloud, the
 * scheduler's configuration and one boot request. Keys are snake_case, as in
 * the OpenStack API and nova.conf. This is the engine's whole input; the
 * database, the import and the CLI all speak it.
 */

export type SupportedInstance = [string, string, string];

export interface ScenarioService {
  disabled?: boolean;
  disabled_reason?: string | null;
  up?: boolean;
  forced_down?: boolean;
}

export interface ScenarioMetric {
  name: string;
  value: number;
}

export interface ScenarioHost {
  name: string;
  node?: string;
  uuid?: string;
  cell?: string;
  vcpus: number;
  vcpus_used?: number;
  memory_mb: number;
  memory_mb_used?: number;
  free_ram_mb?: number;
  local_gb: number;
  local_gb_used?: number;
  free_disk_gb?: number;
  disk_available_least?: number | null;
  hypervisor_type?: string;
  hypervisor_version?: number;
  host_ip?: string;
  supported_instances?: SupportedInstance[];
  cpu_info?: Record<string, unknown>;
  num_instances?: number;
  num_io_ops?: number;
  failed_builds?: number;
  cpu_allocation_ratio?: number;
  ram_allocation_ratio?: number;
  disk_allocation_ratio?: number;
  service?: ScenarioService;
  metrics?: ScenarioMetric[];
  instances?: string[];
  /**
   * The image properties of instances on the host, by instance UUID (each one
   * of `instances`), as Nova reads them back from the instance's
   * system_metadata. Only ImagePropertiesWeigher (2025.1+) reads them.
   */
  instance_image_properties?: Record<string, Record<string, string | number | boolean>>;
  /** Host NUMA cells with their usage, as the libvirt driver reports them. */
  numa_topology?: { cells: ScenarioNumaCell[] } | null;
  /** Free PCI devices, pooled as nova-compute reports them. */
  pci_device_pools?: ScenarioPciPool[] | null;
  /** Placement (SCENARIO.md "Placement"): provider traits, inventory reserved, PCPUs, other inventories. */
  traits?: string[];
  reserved_vcpus?: number;
  reserved_memory_mb?: number;
  reserved_disk_gb?: number;
  pcpus?: number;
  pcpus_used?: number;
  inventories?: Record<string, ScenarioInventory>;
  /** Resource providers under the compute node (SCENARIO.md "Nested providers"). */
  child_providers?: ScenarioChildProvider[];
}

/** A provider a virt driver nests under its compute node (a physical GPU, an SR-IOV PF, ...). */
export interface ScenarioChildProvider {
  /** Unique in Placement. */
  name: string;
  /** Another child's name; null or absent: the compute node. */
  parent?: string | null;
  inventories?: Record<string, ScenarioInventory>;
  /** In use per resource class (or an inventory's `used`). */
  usages?: Record<string, number>;
  traits?: string[];
  /** Default uuid5(NS, "rp-" + name). */
  uuid?: string;
}

/** One inventory record of a provider; an entry replaces the derived record of its class. */
export interface ScenarioInventory {
  total: number;
  reserved?: number;
  allocation_ratio?: number;
  min_unit?: number;
  max_unit?: number;
  step_size?: number;
  used?: number;
}

export interface ScenarioNumaPages {
  size_kb: number;
  total: number;
  used?: number;
  reserved?: number;
}

export interface ScenarioNumaCell {
  id: number;
  /** Shared host CPUs (cpu_shared_set in this cell). */
  cpuset?: number[];
  /** Dedicated host CPUs (cpu_dedicated_set in this cell). */
  pcpuset?: number[];
  /** MiB */
  memory: number;
  cpu_usage?: number;
  memory_usage?: number;
  pinned_cpus?: number[];
  /** SMT thread sets; default one set per CPU. */
  siblings?: number[][];
  /** Default: all memory as 4 KiB pages. */
  mempages?: ScenarioNumaPages[];
  socket?: number | null;
}

export interface ScenarioPciPool {
  vendor_id: string;
  product_id: string;
  numa_node?: number | null;
  count: number;
  tags?: Record<string, string | null>;
}

export interface ScenarioAggregate {
  name: string;
  id?: number;
  availability_zone?: string | null;
  hosts?: string[];
  metadata?: Record<string, string | number | boolean>;
}

export type ServerGroupPolicy = "affinity" | "anti-affinity" | "soft-affinity" | "soft-anti-affinity";

export interface ScenarioServerGroup {
  uuid?: string;
  name: string;
  policy: ServerGroupPolicy;
  rules?: Record<string, string | number>;
  members?: string[];
  project_id?: string;
}

export interface ScenarioFlavor {
  name: string;
  id?: string;
  vcpus: number;
  memory_mb: number;
  root_gb?: number;
  ephemeral_gb?: number;
  swap?: number;
  extra_specs?: Record<string, string>;
}

export interface ScenarioImage {
  id?: string;
  name?: string;
  /** Glance disk_format; the image type request filter reads it (default qcow2). */
  disk_format?: string;
  properties?: Record<string, string | number | boolean>;
}

export type SchedulerHintValue = string | number | Array<string | number>;

/** A move of an existing instance (SCENARIO.md "Moves"; lib/scheduler/moves). */
export type MoveOperation = "resize" | "migrate" | "live-migrate" | "evacuate" | "unshelve";

/** The instance a move is about: where it runs, its current flavor and image. */
export interface ScenarioMoveInstance {
  uuid: string;
  /** Its compute service host; none for a shelved-offloaded instance (unshelve). */
  host?: string | null;
  node?: string | null;
  flavor: ScenarioFlavor;
  image?: ScenarioImage | null;
  /** Unshelve only: the cell the offloaded instance is mapped to (default cell1). */
  cell?: string;
}

export interface ScenarioRequest {
  /**
   * The flavor of a boot, or the new flavor of a resize. Other moves keep
   * `instance.flavor` and leave this out (checked when the file is read).
   */
  flavor: ScenarioFlavor;
  image?: ScenarioImage | null;
  num_instances?: number;
  availability_zone?: string | null;
  project_id?: string;
  server_group?: string | null;
  scheduler_hints?: Record<string, SchedulerHintValue>;
  ignore_hosts?: string[] | null;
  force_hosts?: string[] | null;
  force_nodes?: string[] | null;
  is_bfv?: boolean;
  /** A move instead of a boot: the instance, its target host and whether it is forced. */
  operation?: MoveOperation;
  instance?: ScenarioMoveInstance;
  target_host?: string | null;
  force?: boolean;
}

/** [filter_scheduler], [metrics], [scheduler] options, plus our extensions. */
export interface ScenarioConfig {
  enabled_filters?: string[];
  weighers?: string[] | "all";
  ram_weight_multiplier?: number;
  cpu_weight_multiplier?: number;
  disk_weight_multiplier?: number;
  io_ops_weight_multiplier?: number;
  pci_weight_multiplier?: number;
  soft_affinity_weight_multiplier?: number;
  soft_anti_affinity_weight_multiplier?: number;
  build_failure_weight_multiplier?: number;
  cross_cell_move_weight_multiplier?: number;
  hypervisor_version_weight_multiplier?: number;
  num_instances_weight_multiplier?: number;
  image_props_weight_multiplier?: number;
  image_props_weight_setting?: string | string[];
  metrics_weight_setting?: string | string[];
  metrics_weight_multiplier?: number;
  metrics_required?: boolean;
  metrics_weight_of_unavailable?: number;
  host_subset_size?: number;
  shuffle_best_same_weighed_hosts?: boolean;
  max_attempts?: number;
  max_instances_per_host?: number;
  max_io_ops_per_host?: number;
  isolated_hosts?: string[];
  isolated_images?: string[];
  restrict_isolated_hosts_to_isolated_images?: boolean;
  aggregate_image_properties_isolation_namespace?: string | null;
  aggregate_image_properties_isolation_separator?: string;
  default_availability_zone?: string;
  image_properties_default_architecture?: string | null;
  /** [pci] alias entries: JSON text or objects with name, vendor_id, product_id, device_type, numa_policy. */
  pci_alias?: Array<string | Record<string, unknown>>;
  /** [compute] packing_host_numa_cells_allocation_strategy (Zed default false: spread). */
  packing_host_numa_cells_allocation_strategy?: boolean;
  /** Nova release whose scheduler behaviour applies (releases.ts); default "zed". */
  nova_release?: string;
  /** Run Nova's Placement path (request filters, allocation candidates, claims). */
  placement?: boolean;
  /** [scheduler] options of the Placement path (Zed defaults in config.ts). */
  query_placement_for_availability_zone?: boolean;
  limit_tenants_to_placement_aggregate?: boolean;
  placement_aggregate_required_for_tenants?: boolean;
  query_placement_for_image_type_support?: boolean;
  enable_isolated_aggregate_filtering?: boolean;
  image_metadata_prefilter?: boolean;
  max_placement_results?: number;
  /** [DEFAULT] allow_resize_to_same_host: a resize may land on its source host. */
  allow_resize_to_same_host?: boolean;
  /** [DEFAULT] migrate_max_retries: live-migrate's retry limit (-1: none). */
  migrate_max_retries?: number;
  /** [workarounds] disable_fallback_pcpu_query */
  disable_fallback_pcpu_query?: boolean;
  /**
   * Retired: the ad-hoc prefilter list of earlier Schedscope versions.
   * migratePlacementPrefilters() maps it onto `placement` and the options.
   */
  placement_prefilters?: string[];
}

export interface Scenario {
  config?: ScenarioConfig;
  hosts: ScenarioHost[];
  aggregates?: ScenarioAggregate[];
  server_groups?: ScenarioServerGroup[];
  request: ScenarioRequest;
}

/**
 * Freeze a scenario and everything in it, as the app keeps its snapshot to
 * share between requests. Nothing can change a frozen scenario, so the
 * engine derives what each frozen host says once (host-state.ts).
 */
export function freezeScenario<T>(v: T): T {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) freezeScenario((v as Record<string, unknown>)[k]);
  }
  return v;
}
