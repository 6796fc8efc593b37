/**
 * Zod schemas for the scenario format (../shared/nova-reference/SCENARIO.md)
 * plus Schedscope's extensions. ONE place, shared by the import, the server
 * actions, the CLIs and the engine's CLI.
 *
 * Keep this module free of Prisma, Next.js and Node-only imports: it must be
 * cheap to import anywhere (also in client components for form validation).
 *
 * Two levels of checking:
 *   1. shape: `ScenarioSchema` / `CloudSchema` (types, ranges, required keys);
 *   2. cross references: `checkCloudReferences` (unknown host in an aggregate,
 *      duplicate names, a server group member that is no instance, an instance
 *      on two hosts, ...).
 * `validateScenario` / `validateCloud` run both and return messages of the form
 * `hosts[3].memory_mb: must be a non-negative integer (got -5)`.
 *
 * Unknown keys are kept (loose objects), as the Nova reference ignores them;
 * `checkCloudReferences` reports them as warnings where the database cannot
 * store them.
 */
import { OPTION_DOCS } from "@/lib/scheduler/config";
import { PLACEMENT_OPTION_DOCS } from "../catalog/placement-options";
import { readUserJson } from "@/lib/core/input-limits";
import { z } from "zod";
import { isFilterName, isWeigherName, PREFILTER_NAMES } from "@/lib/scheduler/names";
import { NOVA_RELEASES, type NovaRelease } from "@/lib/scheduler/releases";
import { extraSpecErrors } from "../catalog/extra-specs";
import { formatCpuList, hwImagePropertyErrors } from "../catalog/hw-specs";

// ---------------------------------------------------------------------------
// Messages

