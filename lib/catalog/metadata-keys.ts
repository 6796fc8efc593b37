/**
 * Aggregate metadata keys the scheduler reads: which filter or weigher reads
 * each key, and what its value must look like. ONE module, used by the
 * metadata editor (live hints, client-side checks) and by the server-side
 * schema (lib/cloud/form-schemas.ts), so both always agree.
 *
 * Pure: no Prisma, Next.js or Node imports (it runs in the browser too), so
 * it names its readers rather than importing their descriptors (the filters
 * reach Node's crypto); metadata-keys.test.ts holds each reader's
 * descriptor (`reads.metadata`, `multiplier`) to this table.
 */
import { IMAGE_META_FIELDS, LEGACY_IMAGE_PROPERTIES } from "@/lib/scheduler/image-meta-fields";
import type { FilterName, WeigherName } from "@/lib/scheduler/names";
import { pyFloat, pyInt } from "@/lib/scheduler/python";

export type MetadataKeyKind =
  | "availability_zone"
  | "tenant"
  | "instance_type"
  | "max_int"
  | "multiplier"
  | "image_property"
  | "extra_spec";

export interface MetadataKeyInfo {
  key: string;
  kind: MetadataKeyKind;
  /** The filter or weigher that reads this key. */
  reader: FilterName | WeigherName;
  /** One line: what the reader does with the value. */
  meaning: string;
  /** What a valid value looks like (placeholder / help). */
  valueHint: string;
}

/** `<prefix>_weight_multiplier` → the weigher that reads it (per-aggregate override). */
export const WEIGHT_MULTIPLIER_KEYS: Record<string, { weigher: WeigherName; nonNegative: boolean }> = {
  ram_weight_multiplier: { weigher: "RAMWeigher", nonNegative: false },
  cpu_weight_multiplier: { weigher: "CPUWeigher", nonNegative: false },
  disk_weight_multiplier: { weigher: "DiskWeigher", nonNegative: false },
  io_ops_weight_multiplier: { weigher: "IoOpsWeigher", nonNegative: false },
  pci_weight_multiplier: { weigher: "PCIWeigher", nonNegative: true },
  soft_affinity_weight_multiplier: { weigher: "ServerGroupSoftAffinityWeigher", nonNegative: true },
  soft_anti_affinity_weight_multiplier: { weigher: "ServerGroupSoftAntiAffinityWeigher", nonNegative: true },
  build_failure_weight_multiplier: { weigher: "BuildFailureWeigher", nonNegative: false },
  cross_cell_move_weight_multiplier: { weigher: "CrossCellWeigher", nonNegative: false },
  metrics_weight_multiplier: { weigher: "MetricsWeigher", nonNegative: false },
  hypervisor_version_weight_multiplier: { weigher: "HypervisorVersionWeigher", nonNegative: false },
  num_instances_weight_multiplier: { weigher: "NumInstancesWeigher", nonNegative: false },
  image_props_weight_multiplier: { weigher: "ImagePropertiesWeigher", nonNegative: false },
};

const FIXED: Record<string, Omit<MetadataKeyInfo, "key">> = {
  availability_zone: {
    kind: "availability_zone",
    reader: "AvailabilityZoneFilter",
    meaning: "the availability zone of the aggregate's hosts; requests for another zone skip them",
    valueHint: "a zone name, e.g. az1 (no ':')",
  },
  filter_tenant_id: {
    kind: "tenant",
    reader: "AggregateMultiTenancyIsolation",
    meaning: "only these projects may boot on the aggregate's hosts",
    valueHint: "project ids, comma separated",
  },
  instance_type: {
    kind: "instance_type",
    reader: "AggregateTypeAffinityFilter",
    meaning: "only these flavors may boot on the aggregate's hosts",
    valueHint: "flavor names, comma separated",
  },
  max_instances_per_host: {
    kind: "max_int",
    reader: "AggregateNumInstancesFilter",
    meaning: "a host with this many instances is full (overrides max_instances_per_host; lowest value wins)",
    valueHint: "a whole number, e.g. 50",
  },
  max_io_ops_per_host: {
    kind: "max_int",
    reader: "AggregateIoOpsFilter",
    meaning: "a host with this many I/O operations is busy (overrides max_io_ops_per_host; lowest value wins)",
    valueHint: "a whole number, e.g. 8",
  },
};

/** Aggregate keys the removed AggregateCoreFilter / AggregateRamFilter / AggregateDiskFilter read. */
const ALLOCATION_RATIO_KEYS = new Set(["cpu_allocation_ratio", "ram_allocation_ratio", "disk_allocation_ratio"]);

