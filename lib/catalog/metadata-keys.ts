/**
 * Aggregate metadata keys the scheduler reads: which filter or weigher reads
 * each key, and what its value must look like. ONE module, used by the
 * metadata editor (live hints, client-side checks), the aggregate and host
 * pages and the server-side schema (lib/cloud/form-schemas.ts), so all
 * agree. The keys and their readers come from the descriptors
 * (lib/scheduler/knowledge.ts): a filter that reads a new key shows here
 * with no edit. Pure: it runs in the browser too.
 */
import { type FilterKnowledge, KNOWLEDGE } from "@/lib/scheduler/knowledge";
import { IMAGE_META_FIELDS, LEGACY_IMAGE_PROPERTIES } from "@/lib/scheduler/image-meta-fields";
import type { MetadataValueRule } from "@/lib/scheduler/plugin";
import { pyFloat, pyInt } from "@/lib/scheduler/python";

export type MetadataKeyKind = MetadataValueRule["kind"] | "multiplier" | "image_property" | "extra_spec";

export interface MetadataKeyInfo {
  key: string;
  kind: MetadataKeyKind;
  /** The filter or weigher that reads this key. */
  reader: string;
  /** One line: what the reader does with the value. */
  meaning: string;
  /** What a valid value looks like (placeholder / help). */
  valueHint: string;
  /** How the reader parses the value (keys read by name). */
  rule?: MetadataValueRule;
}

/** Aggregate keys the removed AggregateCoreFilter / AggregateRamFilter / AggregateDiskFilter read. */
const ALLOCATION_RATIO_KEYS = new Set(["cpu_allocation_ratio", "ram_allocation_ratio", "disk_allocation_ratio"]);

/** Image properties worth suggesting as keys AggregateImagePropertiesIsolation matches. */
const SUGGESTED_IMAGE_PROPERTY_KEYS = ["hw_architecture", "img_hv_type", "os_distro"];

function isImageProperty(key: string, namespace?: string | null, separator = "."): boolean {
  let k = key;
  if (namespace) {
    const prefix = namespace + separator;
    if (!k.startsWith(prefix)) return false;
    k = k.slice(prefix.length);
  }
  return Object.hasOwn(IMAGE_META_FIELDS, k) || Object.hasOwn(LEGACY_IMAGE_PROPERTIES, k);
}

export interface DescribeOptions {
  imagePropertiesNamespace?: string | null;
  imagePropertiesSeparator?: string;
}

/** The catalogue of one set of descriptors (the registry's, or a test's). */
export function metadataCatalog(k: FilterKnowledge) {
  /** Which filter or weigher reads `key`, and what it does with the value. */
  function describeMetadataKey(key: string, opts: DescribeOptions = {}): MetadataKeyInfo {
    const read = k.metadataKeys.get(key);
    if (read)
      return {
        key,
        kind: read.value.kind,
        reader: read.reader,
        meaning: read.meaning,
        valueHint: read.valueHint,
        rule: read.value,
      };
    const mult = k.multipliers.get(key);
    if (mult) {
      return {
        key,
        kind: "multiplier",
        reader: mult.weigher,
        meaning: `overrides the ${mult.weigher} multiplier for these hosts (lowest value across a host's aggregates wins)`,
        valueHint: mult.min === undefined ? "a number, e.g. -1.0" : `a number >= ${mult.min}, e.g. 2.0`,
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

  /** Why `value` is not acceptable for `key` (the rule of the filter or weigher that reads it), or null. */
  function metadataValueError(key: string, value: string): string | null {
    if (value.length > 255) return `value: ${key} must be at most 255 characters`;
    const info = describeMetadataKey(key);
    if (info.rule) return ruleError(key, value, info.rule);
    if (info.kind !== "multiplier") return null;
    let n: number;
    try {
      n = pyFloat(value);
    } catch {
      return `value: ${key} must be a number (Python float() syntax, e.g. -1.0), got "${value}"`;
    }
    if (!Number.isFinite(n)) return `value: ${key} must be a finite number, got "${value}"`;
    const min = k.multipliers.get(key)?.min;
    if (min !== undefined && n < min) {
      return `value: ${key} must be >= ${min} (${info.reader} rejects negative multipliers), got ${value.trim()}`;
    }
    return null;
  }

  /** Keys worth suggesting in the editor (datalist). */
  const suggestedKeys: string[] = [...k.metadataKeys.keys(), ...k.multipliers.keys(), ...SUGGESTED_IMAGE_PROPERTY_KEYS];

  return { describeMetadataKey, metadataValueError, suggestedKeys };
}

function ruleError(key: string, value: string, rule: MetadataValueRule): string | null {
  switch (rule.kind) {
    case "zone":
      if (!value.trim()) return `value: ${key} must not be empty`;
      if (value.includes(":")) return `value: ${key} must not contain ':'`;
      return null;
    case "list":
      if (!value.trim()) return `value: ${key} must list at least one ${rule.of} (empty rejects every request)`;
      return null;
    case "whole_number": {
      let n: number;
      try {
        n = pyInt(value);
      } catch {
        return `value: ${key} must be a whole number (Python int() syntax), got "${value}"`;
      }
      if (n < 0) return `value: ${key} must be >= 0, got ${n}`;
      return null;
    }
  }
}

const REGISTRY = metadataCatalog(KNOWLEDGE);

/** Which filter or weigher of the registry reads `key`, and what it does with the value. */
export const describeMetadataKey = REGISTRY.describeMetadataKey;
/** Why `value` is not acceptable for `key`, or null. */
export const metadataValueError = REGISTRY.metadataValueError;
/** Keys worth suggesting in the editor (datalist). */
export const SUGGESTED_METADATA_KEYS: readonly string[] = REGISTRY.suggestedKeys;

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