function shown(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** Error callback: "is required" when missing, else `rule (got X)`. */
function rule(text: string) {
  return (iss: { input?: unknown }) => (iss.input === undefined ? "is required" : `${text} (got ${shown(iss.input)})`);
}

// ---------------------------------------------------------------------------
// Scalars

const NON_NEG_INT = "must be a non-negative integer";
const INT = "must be an integer";
const NON_NEG_NUM = "must be a non-negative number";
const POS_INT = "must be an integer >= 1";

export const nonNegInt = () =>
  z
    .number({ error: rule(NON_NEG_INT) })
    .int({ error: rule(NON_NEG_INT) })
    .min(0, { error: rule(NON_NEG_INT) });
export const anyInt = () => z.number({ error: rule(INT) }).int({ error: rule(INT) });
export const posInt = () =>
  z
    .number({ error: rule(POS_INT) })
    .int({ error: rule(POS_INT) })
    .min(1, { error: rule(POS_INT) });
export const nonNegNumber = () => z.number({ error: rule(NON_NEG_NUM) }).min(0, { error: rule(NON_NEG_NUM) });
export const finiteNumber = () => z.number({ error: rule("must be a number") });
export const nonEmptyString = () =>
  z.string({ error: rule("must be a non-empty string") }).min(1, { error: rule("must be a non-empty string") });
const str = () => z.string({ error: rule("must be a string") });
const bool = () => z.boolean({ error: rule("must be true or false") });
const stringList = (what = "a list of strings") =>
  z.array(z.string({ error: rule("must be a string") }), { error: rule(`must be ${what}`) });
const nonEmptyStringList = (what = "a list of non-empty strings") =>
  z.array(nonEmptyString(), { error: rule(`must be ${what}`) });

/** Python's str() of a scalar, as the reference applies to metadata/extra specs. */
export function pythonStr(v: string | number | boolean | null): string {
  if (typeof v === "string") return v;
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (Number.isInteger(v) && Math.abs(v) < 1e16) return String(v);
  return String(v);
}

/**
 * A string-valued map (aggregate metadata, flavor extra specs). Nova stores
 * strings; numbers and booleans are accepted and turned into Python's str()
 * form (true -> "True"), as the reference does (a float written as 1.0 in
 * JSON arrives as 1 and becomes "1").
 */
const stringMap = (what: string) =>
  z.record(
    z.string(),
    z
      .union([z.string(), z.number(), z.boolean(), z.null()], {
        error: rule("must be a string"),
      })
      .transform((v) => pythonStr(v)),
    { error: rule(`must be an object of ${what}`) },
  );

const ipAddress = () => z.union([z.ipv4(), z.ipv6()], { error: rule("must be an IPv4 or IPv6 address") });

/** Placement trait names: A-Z, 0-9 and _ (standard os-traits or CUSTOM_*). */
export const TRAIT_NAME = /^[A-Z0-9_]{1,255}$/;
const traitName = () =>
  z
    .string({ error: rule("must be a trait name") })
    .regex(TRAIT_NAME, { error: rule("must be a trait name (A-Z, 0-9, _; e.g. HW_GPU_API_VULKAN)") });

// ---------------------------------------------------------------------------
// Hosts

export const ServiceSchema = z.looseObject(
  {
    disabled: bool().optional(),
    disabled_reason: str().nullable().optional(),
    up: bool().optional(),
    forced_down: bool().optional(),
  },
  { error: rule("must be an object") },
);

export const MetricSchema = z.looseObject(
  {
    name: nonEmptyString(),
    value: finiteNumber(),
  },
  { error: rule("must be an object {name, value}") },
);

export const SupportedInstanceSchema = z.tuple([str(), str(), str()], {
  error: rule("must be [arch, hypervisor_type, vm_mode]"),
});

// ---------------------------------------------------------------------------
// NUMA topology, PCI device pools, Placement inventories

/** Resource class names: standard (VCPU, MEMORY_MB, ...) or CUSTOM_*. */
export const RESOURCE_CLASS = /^[A-Z0-9_]{1,255}$/;
const cpuList = () => z.array(nonNegInt(), { error: rule("must be a list of CPU numbers") });

export const MemPagesSchema = z.looseObject(
  {
    size_kb: posInt(),
    total: nonNegInt(),
    used: nonNegInt().optional(),
    reserved: nonNegInt().optional(),
  },
  { error: rule("must be an object {size_kb, total, used, reserved}") },
);

export const NumaCellSchema = z
  .looseObject(
    {
      id: nonNegInt(),
      cpuset: cpuList(),
      pcpuset: cpuList().optional(),
      memory: nonNegInt(),
      cpu_usage: nonNegInt().optional(),
      memory_usage: nonNegInt().optional(),
      pinned_cpus: cpuList().optional(),
      siblings: z.array(cpuList(), { error: rule("must be a list of CPU lists (SMT thread sets)") }).optional(),
      mempages: z.array(MemPagesSchema, { error: rule("must be a list of page pools") }).optional(),
      socket: nonNegInt().nullable().optional(),
    },
    { error: rule("must be an object (a NUMA cell)") },
  )
  .superRefine((c, ctx) => {
    const shared = new Set(c.cpuset);
    const dedicated = new Set(c.pcpuset ?? []);
    // libvirt reports cpuset == pcpuset when neither cpu_shared_set nor
    // cpu_dedicated_set is configured; any other overlap is a broken report.
    const same = shared.size === dedicated.size && [...shared].every((x) => dedicated.has(x));
    const both = [...shared].filter((x) => dedicated.has(x));
    if (both.length && !same) {
      ctx.addIssue({
        code: "custom",
        path: ["pcpuset"],
        message: `cpuset and pcpuset overlap on CPUs ${formatCpuList(both)} (a CPU is shared or dedicated, not both; they are equal only when neither cpu_shared_set nor cpu_dedicated_set is set)`,
      });
    }
    const outside = (c.pinned_cpus ?? []).filter((x) => !dedicated.has(x));
    if (outside.length) {
      ctx.addIssue({
        code: "custom",
        path: ["pinned_cpus"],
        message: `pinned CPUs ${formatCpuList(outside)} are not in pcpuset (only dedicated CPUs can be pinned)`,
      });
    }
    const all = new Set([...shared, ...dedicated]);
    (c.siblings ?? []).forEach((set, j) => {
      const unknown = set.filter((x) => !all.has(x));
      if (unknown.length) {
        ctx.addIssue({
          code: "custom",
          path: ["siblings", j],
          message: `CPUs ${formatCpuList(unknown)} are not in this cell's cpuset or pcpuset`,
        });
      }
    });
    const sizes = new Set<number>();
    (c.mempages ?? []).forEach((p, j) => {
      if (sizes.has(p.size_kb)) {
        ctx.addIssue({
          code: "custom",
          path: ["mempages", j, "size_kb"],
          message: `page size ${p.size_kb} KiB listed twice`,
        });
      }
      sizes.add(p.size_kb);
    });
  });

export const NumaTopologySchema = z
  .looseObject(
    { cells: z.array(NumaCellSchema, { error: rule("must be a list of NUMA cells") }) },
    { error: rule('must be an object {"cells": [...]}') },
  )
  .superRefine((t, ctx) => {
    const ids = new Set<number>();
    const cpuCell = new Map<number, number>();
    t.cells.forEach((c, i) => {
      if (ids.has(c.id))
        ctx.addIssue({ code: "custom", path: ["cells", i, "id"], message: `cell id ${c.id} listed twice` });
      ids.add(c.id);
      for (const cpu of new Set([...c.cpuset, ...(c.pcpuset ?? [])])) {
        const other = cpuCell.get(cpu);
        if (other !== undefined && other !== c.id) {
          ctx.addIssue({
            code: "custom",
            path: ["cells", i, "cpuset"],
            message: `CPU ${cpu} is also in cell ${other} (a CPU belongs to one NUMA cell)`,
          });
        }
        cpuCell.set(cpu, c.id);
      }
    });
  });

/** PCI vendor and product ids: 4 hex digits, as Nova's PCI_VENDOR_PATTERN. */
export const PCI_ID = /^[0-9a-fA-F]{4}$/;
const pciId = () =>
  z.string({ error: rule("must be 4 hex digits") }).regex(PCI_ID, { error: rule("must be 4 hex digits") });

export const PciDevicePoolSchema = z.looseObject(
  {
    vendor_id: pciId(),
    product_id: pciId(),
    numa_node: nonNegInt().nullable().optional(),
    count: nonNegInt(),
    tags: z
      .record(z.string(), z.string({ error: rule("must be a string") }), {
        error: rule("must be an object of strings"),
      })
      .optional(),
  },
  { error: rule("must be an object {vendor_id, product_id, numa_node, count, tags}") },
);

export const InventorySchema = z
  .looseObject(
    {
      total: nonNegInt(),
      reserved: nonNegInt().optional(),
      allocation_ratio: nonNegNumber().optional(),
      min_unit: posInt().optional(),
      max_unit: posInt().optional(),
      step_size: posInt().optional(),
      used: nonNegInt().optional(),
    },
    { error: rule("must be an object {total, reserved, allocation_ratio, min_unit, max_unit, step_size, used}") },
  )
  .superRefine((inv, ctx) => {
    if (inv.reserved !== undefined && inv.total > 0 && inv.reserved > inv.total) {
      ctx.addIssue({
        code: "custom",
        path: ["reserved"],
        message: `must not exceed total ${inv.total} (got ${inv.reserved}; Placement refuses it)`,
      });
    }
    if (inv.min_unit !== undefined && inv.max_unit !== undefined && inv.min_unit > inv.max_unit) {
      ctx.addIssue({
        code: "custom",
        path: ["min_unit"],
        message: `must be <= max_unit ${inv.max_unit} (got ${inv.min_unit})`,
      });
    }
  });

const resourceClassKey = () =>
  z.string().regex(RESOURCE_CLASS, { error: rule("must be a resource class name (A-Z, 0-9, _)") });

/**
 * A resource provider under a compute node (SCENARIO.md "Nested providers"):
 * a vGPU type per physical GPU, an SR-IOV physical function, ... `parent`
 * null is the compute node itself, else another child's name.
 */
export const ChildProviderSchema = z.looseObject(
  {
    name: nonEmptyString(),
    parent: nonEmptyString().nullable().optional(),
    inventories: z
      .record(resourceClassKey(), InventorySchema, { error: rule("must be an object of resource class -> inventory") })
      .optional(),
    usages: z
      .record(resourceClassKey(), nonNegInt(), { error: rule("must be an object of resource class -> amount in use") })
      .optional(),
    traits: z.array(traitName(), { error: rule("must be a list of trait names") }).optional(),
    uuid: nonEmptyString().optional(),
  },
  { error: rule("must be an object {name, parent, inventories, usages, traits, uuid}") },
);

export type ChildProviderInput = z.output<typeof ChildProviderSchema>;
export type NumaTopologyInput = z.output<typeof NumaTopologySchema>;
export type PciDevicePoolInput = z.output<typeof PciDevicePoolSchema>;
export type InventoryInput = z.output<typeof InventorySchema>;

export const HostSchema = z.looseObject(
  {
    name: nonEmptyString(),
    node: nonEmptyString().optional(),
    uuid: nonEmptyString().optional(),
    cell: nonEmptyString().optional(),
    vcpus: nonNegInt(),
    vcpus_used: nonNegInt().optional(),
    memory_mb: nonNegInt(),
    memory_mb_used: nonNegInt().optional(),
    free_ram_mb: anyInt().optional(),
    local_gb: nonNegInt(),
    local_gb_used: nonNegInt().optional(),
    free_disk_gb: anyInt().optional(),
    disk_available_least: anyInt().nullable().optional(),
    hypervisor_type: nonEmptyString().optional(),
    hypervisor_version: nonNegInt().optional(),
    host_ip: ipAddress().optional(),
    supported_instances: z
      .array(SupportedInstanceSchema, { error: rule("must be a list of [arch, hypervisor_type, vm_mode]") })
      .optional(),
    cpu_info: z.record(z.string(), z.unknown(), { error: rule("must be an object") }).optional(),
    num_instances: nonNegInt().optional(),
    num_io_ops: nonNegInt().optional(),
    failed_builds: nonNegInt().optional(),
    cpu_allocation_ratio: nonNegNumber().optional(),
    ram_allocation_ratio: nonNegNumber().optional(),
    disk_allocation_ratio: nonNegNumber().optional(),
    service: ServiceSchema.optional(),
    metrics: z.array(MetricSchema, { error: rule("must be a list of {name, value}") }).optional(),
    instances: nonEmptyStringList("a list of instance uuids").optional(),
    // Schedscope extension (ImagePropertiesWeigher, 2025.1+): instance uuid -> its image's properties
    instance_image_properties: z
      .record(z.string(), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])), {
        error: rule("must be an object of instance uuid -> {property: value}"),
      })
      .optional(),
    // Schedscope extensions (Placement)
    traits: z.array(traitName(), { error: rule("must be a list of trait names") }).optional(),
    reserved_vcpus: nonNegInt().optional(),
    reserved_memory_mb: nonNegInt().optional(),
    reserved_disk_gb: nonNegInt().optional(),
    // NUMA and PCI (SCENARIO.md "NUMA and PCI")
    numa_topology: NumaTopologySchema.optional(),
    pci_device_pools: z.array(PciDevicePoolSchema, { error: rule("must be a list of PCI device pools") }).optional(),
    // Placement (SCENARIO.md "Placement")
    pcpus: nonNegInt().optional(),
    pcpus_used: nonNegInt().optional(),
    inventories: z
      .record(
        z.string().regex(RESOURCE_CLASS, { error: rule("must be a resource class name (A-Z, 0-9, _)") }),
        InventorySchema,
        { error: rule("must be an object of resource class -> inventory") },
      )
      .optional(),
    // Nested providers (SCENARIO.md "Nested providers")
    child_providers: z.array(ChildProviderSchema, { error: rule("must be a list of resource providers") }).optional(),
  },
  { error: rule("must be an object") },
);

