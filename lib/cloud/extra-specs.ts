/**
 * Flavor extra specs as the scheduler reads them: the namespace of a key
 * (aggregate_instance_extra_specs:, capabilities:, trait:, hw:, unscoped, ...),
 * which filter reads it, what its value means in Nova's operator syntax
 * ("s== QEMU": string equal to QEMU) and why a value is malformed.
 * ONE module for the flavor editor (live) and the server-side schema.
 *
 * Pure and browser-safe: describeRequirement / EXTRA_SPEC_OPERATORS are the
 * ones lib/scheduler/index.ts exports, imported from their own module so the
 * browser bundle does not pull in the whole engine (which uses node:crypto).
 */
import { describeRequirement, EXTRA_SPEC_OPERATORS } from "@/lib/scheduler/extra-specs-ops";
import { describeHwExtraSpec } from "./hw-specs";

export { describeRequirement, EXTRA_SPEC_OPERATORS };

export type ExtraSpecNamespace =
  | "aggregate_instance_extra_specs"
  | "capabilities"
  | "trait"
  | "hw"
  | "pci_passthrough"
  | "resources"
  | "unscoped"
  | "other";

export interface ExtraSpecInfo {
  namespace: ExtraSpecNamespace;
  /** Filters / prefilters that read the key. */
  readers: string[];
  /** What the key is matched against. */
  target: string;
  /** What the value means (operator syntax), when it parses. */
  meaning: string | null;
  /** Why the value is malformed, or null. */
  error: string | null;
}

/** Trait names: A-Z, 0-9 and _ (os-traits or CUSTOM_*). */
const TRAIT = /^[A-Z0-9_]{1,255}$/;
/** Nova's flavor extra spec key rule. */
export const EXTRA_SPEC_KEY_PATTERN = /^[\w.\-: ]{1,255}$/;

export const NAMESPACE_HELP: Record<ExtraSpecNamespace, string> = {
  aggregate_instance_extra_specs:
    "aggregate_instance_extra_specs:KEY — AggregateInstanceExtraSpecsFilter: a host's aggregates must have metadata KEY matching the value",
  capabilities:
    "capabilities:ATTR — ComputeCapabilitiesFilter: the host attribute ATTR (e.g. hypervisor_type, cpu_info:vendor) must match",
  trait: "trait:NAME — traits prefilter: required or forbidden Placement trait",
  hw: "hw: — guest hardware (NUMA, CPU pinning, huge pages); read by the virt driver and NUMATopologyFilter, not matched",
  pci_passthrough: "pci_passthrough:alias — PciPassthroughFilter: PCI devices the host must have",
  resources: "resources:CLASS — Placement resource amounts",
  unscoped:
    "KEY (no namespace) — matched by AggregateInstanceExtraSpecsFilter against aggregate metadata KEY, and by ComputeCapabilitiesFilter when the host has an attribute KEY",
  other: "another namespace — not read by the scheduler's filters",
};

export function extraSpecNamespace(key: string): ExtraSpecNamespace {
  const i = key.indexOf(":");
  if (i < 0) return "unscoped";
  const ns = key.slice(0, i);
  // granular groups: resources1:VCPU, trait_gpu:CUSTOM_X
  if (/^resources[a-zA-Z0-9_-]{1,64}$/.test(ns)) return "resources";
  if (/^trait[a-zA-Z0-9_-]{1,64}$/.test(ns)) return "trait";
  if (
    ns === "aggregate_instance_extra_specs" ||
    ns === "capabilities" ||
    ns === "trait" ||
    ns === "hw" ||
    ns === "pci_passthrough" ||
    ns === "resources"
  ) {
    return ns;
  }
  return "other";
}

/** Why an extra spec key is malformed, or null. */
export function extraSpecKeyError(key: string): string | null {
  if (!key.trim()) return "key: is required";
  if (!EXTRA_SPEC_KEY_PATTERN.test(key)) {
    return "key: may only contain letters, digits, '_', '-', '.', ':' and spaces (at most 255)";
  }
  const ns = extraSpecNamespace(key);
  const rest = key.slice(key.indexOf(":") + 1);
  if (ns !== "unscoped" && ns !== "other" && !rest) return `key: ${ns}: needs a name after the ':'`;
  if (ns === "trait" && !TRAIT.test(rest)) {
    return `key: trait name "${rest}" must be upper case A-Z, 0-9 and _ (e.g. HW_CPU_X86_AVX2 or CUSTOM_SSD)`;
  }
  return null;
}