/** Keys worth suggesting in the editor (datalist). */
export const SUGGESTED_METADATA_KEYS: string[] = [
  ...Object.keys(FIXED),
  ...Object.keys(WEIGHT_MULTIPLIER_KEYS),
  "hw_architecture",
  "img_hv_type",
  "os_distro",
];

function isImageProperty(key: string, namespace?: string | null, separator = "."): boolean {
  let k = key;
  if (namespace) {
    const prefix = namespace + separator;
    if (!k.startsWith(prefix)) return false;
    k = k.slice(prefix.length);
  }
  return Object.hasOwn(IMAGE_META_FIELDS, k) || Object.hasOwn(LEGACY_IMAGE_PROPERTIES, k);
}

/** Which filter or weigher reads `key`, and what it does with the value. */
export function describeMetadataKey(
  key: string,
  opts: { imagePropertiesNamespace?: string | null; imagePropertiesSeparator?: string } = {},
): MetadataKeyInfo {
  const fixed = FIXED[key];
  if (fixed) return { key, ...fixed };
  const mult = WEIGHT_MULTIPLIER_KEYS[key];
  if (mult) {
    return {
      key,
      kind: "multiplier",
      reader: mult.weigher,
      meaning: `overrides the ${mult.weigher} multiplier for these hosts (lowest value across a host's aggregates wins)`,
      valueHint: mult.nonNegative ? "a number >= 0, e.g. 2.0" : "a number, e.g. -1.0",
    };
  }
  if (isImageProperty(key, opts.imagePropertiesNamespace, opts.imagePropertiesSeparator)) {
    return {
      key,
      kind: "image_property",
      reader: "AggregateImagePropertiesIsolation",
      meaning: `images whose ${key} property is set must have one of these values`,
      valueHint: "allowed values, comma separated",
    };
  }
  if (ALLOCATION_RATIO_KEYS.has(key)) {
    return {
      key,
      kind: "extra_spec",
      reader: "AggregateInstanceExtraSpecsFilter",
      meaning: `Nova no longer reads allocation ratios from aggregates (the Aggregate Core/Ram/Disk filters were removed in Train): set ${key} on the hosts (nova.conf or Placement inventory). Here it is only metadata, matched against flavor extra spec aggregate_instance_extra_specs:${key}`,
      valueHint: "not read as a ratio; set it on the hosts",
    };
  }
  return {
    key,
    kind: "extra_spec",
    reader: "AggregateInstanceExtraSpecsFilter",
    meaning: `matched against flavor extra spec aggregate_instance_extra_specs:${key}`,
    valueHint: "any value, e.g. true",
  };
}

/** Nova's aggregate metadata key rule (1-255 of A-Z a-z 0-9 - _ : . and space). */
export const METADATA_KEY_PATTERN = /^[a-zA-Z0-9\-_:. ]{1,255}$/;

/** Why a metadata key is not acceptable, or null. */
export function metadataKeyError(key: string): string | null {
  if (!key.trim()) return "key: is required";
  if (key !== key.trim()) return "key: must not start or end with spaces";
  if (!METADATA_KEY_PATTERN.test(key)) {
    return "key: may only contain letters, digits, '-', '_', ':', '.' and spaces (at most 255)";
  }
  return null;
}

/** Why `value` is not acceptable for `key` (the rule of the filter or weigher that reads it), or null. */
export function metadataValueError(key: string, value: string): string | null {
  if (value.length > 255) return `value: ${key} must be at most 255 characters`;
  const info = describeMetadataKey(key);
  switch (info.kind) {
    case "availability_zone":
      if (!value.trim()) return "value: availability_zone must not be empty";
      if (value.includes(":")) return "value: availability_zone must not contain ':'";
      return null;
    case "tenant":
      if (!value.trim())
        return "value: filter_tenant_id must list at least one project id (empty rejects every request)";
      return null;
    case "instance_type":
      if (!value.trim()) return "value: instance_type must list at least one flavor name (empty rejects every request)";
      return null;
    case "max_int": {
      let n: number;
      try {
        n = pyInt(value);
      } catch {
        return `value: ${key} must be a whole number (Python int() syntax), got "${value}"`;
      }
      if (n < 0) return `value: ${key} must be >= 0, got ${n}`;
      return null;
    }
    case "multiplier": {
      let n: number;
      try {
        n = pyFloat(value);
      } catch {
        return `value: ${key} must be a number (Python float() syntax, e.g. -1.0), got "${value}"`;
      }
      if (!Number.isFinite(n)) return `value: ${key} must be a finite number, got "${value}"`;
      if (WEIGHT_MULTIPLIER_KEYS[key].nonNegative && n < 0) {
        return `value: ${key} must be >= 0 (${info.reader} rejects negative multipliers), got ${value.trim()}`;
      }
      return null;
    }
    default:
      return null;
  }
}