/** A host's size and usage as the os-hypervisors API reports them (its legacy fields), in the scenario's order. */
export const HOST_SIZE_FIELDS = [
  "vcpus",
  "vcpus_used",
  "memory_mb",
  "memory_mb_used",
  "local_gb",
  "local_gb_used",
] as const;

/** Values the Nova reference assumes for host keys left out. */
export const HOST_DEFAULTS = {
  cell: "cell1",
  vcpus_used: 0,
  memory_mb_used: 0,
  local_gb_used: 0,
  hypervisor_type: "QEMU",
  hypervisor_version: 6002000,
  host_ip: "10.0.0.1",
  num_instances: 0,
  num_io_ops: 0,
  failed_builds: 0,
  cpu_allocation_ratio: 4.0,
  ram_allocation_ratio: 1.0,
  disk_allocation_ratio: 1.0,
  reserved_vcpus: 0,
  reserved_memory_mb: 0,
  reserved_disk_gb: 0,
  pcpus: 0,
  pcpus_used: 0,
} as const;

// ---------------------------------------------------------------------------
// Aggregates, server groups

export const AggregateSchema = z.looseObject(
  {
    name: nonEmptyString(),
    id: anyInt().optional(),
    uuid: nonEmptyString().optional(),
    availability_zone: nonEmptyString().nullable().optional(),
    hosts: nonEmptyStringList("a list of host names").optional(),
    metadata: stringMap("string values").optional(),
  },
  { error: rule("must be an object") },
);

export const SERVER_GROUP_POLICIES = ["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"] as const;

export const ServerGroupSchema = z.looseObject(
  {
    uuid: nonEmptyString().optional(),
    name: nonEmptyString(),
    policy: z.enum(SERVER_GROUP_POLICIES, {
      error: rule(`must be one of ${SERVER_GROUP_POLICIES.join(", ")}`),
    }),
    rules: z
      .record(z.string(), z.union([z.string(), z.number()], { error: rule("must be a string or a number") }), {
        error: rule("must be an object"),
      })
      .superRefine((r, ctx) => {
        const v = r.max_server_per_host;
        if (v !== undefined && !(/^\s*\d+\s*$/.test(String(v)) && Number(v) >= 1)) {
          ctx.addIssue({ code: "custom", path: ["max_server_per_host"], message: `${POS_INT} (got ${shown(v)})` });
        }
      })
      .optional(),
    members: nonEmptyStringList("a list of instance uuids").optional(),
    project_id: nonEmptyString().optional(),
  },
  { error: rule("must be an object") },
);

// ---------------------------------------------------------------------------
// Flavors, images, instances

export const FlavorSchema = z.looseObject(
  {
    name: nonEmptyString(),
    id: z
      .union([nonEmptyString(), anyInt()], { error: rule("must be a string") })
      .transform(String)
      .optional(),
    vcpus: nonNegInt(),
    memory_mb: nonNegInt(),
    root_gb: nonNegInt().optional(),
    ephemeral_gb: nonNegInt().optional(),
    swap: nonNegInt().optional(),
    is_public: bool().optional(),
    description: str().nullable().optional(),
    extra_specs: stringMap("string values").optional(),
  },
  { error: rule("must be an object") },
);

/** Glance's disk formats (Nova maps each to a COMPUTE_IMAGE_TYPE_* trait). */
export const DISK_FORMATS = [
  "ami",
  "ari",
  "aki",
  "vhd",
  "vhdx",
  "vmdk",
  "raw",
  "qcow2",
  "vdi",
  "iso",
  "ploop",
] as const;

const imagePropertyValue = z.union([z.string(), z.number(), z.boolean()], {
  error: rule("must be a string, number or boolean"),
});