/** Namespace, readers, meaning and validity of one extra spec. */
export function describeExtraSpec(key: string, value: string): ExtraSpecInfo {
  const namespace = extraSpecNamespace(key);
  const name = namespace === "unscoped" ? key : key.slice(key.indexOf(":") + 1);
  const operatorSyntax = (readers: string[], target: string): ExtraSpecInfo => {
    if (!value.trim()) {
      return {
        namespace,
        readers,
        target,
        meaning: null,
        error: "value: is required (an operator and operand, or a plain value)",
      };
    }
    const d = describeRequirement(value);
    if (d.error) return { namespace, readers, target, meaning: null, error: `value: ${d.error}` };
    return { namespace, readers, target, meaning: d.meaning, error: null };
  };
  const hw = describeHwExtraSpec(key, value);
  if (hw) {
    const readers: Record<ExtraSpecNamespace, string[]> = {
      hw: ["NUMATopologyFilter", "virt driver"],
      pci_passthrough: ["PciPassthroughFilter", "NUMATopologyFilter"],
      resources: ["Placement"],
      trait: ["Placement"],
      aggregate_instance_extra_specs: [],
      capabilities: [],
      unscoped: ["Placement"],
      other: [],
    };
    return {
      namespace,
      readers: readers[namespace],
      target: `${hw.rule} — ${hw.help} (${hw.values})`,
      meaning: hw.meaning,
      error: hw.error,
    };
  }
  switch (namespace) {
    case "aggregate_instance_extra_specs":
      return operatorSyntax(["AggregateInstanceExtraSpecsFilter"], `aggregate metadata "${name}"`);
    case "capabilities":
      return operatorSyntax(["ComputeCapabilitiesFilter"], `host attribute "${name.replace(/:/g, ".")}"`);
    case "unscoped":
      return operatorSyntax(
        ["AggregateInstanceExtraSpecsFilter", "ComputeCapabilitiesFilter"],
        `aggregate metadata "${name}" (and host attribute "${name}" if there is one)`,
      );
    case "trait": {
      const readers = ["traits prefilter"];
      const target = `Placement trait ${name}`;
      if (value === "required")
        return { namespace, readers, target, meaning: `the host must have trait ${name}`, error: null };
      if (value === "forbidden")
        return { namespace, readers, target, meaning: `the host must not have trait ${name}`, error: null };
      return {
        namespace,
        readers,
        target,
        meaning: null,
        error: `value: trait:${name} must be "required" or "forbidden", got "${value}"`,
      };
    }
    case "hw":
      return {
        namespace,
        readers: ["NUMATopologyFilter", "virt driver"],
        target: "guest hardware",
        meaning: value ? `guest setting ${name} = ${value}` : null,
        error: value ? null : "value: is required",
      };
    case "pci_passthrough":
      return {
        namespace,
        readers: ["PciPassthroughFilter"],
        target: "PCI devices",
        meaning: value ? `PCI request ${value}` : null,
        error: value ? null : "value: is required",
      };
    case "resources": {
      if (!/^\s*\d+\s*$/.test(value)) {
        return {
          namespace,
          readers: ["Placement"],
          target: `resource class ${name}`,
          meaning: null,
          error: `value: resources:${name} must be a whole number, got "${value}"`,
        };
      }
      return {
        namespace,
        readers: ["Placement"],
        target: `resource class ${name}`,
        meaning: `${value.trim()} of ${name}`,
        error: null,
      };
    }
    default:
      return {
        namespace,
        readers: [],
        target: "not read by the scheduler's filters",
        meaning: value ? `stored as "${value}"` : null,
        error: null,
      };
  }
}

/** Why a value is malformed for key, or null (server-side rule = client-side rule). */
export function extraSpecValueError(key: string, value: string): string | null {
  if (value.length > 255) return "value: must be at most 255 characters";
  return describeExtraSpec(key, value).error;
}
