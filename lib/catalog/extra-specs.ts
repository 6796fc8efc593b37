/**
 * Flavor extra specs as the scheduler reads them: the namespace of a key
 * (aggregate_instance_extra_specs:, capabilities:, trait:, hw:, unscoped, ...),
 * which filter reads it, what its value means in Nova's operator syntax
 * ("s== QEMU": string equal to QEMU) and why a value is malformed.
 * ONE module for the flavor editor (live) and the server-side schema. The
 * filters that read a key come from their descriptors (`reads.extraSpecs`);
 * Placement, the traits prefilter and the virt driver, not filters, are
 * named here.
 */
import { describeRequirement, EXTRA_SPEC_OPERATORS } from "@/lib/scheduler/extra-specs-ops";
import { KNOWLEDGE } from "@/lib/scheduler/knowledge";
import { describeHwExtraSpec } from "./hw-specs";
import { novaExtraSpecError, novaValidatorFor } from "./extra-spec-validators";

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
  /** Why nova-api refuses the spec (its own words), or null. */
  error: string | null;
  /** What nova-api accepts but the scheduler will read in a way that is likely not meant (an operator without operand, ...). */
  warning?: string;
  /** Nova's description of the key, from its validator. */
  novaHelp?: string;
}

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

/**
 * Why an extra spec key is refused, or null: the flavor API's key pattern,
 * then nova-api's validators (a key in a namespace Nova knows that no
 * validator matches, e.g. hw:cpu_polcy).
 */
export function extraSpecKeyError(key: string): string | null {
  if (!key.trim()) return "key: is required";
  if (!EXTRA_SPEC_KEY_PATTERN.test(key)) {
    return "key: may only contain letters, digits, '_', '-', '.', ':' and spaces (at most 255)";
  }
  if (novaValidatorFor(key)) return null;
  const unknown = novaExtraSpecError(key, "");
  return unknown ? `key: ${unknown}` : null;
}

/** Namespace, readers, meaning and nova-api's verdict of one extra spec. */
export function describeExtraSpec(key: string, value: string): ExtraSpecInfo {
  const info = describeForScheduler(key, value);
  const validator = novaValidatorFor(key);
  const nova = novaExtraSpecError(key, value);
  const novaHelp = validator ? { novaHelp: validator.description } : {};
  if (nova) return { ...info, ...novaHelp, meaning: null, error: nova };
  // nova-api accepts it: what we would have refused is the scheduler's reading, a warning
  const { error, ...rest } = info;
  return { ...rest, ...novaHelp, error: null, ...(error ? { warning: error.replace(/^value: /, "") } : {}) };
}

function describeForScheduler(key: string, value: string): ExtraSpecInfo {
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
  const filters = KNOWLEDGE.extraSpecReaders(key);
  const hw = describeHwExtraSpec(key, value);
  if (hw) {
    // hw-specs words the guest hardware keys Nova reads outside the filters too.
    const outside: Record<ExtraSpecNamespace, string[]> = {
      hw: ["virt driver"],
      pci_passthrough: [],
      resources: ["Placement"],
      trait: ["Placement"],
      aggregate_instance_extra_specs: [],
      capabilities: [],
      unscoped: ["Placement"],
      other: [],
    };
    const inside = namespace === "hw" || namespace === "pci_passthrough" ? filters : [];
    return {
      namespace,
      readers: [...inside, ...outside[namespace]],
      target: `${hw.rule} — ${hw.help} (${hw.values})`,
      meaning: hw.meaning,
      error: hw.error,
    };
  }
  switch (namespace) {
    case "aggregate_instance_extra_specs":
      return operatorSyntax(filters, `aggregate metadata "${name}"`);
    case "capabilities":
      return operatorSyntax(filters, `host attribute "${name.replace(/:/g, ".")}"`);
    case "unscoped":
      return operatorSyntax(filters, `aggregate metadata "${name}" (and host attribute "${name}" if there is one)`);
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
        readers: [...filters, "virt driver"],
        target: "guest hardware",
        meaning: value ? `guest setting ${name} = ${value}` : null,
        error: value ? null : "value: is required",
      };
    case "pci_passthrough":
      return {
        namespace,
        readers: filters,
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

/** Why nova-api refuses the value for key, or null (server-side rule = client-side rule). */
export function extraSpecValueError(key: string, value: string): string | null {
  if (value.length > 255) return "value: must be at most 255 characters";
  if (!novaValidatorFor(key)) return null; // an unknown key is the key's error
  const error = novaExtraSpecError(key, value);
  return error ? `value: ${error}` : null;
}

/** Every extra spec nova-api refuses, as `{ key, error }` (Nova's message). */
export function extraSpecErrors(specs: Record<string, string>): { key: string; error: string }[] {
  const out: { key: string; error: string }[] = [];
  for (const [k, v] of Object.entries(specs)) {
    const error = novaExtraSpecError(k, String(v));
    if (error) out.push({ key: k, error });
  }
  return out;
}