export const ImageSchema = z.looseObject(
  {
    id: nonEmptyString().optional(),
    name: str().optional(),
    /** Glance disk_format; the Placement path's image type prefilter reads it (default qcow2). */
    disk_format: z.enum(DISK_FORMATS, { error: rule(`must be one of ${DISK_FORMATS.join(", ")}`) }).optional(),
    properties: z.record(z.string(), imagePropertyValue, { error: rule("must be an object") }).optional(),
  },
  { error: rule("must be an object") },
);

/**
 * Schedscope extension (export of a whole cloud): attributes of instances
 * beyond placement. Where an instance runs is `hosts[].instances`, its group
 * is `server_groups[].members`; an instance listed here and on no host is not
 * on any host (e.g. its host was deleted).
 */
export const InstanceSchema = z.looseObject(
  {
    uuid: nonEmptyString(),
    name: str().nullable().optional(),
    flavor: nonEmptyString().nullable().optional(),
    image: nonEmptyString().nullable().optional(),
    project_id: nonEmptyString().nullable().optional(),
    /** the availability zone Nova reports for the server */
    availability_zone: nonEmptyString().nullable().optional(),
    /** when Nova created the server (ISO 8601, as the API reports it) */
    created: nonEmptyString().nullable().optional(),
  },
  { error: rule("must be an object") },
);

// ---------------------------------------------------------------------------
// Config

/** Nova releases a profile may name (`nova_release`): the engine's list (dependency-free module). */
export { NOVA_RELEASES, type NovaRelease };

/** The prefilter names of the former `placement_prefilters` option (migrated to the [scheduler] options). */
export const LEGACY_PLACEMENT_PREFILTERS = PREFILTER_NAMES;

const multiplier = () => finiteNumber().optional();
const nonNegMultiplier = () => nonNegNumber().optional();

export const ConfigSchema = z.looseObject(
  {
    enabled_filters: nonEmptyStringList("a list of filter class names").optional(),
    weighers: z
      .union([z.literal("all"), nonEmptyStringList("a list of weigher class names")], {
        error: rule('must be "all" or a list of weigher class names'),
      })
      .optional(),
    ram_weight_multiplier: multiplier(),
    cpu_weight_multiplier: multiplier(),
    disk_weight_multiplier: multiplier(),
    io_ops_weight_multiplier: multiplier(),
    pci_weight_multiplier: nonNegMultiplier(),
    soft_affinity_weight_multiplier: nonNegMultiplier(),
    soft_anti_affinity_weight_multiplier: nonNegMultiplier(),
    build_failure_weight_multiplier: multiplier(),
    cross_cell_move_weight_multiplier: multiplier(),
    hypervisor_version_weight_multiplier: multiplier(),
    num_instances_weight_multiplier: multiplier(),
    image_props_weight_multiplier: multiplier(),
    image_props_weight_setting: z
      .union([z.string(), z.array(z.string())], { error: rule('must be "property=ratio, ..." or a list of them') })
      .optional(),
    metrics_weight_setting: z
      .union([z.string(), z.array(z.string())], { error: rule('must be "name=ratio, ..." or a list of them') })
      .optional(),
    metrics_weight_multiplier: multiplier(),
    metrics_required: bool().optional(),
    metrics_weight_of_unavailable: multiplier(),
    host_subset_size: posInt().optional(),
    shuffle_best_same_weighed_hosts: bool().optional(),
    max_attempts: posInt().optional(),
    max_instances_per_host: nonNegInt().optional(),
    max_io_ops_per_host: nonNegInt().optional(),
    isolated_hosts: stringList().optional(),
    isolated_images: stringList().optional(),
    restrict_isolated_hosts_to_isolated_images: bool().optional(),
    aggregate_image_properties_isolation_namespace: str().nullable().optional(),
    aggregate_image_properties_isolation_separator: str().optional(),
    default_availability_zone: str().optional(),
    image_properties_default_architecture: str().nullable().optional(),
    /** [DEFAULT] allow_resize_to_same_host (moves). */
    allow_resize_to_same_host: bool().optional(),
    /** [DEFAULT] migrate_max_retries (live-migrate's retry loop; -1: no limit). */
    migrate_max_retries: anyInt()
      .min(-1, { error: rule("must be an integer >= -1 (-1: no limit)") })
      .optional(),
    /** Former Schedscope option; migrated by migrateProfileConfig (lib/scenario/profile-config.ts). */
    placement_prefilters: nonEmptyStringList("a list of prefilter names").optional(),
    // NUMA and PCI
    pci_alias: z
      .array(
        z.union([z.string(), z.record(z.string(), z.unknown())], {
          error: rule("must be an alias object or its JSON text"),
        }),
        {
          error: rule("must be a list of PCI aliases"),
        },
      )
      .optional(),
    packing_host_numa_cells_allocation_strategy: bool().optional(),
    // Placement: Nova's real path and the [scheduler] / [workarounds] options
    placement: bool().optional(),
    // Schedscope: filters and weighers it does not simulate pass every host / weigh 0 (stored profiles)
    not_simulated: z.literal("pass", { error: rule('must be "pass"') }).optional(),
    query_placement_for_availability_zone: bool().optional(),
    limit_tenants_to_placement_aggregate: bool().optional(),
    placement_aggregate_required_for_tenants: bool().optional(),
    query_placement_for_image_type_support: bool().optional(),
    enable_isolated_aggregate_filtering: bool().optional(),
    image_metadata_prefilter: bool().optional(),
    max_placement_results: posInt().optional(),
    disable_fallback_pcpu_query: bool().optional(),
    /** Which Nova release's behaviour the engine reproduces. */
    nova_release: z
      .enum(NOVA_RELEASES, { error: rule(`must be a known Nova release (${NOVA_RELEASES.join(", ")})`) })
      .optional(),
  },
  { error: rule("must be an object") },
);

/**
 * The PCI alias JSON schema of Nova's [pci] alias option (nova/pci/request.py
 * _ALIAS_SCHEMA): in Zed only `name` is required (an alias without vendor_id
 * matches any vendor's device, as Nova does); additional properties are
 * refused. 2023.1 added `resource_class` and `traits` (PCI in Placement).
 */
