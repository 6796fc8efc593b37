/**
 * nova-api's flavor extra spec validation (microversion 2.86+), as
 * nova.api.validation.extra_specs.validators.validate() does it: the
 * validator registered under the exact name, else the first whose name
 * pattern matches, checks the value; a name no validator matches is refused
 * when its namespace (the part before the first ':') is one Nova knows, and
 * let through otherwise. Messages are Nova's own.
 *
 * Pure and browser-safe: the flavor editor checks live with it.
 */
import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from "@/lib/scheduler/placement/standard-names";
import { NOVA_EXTRA_SPEC_REGISTRY, NOVA_NAMESPACES, type NovaValueRule } from "./extra-spec-registry";

export interface NovaValidator {
  /** Nova's name, e.g. "hw:numa_cpus.{num}". */
  name: string;
  regex: RegExp;
  value: NovaValueRule;
  valueRegex: RegExp | null;
  description: string;
  deprecated: boolean;
}

const GROUP = "(?<group>([a-zA-Z0-9_-]{1,64})?)";
const full = (re: string) => new RegExp(`^(?:${re})$`);

function validator(
  name: string,
  regex: string,
  value: NovaValueRule,
  description: string,
  deprecated = false,
): NovaValidator {
  return {
    name,
    regex: full(regex),
    value,
    valueRegex: value.type === "str" && value.pattern ? full(value.pattern) : null,
    description,
    deprecated,
  };
}

/** The registry in Nova's order (a name is checked by the first validator it matches). */
export const NOVA_VALIDATORS: NovaValidator[] = NOVA_EXTRA_SPEC_REGISTRY.flatMap((row) => {
  if ("kind" in row && row.kind === "traits") {
    const rule: NovaValueRule = { type: "str", enum: ["required", "forbidden"] };
    return [
      ...[...STANDARD_TRAITS].map((t) =>
        validator(`trait{group}:${t}`, `trait${GROUP}:${t}`, rule, `Require or forbid trait ${t}.`),
      ),
      validator(
        "trait{group}:CUSTOM_{trait}",
        `trait${GROUP}:CUSTOM_(?<trait>[A-Z0-9_]+)`,
        rule,
        "Require or forbid trait CUSTOM_{trait}.",
      ),
    ];
  }
  if ("kind" in row && row.kind === "resources") {
    const rule: NovaValueRule = { type: "int" };
    return [
      validator(
        "resources{group}:CUSTOM_{resource}",
        `resources${GROUP}:CUSTOM_(?<resource>[A-Z0-9_]+)`,
        rule,
        "The amount of resource CUSTOM_{resource} requested.",
      ),
      ...STANDARD_RESOURCE_CLASSES.map((c) =>
        validator(`resources{group}:${c}`, `resources${GROUP}:${c}`, rule, `The amount of resource ${c} requested.`),
      ),
    ];
  }
  const r = row as Exclude<typeof row, { kind: string }>;
  return [validator(r.name, r.regex, r.value, r.description, r.deprecated)];
});

const BY_NAME = new Map(NOVA_VALIDATORS.map((v) => [v.name, v]));
const NAMESPACE_RES = NOVA_NAMESPACES.map(full);

/** The validator Nova checks `name` with, or null. */
export function novaValidatorFor(name: string): NovaValidator | null {
  return BY_NAME.get(name) ?? NOVA_VALIDATORS.find((v) => v.regex.test(name)) ?? null;
}

/** Python's int() of a str: optional sign and surrounding whitespace, digits with single underscores. */
const PY_INT = /^\s*[+-]?\d+(_\d+)*\s*$/;
const BOOL_STRINGS = ["1", "t", "true", "on", "y", "yes", "0", "f", "false", "off", "n", "no"];

function checkValue(v: NovaValidator, value: string): string | null {
  const rule = v.value;
  if (rule.type === "int") {
    if (!PY_INT.test(value)) return `Validation failed; '${value}' is not a valid integer value.`;
    const n = Number(value.replace(/_/g, ""));
    if (rule.max !== undefined && rule.max < n)
      return `Validation failed; '${n}' is greater than the max value of '${rule.max}'.`;
    if (rule.min !== undefined && rule.min > n)
      return `Validation failed; '${n}' is less than the min value of '${rule.min}'.`;
    return null;
  }
  if (rule.type === "bool") {
    // oslo_utils.strutils.bool_from_string(strict=True)
    return BOOL_STRINGS.includes(value.trim().toLowerCase())
      ? null
      : `Validation failed; '${value}' is not a valid boolean-like value.`;
  }
  if (v.valueRegex) {
    return v.valueRegex.test(value) ? null : `Validation failed; '${value}' is not of the format '${rule.pattern}'.`;
  }
  if (rule.enum && !rule.enum.includes(value))
    return `Validation failed; '${value}' is not one of: ${rule.enum.join(", ")}.`;
  return null;
}

/** Nova's refusal of an extra spec (its message), or null when nova-api accepts it. */
export function novaExtraSpecError(name: string, value: string): string | null {
  const v = novaValidatorFor(name);
  if (v) return checkValue(v, value);
  const i = name.indexOf(":");
  if (i < 0) return null;
  const ns = name.slice(0, i);
  if (!NAMESPACE_RES.some((re) => re.test(ns))) return null;
  return `Validation failed; extra spec '${name}' does not appear to be a valid extra spec.`;
}