export const PCI_DEVICE_TYPES = ["type-PCI", "type-PF", "type-VF"] as const;
export const PCI_NUMA_POLICIES = ["legacy", "preferred", "required", "socket"] as const;
const pciAliasShape = {
  name: z
    .string({ error: rule("must be a non-empty string") })
    .min(1, { error: rule("must be a non-empty string") })
    .max(256, { error: rule("must be at most 256 characters") }),
  capability_type: z.literal("pci", { error: rule('must be "pci"') }).optional(),
  vendor_id: z
    .string({ error: rule("must be 4 hex digits (e.g. 10de)") })
    .regex(PCI_ID, { error: rule("must be 4 hex digits (e.g. 10de)") })
    .optional(),
  product_id: z
    .string({ error: rule("must be 4 hex digits") })
    .regex(PCI_ID, { error: rule("must be 4 hex digits (e.g. 20b5)") })
    .optional(),
  device_type: z.enum(PCI_DEVICE_TYPES, { error: rule(`must be one of ${PCI_DEVICE_TYPES.join(", ")}`) }).optional(),
  numa_policy: z.enum(PCI_NUMA_POLICIES, { error: rule(`must be one of ${PCI_NUMA_POLICIES.join(", ")}`) }).optional(),
};
export const PciAliasSchema = z.strictObject(pciAliasShape, { error: rule("must be an object") });
/** 2023.1 and later: an alias may name the Placement resource class and traits of its devices. */
const PciAliasSchema2023 = z.strictObject(
  {
    ...pciAliasShape,
    resource_class: z
      .string({ error: rule("must be a resource class name") })
      .min(1)
      .optional(),
    traits: z.string({ error: rule("must be a comma separated list of trait names") }).optional(),
  },
  { error: rule("must be an object") },
);

/** The alias schema the given Nova release validates [pci] alias with. */
export function pciAliasSchemaFor(release: unknown) {
  return typeof release === "string" && release !== "zed" ? PciAliasSchema2023 : PciAliasSchema;
}

// ---------------------------------------------------------------------------
// Request

const hostList = () => stringList("a list of host names").nullable().optional();

export const RequestSchema = z.looseObject(
  {
    flavor: FlavorSchema,
    image: ImageSchema.nullable().optional(),
    num_instances: posInt().optional(),
    availability_zone: str().nullable().optional(),
    project_id: str().optional(),
    server_group: nonEmptyString().nullable().optional(),
    scheduler_hints: z
      .record(
        z.string(),
        z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))], {
          error: rule("must be a string, a number or a list of them"),
        }),
        { error: rule("must be an object") },
      )
      .optional(),
    ignore_hosts: hostList(),
    force_hosts: hostList(),
    force_nodes: hostList(),
    is_bfv: bool().optional(),
  },
  { error: rule("must be an object") },
);

/** SCENARIO.md "Moves": the operations a scenario may ask instead of a boot. */
export const MOVE_OPERATIONS = ["resize", "migrate", "live-migrate", "evacuate", "unshelve"] as const;

/** The instance a move is about: its current flavor and image, where it runs. */
export const MoveInstanceSchema = z.looseObject(
  {
    uuid: nonEmptyString(),
    host: nonEmptyString().nullable().optional(),
    node: nonEmptyString().nullable().optional(),
    flavor: FlavorSchema,
    image: ImageSchema.nullable().optional(),
    cell: nonEmptyString().optional(),
  },
  { error: rule("must be an object") },
);

/**
 * A move's request: the boot request's keys the stored RequestSpec keeps,
 * plus the operation and the instance; `flavor` is a resize's new flavor
 * only (the engine refuses it elsewhere, naming the rule, as the reference does).
 */
export const MoveRequestSchema = RequestSchema.extend({
  flavor: FlavorSchema.optional(),
  operation: z.enum(MOVE_OPERATIONS, { error: rule(`must be one of ${MOVE_OPERATIONS.join(", ")}`) }),
  instance: MoveInstanceSchema,
  target_host: nonEmptyString().nullable().optional(),
  force: bool().optional(),
});

// ---------------------------------------------------------------------------
// Documents

const cloudShape = {
  config: ConfigSchema.optional(),
  hosts: z.array(HostSchema, { error: rule("must be a list of hosts") }),
  aggregates: z.array(AggregateSchema, { error: rule("must be a list of aggregates") }).optional(),
  server_groups: z.array(ServerGroupSchema, { error: rule("must be a list of server groups") }).optional(),
  // Schedscope extensions: the rest of a whole cloud
  flavors: z.array(FlavorSchema, { error: rule("must be a list of flavors") }).optional(),
  images: z.array(ImageSchema, { error: rule("must be a list of images") }).optional(),
  instances: z.array(InstanceSchema, { error: rule("must be a list of instances") }).optional(),
};

/** A scenario: the cloud, the config and one request (what the engine reads). */
export const ScenarioSchema = z.looseObject(
  { ...cloudShape, request: RequestSchema },
  { error: rule("must be a JSON object") },
);

/** A scenario whose request is a move (SCENARIO.md "Moves"). */
export const MoveScenarioSchema = z.looseObject(
  { ...cloudShape, request: MoveRequestSchema },
  { error: rule("must be a JSON object") },
);

/** A whole cloud whose request is a move. */
export const MoveCloudSchema = z.looseObject(
  { ...cloudShape, request: MoveRequestSchema.optional() },
  { error: rule("must be a JSON object") },
);

/** A whole cloud (import/export): a scenario whose request is optional. */
export const CloudSchema = z.looseObject(
  { ...cloudShape, request: RequestSchema.optional() },
  { error: rule("must be a JSON object") },
);

export type ScenarioFlavorInput = z.output<typeof FlavorSchema>;
export type ScenarioImageInput = z.output<typeof ImageSchema>;
export type ScenarioDocument = z.output<typeof ScenarioSchema>;
export type CloudDocument = z.output<typeof CloudSchema>;

// ---------------------------------------------------------------------------
// Error formatting

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (typeof p === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out || "(document)";
}

/** `path: message` for each issue, e.g. `hosts[3].memory_mb: must be a non-negative integer (got -5)`. */
export function formatZodError(err: z.ZodError | { issues: z.core.$ZodIssue[] }): string[] {
  const out: string[] = [];
  for (const issue of err.issues) {
    if (issue.code === "unrecognized_keys") {
      out.push(`${formatPath(issue.path)}: unknown key(s) ${issue.keys.join(", ")}`);
    } else {
      out.push(`${formatPath(issue.path)}: ${issue.message}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Cross references

export interface CheckResult {
  errors: string[];
  warnings: string[];
}

type CloudLike = CloudDocument;

function knownKeys(schema: { shape: Record<string, unknown> }): Set<string> {
  return new Set(Object.keys(schema.shape));
}
const HOST_KEYS = knownKeys(HostSchema);
const AGG_KEYS = knownKeys(AggregateSchema);
const SG_KEYS = knownKeys(ServerGroupSchema);
const FLAVOR_KEYS = knownKeys(FlavorSchema);
const IMAGE_KEYS = knownKeys(ImageSchema);
const INSTANCE_KEYS = knownKeys(InstanceSchema);
const SERVICE_KEYS = knownKeys(ServiceSchema);
// `description`: a scenario file's note for people (SCENARIO.md examples carry one); read by no one.
const TOP_KEYS = new Set([...Object.keys(cloudShape), "request", "description"]);

function unknownKeys(obj: object, known: Set<string>, where: string, warnings: string[], what: string) {
  const extra = Object.keys(obj).filter((k) => !known.has(k));
  if (extra.length) warnings.push(`${where}: unknown key(s) ${extra.join(", ")} (${what})`);
}

/**
 * Checks that need the whole document: names are unique, every reference
 * resolves, every instance is in one place. `opts.forImport` adds warnings
 * for what the database cannot keep (unknown keys).
 */
export function checkCloudReferences(doc: CloudLike, opts: { forImport?: boolean } = {}): CheckResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const ignored = "ignored: not stored in the database";

  if (opts.forImport) unknownKeys(doc, TOP_KEYS, "(document)", warnings, ignored);

  // hosts
  const hostIndex = new Map<string, number>();
  const nodeIndex = new Map<string, number>();
  const providerIndex = new Map<string, string>();
  const secondNodes: [number, string][] = [];
  const uuidIndex = new Map<string, number>();
  const instanceHost = new Map<string, string>(); // instance uuid -> "hosts[i]"
  doc.hosts.forEach((h, i) => {
    const where = `hosts[${i}]`;
    // several compute nodes of one service host (Ironic): same name, each its own node
    const first = hostIndex.get(h.name);
    const node = h.node ?? h.name;
    const sameNode = nodeIndex.get(`${h.name}\u0000${node}`);
    if (sameNode !== undefined)
      errors.push(
        `${where}.${h.node === undefined ? "name" : "node"}: duplicate compute node "${node}" of host "${h.name}" (also hosts[${sameNode}]; several nodes of one host need different nodes)`,
      );
    else nodeIndex.set(`${h.name}\u0000${node}`, i);
    if (first === undefined) hostIndex.set(h.name, i);
    else {
      // a second node is stored under its node's name, which no other host may have
      secondNodes.push([i, node]);
    }
    (h.child_providers ?? []).forEach((c, j) => {
      const other = providerIndex.get(c.name);
      if (other !== undefined)
        errors.push(`${where}.child_providers[${j}].name: duplicate provider name "${c.name}" (also ${other})`);
      else providerIndex.set(c.name, `${where}.child_providers[${j}]`);
      if (c.name === node)
        errors.push(`${where}.child_providers[${j}].name: "${c.name}" is the compute node's own name`);
    });
    const children = new Map((h.child_providers ?? []).map((c) => [c.name, c.parent ?? null]));
    (h.child_providers ?? []).forEach((c, j) => {
      if (c.parent !== null && c.parent !== undefined && !children.has(c.parent)) {
        errors.push(
          `${where}.child_providers[${j}].parent: "${c.parent}" is no child provider of this host (null: the compute node)`,
        );
        return;
      }
      // a parent chain must end at the compute node
      const seen = new Set<string>([c.name]);
      for (let p = c.parent ?? null; p !== null; p = children.get(p) ?? null) {
        if (seen.has(p)) {
          errors.push(`${where}.child_providers[${j}].parent: "${c.name}" is its own ancestor (a cycle)`);
          break;
        }
        seen.add(p);
      }
    });
    if (h.uuid !== undefined) {
      const u = uuidIndex.get(h.uuid);
      if (u !== undefined) errors.push(`${where}.uuid: duplicate host uuid "${h.uuid}" (also hosts[${u}])`);
      else uuidIndex.set(h.uuid, i);
    }
    const metricNames = new Set<string>();
    (h.metrics ?? []).forEach((m, j) => {
      if (metricNames.has(m.name))
        errors.push(`${where}.metrics[${j}].name: duplicate metric "${m.name}" on this host`);
      metricNames.add(m.name);
    });
    const traits = new Set<string>();
    (h.traits ?? []).forEach((t, j) => {
      if (traits.has(t)) errors.push(`${where}.traits[${j}]: duplicate trait "${t}" on this host`);
      traits.add(t);
    });
    (h.instances ?? []).forEach((u, j) => {
      const other = instanceHost.get(u);
      if (other !== undefined) {
        errors.push(`${where}.instances[${j}]: instance "${u}" is also on ${other} (an instance runs on one host)`);
      } else instanceHost.set(u, `${where} (${h.name})`);
    });
    if (opts.forImport) {
      unknownKeys(h, HOST_KEYS, where, warnings, ignored);
      if (h.service) unknownKeys(h.service, SERVICE_KEYS, `${where}.service`, warnings, ignored);
    }
  });

  const rowNames = new Map([...hostIndex].map(([name, i]) => [name, `hosts[${i}]`]));
  for (const [i, node] of secondNodes) {
    const other = rowNames.get(node);
    if (other !== undefined)
      errors.push(
        `hosts[${i}].node: "${node}" is also the name of ${other} (a second node of a host is kept under its node's name)`,
      );
    else rowNames.set(node, `hosts[${i}]`);
  }

  // aggregates
  const aggIndex = new Map<string, number>();
  const aggUuids = new Map<string, number>();
  (doc.aggregates ?? []).forEach((a, i) => {
    const where = `aggregates[${i}]`;
    const first = aggIndex.get(a.name);
    if (first !== undefined)
      errors.push(`${where}.name: duplicate aggregate name "${a.name}" (also aggregates[${first}])`);
    else aggIndex.set(a.name, i);
    if (a.uuid !== undefined) {
      const u = aggUuids.get(a.uuid);
      if (u !== undefined) errors.push(`${where}.uuid: duplicate aggregate uuid "${a.uuid}" (also aggregates[${u}])`);
      else aggUuids.set(a.uuid, i);
    }
    const seen = new Set<string>();
    (a.hosts ?? []).forEach((hn, j) => {
      if (!hostIndex.has(hn)) errors.push(`${where}.hosts[${j}]: unknown host "${hn}" (not in hosts)`);
      if (seen.has(hn)) errors.push(`${where}.hosts[${j}]: host "${hn}" listed twice in this aggregate`);
      seen.add(hn);
    });
    const mdAz = a.metadata?.availability_zone;
    if (mdAz !== undefined && a.availability_zone != null && mdAz !== a.availability_zone) {
      errors.push(
        `${where}.metadata.availability_zone: "${mdAz}" contradicts availability_zone "${a.availability_zone}"`,
      );
    }
    if (opts.forImport) unknownKeys(a, AGG_KEYS, where, warnings, ignored);
  });

  // flavors, images
  const flavorIndex = new Map<string, number>();
  const flavorIds = new Map<string, number>();
  (doc.flavors ?? []).forEach((f, i) => {
    const first = flavorIndex.get(f.name);
    if (first !== undefined)
      errors.push(`flavors[${i}].name: duplicate flavor name "${f.name}" (also flavors[${first}])`);
    else flavorIndex.set(f.name, i);
    if (f.id !== undefined) {
      const u = flavorIds.get(f.id);
      if (u !== undefined) errors.push(`flavors[${i}].id: duplicate flavor id "${f.id}" (also flavors[${u}])`);
      else flavorIds.set(f.id, i);
    }
    if (opts.forImport) unknownKeys(f, FLAVOR_KEYS, `flavors[${i}]`, warnings, ignored);
  });
  const imageIndex = new Map<string, number>();
  (doc.images ?? []).forEach((im, i) => {
    if (im.id === undefined) {
      errors.push(`images[${i}].id: is required (an image in the images list needs its uuid)`);
      return;
    }
    const first = imageIndex.get(im.id);
    if (first !== undefined) errors.push(`images[${i}].id: duplicate image id "${im.id}" (also images[${first}])`);
    else imageIndex.set(im.id, i);
    if (opts.forImport) unknownKeys(im, IMAGE_KEYS, `images[${i}]`, warnings, ignored);
  });

  // instances (extension list)
  const instanceIndex = new Map<string, number>();
  (doc.instances ?? []).forEach((inst, i) => {
    const where = `instances[${i}]`;
    const first = instanceIndex.get(inst.uuid);
    if (first !== undefined) errors.push(`${where}.uuid: duplicate instance "${inst.uuid}" (also instances[${first}])`);
    else instanceIndex.set(inst.uuid, i);
    const reqFlavor = doc.request?.flavor?.name;
    if (inst.flavor != null && !flavorIndex.has(inst.flavor) && inst.flavor !== reqFlavor) {
      errors.push(`${where}.flavor: unknown flavor "${inst.flavor}" (not in flavors)`);
    }
    const reqImage = doc.request?.image?.id;
    if (inst.image != null && !imageIndex.has(inst.image) && inst.image !== reqImage) {
      errors.push(`${where}.image: unknown image "${inst.image}" (not in images)`);
    }
    if (opts.forImport) unknownKeys(inst, INSTANCE_KEYS, where, warnings, ignored);
  });

  // server groups
  const sgUuids = new Map<string, number>();
  const sgNames = new Map<string, number>();
  const memberOf = new Map<string, number>();
  (doc.server_groups ?? []).forEach((g, i) => {
    const where = `server_groups[${i}]`;
    if (g.uuid !== undefined) {
      const u = sgUuids.get(g.uuid);
      if (u !== undefined)
        errors.push(`${where}.uuid: duplicate server group uuid "${g.uuid}" (also server_groups[${u}])`);
      else sgUuids.set(g.uuid, i);
    }
    const n = sgNames.get(g.name);
    if (n !== undefined) {
      warnings.push(
        `${where}.name: server group name "${g.name}" also used by server_groups[${n}] (refer to it by uuid)`,
      );
    } else sgNames.set(g.name, i);
    if (g.rules?.max_server_per_host !== undefined && g.policy !== "anti-affinity") {
      warnings.push(`${where}.rules.max_server_per_host: only the anti-affinity policy uses it`);
    }
    (g.members ?? []).forEach((u, j) => {
      if (!instanceHost.has(u) && !instanceIndex.has(u)) {
        errors.push(
          `${where}.members[${j}]: "${u}" is not an instance (not in any host's instances nor in the instances list)`,
        );
      }
      const other = memberOf.get(u);
      if (other === i) errors.push(`${where}.members[${j}]: instance "${u}" listed twice`);
      else if (other !== undefined) {
        errors.push(
          `${where}.members[${j}]: instance "${u}" is also a member of server_groups[${other}] (one group per instance)`,
        );
      } else memberOf.set(u, i);
    });
    if (opts.forImport) unknownKeys(g, SG_KEYS, where, warnings, ignored);
  });

  // config
  const cfg = doc.config;
  if (cfg) {
    (cfg.enabled_filters ?? []).forEach((f, i) => {
      if (!isFilterName(f)) warnings.push(`config.enabled_filters[${i}]: "${f}" is not a Nova Zed filter`);
    });
    if (Array.isArray(cfg.weighers)) {
      cfg.weighers.forEach((w, i) => {
        if (!isWeigherName(w)) warnings.push(`config.weighers[${i}]: "${w}" is not a Nova weigher`);
      });
    }
    const prefilters = new Set<string>(LEGACY_PLACEMENT_PREFILTERS);
    (cfg.placement_prefilters ?? []).forEach((p, i) => {
      if (!prefilters.has(p)) warnings.push(`config.placement_prefilters[${i}]: "${p}" is not a known prefilter`);
    });
    // the config becomes a stored profile: Nova's own checks apply
    if (opts.forImport) errors.push(...checkProfileConfig(cfg));
  }
  if (opts.forImport) {
    // what nova-api refuses in a flavor's extra specs or an image's properties
    const flavorSpecs = (where: string, f: ScenarioFlavorInput) => {
      for (const e of extraSpecErrors(f.extra_specs ?? {}))
        errors.push(`${where}.extra_specs[${JSON.stringify(e.key)}]: ${e.error}`);
    };
    const imageProps = (where: string, im: ScenarioImageInput) => {
      for (const e of hwImagePropertyErrors(im.properties ?? {}))
        errors.push(`${where}.properties[${JSON.stringify(e.key)}]: ${e.error}`);
    };
    (doc.flavors ?? []).forEach((f, i) => {
      flavorSpecs(`flavors[${i}]`, f);
    });
    (doc.images ?? []).forEach((im, i) => {
      imageProps(`images[${i}]`, im);
    });
    if (doc.request) {
      // a move other than a resize has no request.flavor (the instance keeps its own)
      if (doc.request.flavor) flavorSpecs("request.flavor", doc.request.flavor);
      if (doc.request.image) imageProps("request.image", doc.request.image);
    }
  }

  // request
  const req = doc.request;
  if (req) {
    if (req.server_group != null && !sgUuids.has(req.server_group) && !sgNames.has(req.server_group)) {
      errors.push(`request.server_group: unknown server group "${req.server_group}" (no uuid or name matches)`);
    }
    const f = req.flavor;
    const fi = f ? flavorIndex.get(f.name) : undefined;
    if (f && fi !== undefined && !sameFlavor(f, doc.flavors![fi])) {
      warnings.push(
        `request.flavor: differs from flavors[${fi}] "${f.name}"; the flavors entry is what the database keeps`,
      );
    }
  }

  return { errors, warnings };
}

const CONFIG_KEYS = new Set(Object.keys(ConfigSchema.shape));

/**
 * What a stored scheduler profile must satisfy beyond the scenario's shape:
 * every key a known option (a typo would silently leave Nova's default in
 * force), PCI aliases valid for Nova's [pci] alias schema and naming their
 * vendor. Messages `config.KEY: rule`.
 */
export function checkProfileConfig(cfg: Record<string, unknown>, prefix = "config."): string[] {
  const errors: string[] = [];
  for (const k of Object.keys(cfg)) {
    if (!CONFIG_KEYS.has(k)) {
      errors.push(
        `${prefix}${k}: unknown option (not a [filter_scheduler], [scheduler], [pci], [compute] or [workarounds] option Schedscope knows)`,
      );
    }
  }
  // ranges Nova's options declare (min=...): a value below makes every request fail
  for (const doc of [...OPTION_DOCS, ...PLACEMENT_OPTION_DOCS]) {
    const v = cfg[doc.key];
    if (typeof v === "number" && doc.min !== undefined && v < doc.min)
      errors.push(`${prefix}${doc.key}: must be >= ${doc.min}, got ${v}`);
  }
  const aliases = cfg.pci_alias;
  if (Array.isArray(aliases)) {
    const byName = new Map<string, { device_type?: string; numa_policy?: string; index: number }>();
    aliases.forEach((entry, i) => {
      const where = `${prefix}pci_alias[${i}]`;
      let spec: unknown = entry;
      if (typeof entry === "string") {
        const read = readUserJson(entry, where);
        if (!read.ok) {
          errors.push(`${where}: must be a JSON object (Nova's [pci] alias form), got ${shown(entry)}`);
          return;
        }
        spec = read.value;
      }
      const release = typeof cfg.nova_release === "string" ? cfg.nova_release : "zed";
      const r = pciAliasSchemaFor(release).safeParse(spec);
      if (!r.success) {
        for (const m of formatZodError(r.error)) {
          const extra = /^\(document\): unknown key\(s\) (.+)$/.exec(m);
          if (extra) {
            // Nova: "Additional properties are not allowed"; name each key, and the release that accepts it
            for (const k of extra[1].split(", "))
              errors.push(
                release === "zed" && (k === "resource_class" || k === "traits")
                  ? `${where}.${k}: not in Nova zed's [pci] alias schema (2023.1 and later accept it)`
                  : `${where}.${k}: not a [pci] alias field of Nova ${release} (additional properties are not allowed)`,
              );
          } else errors.push(m === "(document): " ? where : `${where}.${m}`.replace(".(document)", ""));
        }
        return;
      }
      // Nova: aliases sharing a name must agree on device type and NUMA policy (PciInvalidAlias)
      const a = r.data;
      const seen = byName.get(a.name);
      if (
        seen &&
        (seen.device_type !== a.device_type || (seen.numa_policy ?? "legacy") !== (a.numa_policy ?? "legacy"))
      ) {
        errors.push(
          `${where}.name: alias "${a.name}" is also pci_alias[${seen.index}] with another device_type or numa_policy (Nova refuses: PciInvalidAlias)`,
        );
      } else if (!seen) byName.set(a.name, { device_type: a.device_type, numa_policy: a.numa_policy, index: i });
    });
  }
  return errors;
}

function sameFlavor(a: ScenarioFlavorInput, b: ScenarioFlavorInput): boolean {
  const norm = (f: ScenarioFlavorInput) =>
    JSON.stringify([
      f.vcpus,
      f.memory_mb,
      f.root_gb ?? 0,
      f.ephemeral_gb ?? 0,
      f.swap ?? 0,
      Object.entries(f.extra_specs ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
    ]);
  return norm(a) === norm(b);
}

// ---------------------------------------------------------------------------
// One-call validation

export type Validated<T> =
  | { ok: true; value: T; errors: []; warnings: string[] }
  | { ok: false; value?: undefined; errors: string[]; warnings: string[] };

function validateWith<T extends CloudLike>(
  schema: z.ZodType<T>,
  input: unknown,
  opts: { forImport?: boolean },
): Validated<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: formatZodError(parsed.error), warnings: [] };
  const refs = checkCloudReferences(parsed.data, opts);
  if (refs.errors.length) return { ok: false, errors: refs.errors, warnings: refs.warnings };
  return { ok: true, value: parsed.data, errors: [], warnings: refs.warnings };
}

/** Shape + cross references of a scenario (request required). */
export function validateScenario(input: unknown, opts: { forImport?: boolean } = {}): Validated<ScenarioDocument> {
  // A move (request.operation) keeps the instance's flavor: its request has its own schema.
  const request = (input as { request?: unknown } | null)?.request;
  const isMove = typeof request === "object" && request !== null && "operation" in request;
  return validateWith((isMove ? MoveScenarioSchema : ScenarioSchema) as z.ZodType<ScenarioDocument>, input, opts);
}

/** Shape + cross references of a whole cloud (request optional). */
export function validateCloud(input: unknown, opts: { forImport?: boolean } = {}): Validated<CloudDocument> {
  const request = (input as { request?: unknown } | null)?.request;
  const isMove = typeof request === "object" && request !== null && "operation" in request;
  return validateWith((isMove ? MoveCloudSchema : CloudSchema) as z.ZodType<CloudDocument>, input, opts);
}

/** Parse JSON text, reporting a syntax error as a validation error. */
export function parseJsonText(
  text: string,
  source = "input",
): { ok: true; value: unknown } | { ok: false; error: string } {
  // a scenario file may be large (10,000 hosts); its depth is what must stay bounded
  const read = readUserJson(text, source, { maxBytes: Number.MAX_SAFE_INTEGER });
  return read.ok ? read : { ok: false, error: read.message.replace(": is not valid JSON", ": not valid JSON") };
}
