/**
 * nova/pci/request.py: [pci] alias entries checked against Nova's JSON
 * schema, and the flavor's `pci_passthrough:alias` turned into PCI requests.
 * Every malformed alias is PciInvalidAlias, as in Nova.
 */
import { NovaError, pyInt, pyStrip } from "../python";

export type PciSpec = Record<string, string>;

/** objects.InstancePCIRequest, as far as the scheduler reads it. */
export interface PciRequest {
  count: number;
  spec: PciSpec[];
  aliasName: string;
  numaPolicy: string | null;
}

type Aliases = Map<string, { numaPolicy: string; specs: PciSpec[] }>;

const VENDOR = /^[\da-fA-F]{4}\n?$/;
const ENUMS: Record<string, string[]> = {
  capability_type: ["pci"],
  device_type: ["type-PCI", "type-PF", "type-VF"],
  numa_policy: ["required", "legacy", "preferred", "socket"],
};

const invalid = (reason: string): never => {
  throw new NovaError("PciInvalidAlias", `Invalid PCI alias definition: ${reason}`);
};

/** _ALIAS_SCHEMA: the reason Nova would give, or null when the alias is valid. */
export function aliasSchemaError(spec: unknown): string | null {
  if (spec === null || typeof spec !== "object" || Array.isArray(spec))
    return `${JSON.stringify(spec)} is not of type 'object'`;
  const o = spec as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if (!["name", "capability_type", "product_id", "vendor_id", "device_type", "numa_policy"].includes(k))
      return `Additional properties are not allowed ('${k}' was unexpected)`;
    if (typeof v !== "string") return `${JSON.stringify(v)} is not of type 'string'`;
    if (k === "name" && ([...v].length < 1 || [...v].length > 256)) return `name must have 1 to 256 characters`;
    if ((k === "product_id" || k === "vendor_id") && !VENDOR.test(v)) return `'${v}' does not match the ${k} pattern`;
    if (ENUMS[k] && !ENUMS[k].includes(v)) return `'${v}' is not one of ${JSON.stringify(ENUMS[k])}`;
  }
  if (!("name" in o)) return "'name' is a required property";
  return null;
}

/** _get_alias_from_config: name -> (numa_policy, specs); one alias may list several devices. */
export function aliasesFromConfig(entries: ReadonlyArray<unknown>, requireIds = false): Aliases {
  const aliases: Aliases = new Map();
  for (const entry of entries) {
    let spec: unknown = entry;
    if (typeof entry === "string") {
      try {
        spec = JSON.parse(entry);
      } catch {
        invalid(`'${entry}' is not JSON`);
      }
    }
    const reason = aliasSchemaError(spec);
    if (reason) invalid(reason);
    const { name: rawName, numa_policy, device_type, ...rest } = spec as Record<string, string>;
    const name = pyStrip(rawName);
    const numaPolicy = numa_policy || "legacy";
    const device: PciSpec = { ...rest };
    if (device_type) device.dev_type = device_type;
    const known = aliases.get(name);
    if (!known) {
      aliases.set(name, { numaPolicy, specs: [device] });
      continue;
    }
    if (known.numaPolicy !== numaPolicy) invalid(`NUMA policy mismatch for alias '${name}'`);
    // Nova compares spec['dev_type'] directly: a missing one is a KeyError, also PciInvalidAlias.
    if (!("dev_type" in known.specs[0]) || !("dev_type" in device) || known.specs[0].dev_type !== device.dev_type)
      invalid(`Device type mismatch for alias '${name}'`);
    known.specs.push(device);
  }
  if (requireIds) {
    // _validate_required_ids (32.0.0, [filter_scheduler] pci_in_placement off):
    // matching on a vendor or a product alone is refused
    const without = [...aliases]
      .filter(([, a]) => a.specs.some((d) => !("vendor_id" in d && "product_id" in d)))
      .map(([name]) => name)
      .sort();
    if (without.length)
      throw new NovaError(
        "PciInvalidAlias",
        `The PCI alias(es) ${without.join(",")} does not have vendor_id and product_id fields set.`,
      );
  }
  return aliases;
}

/** get_pci_requests_from_flavor: `pci_passthrough:alias` = "name:count[,name:count]". */
export function pciRequestsFromFlavor(
  aliasSpec: string | undefined,
  aliasConfig: ReadonlyArray<unknown>,
  affinityPolicy: string | null,
  /** The release refuses an alias without vendor_id and product_id (2025.2+). */
  requireIds = false,
): PciRequest[] {
  if (aliasSpec === undefined) return [];
  const aliases = aliasesFromConfig(aliasConfig, requireIds);
  const requests: PciRequest[] = [];
  for (const item of aliasSpec.split(",")) {
    const parts = item.split(":");
    if (parts.length !== 2) throw new NovaError("ValueError", `pci_passthrough:alias: '${item}' is not name:count`);
    const name = pyStrip(parts[0]);
    const alias = aliases.get(name);
    if (!alias) throw new NovaError("PciRequestAliasNotDefined", `PCI alias ${name} is not defined`);
    requests.push({
      count: pyInt(parts[1]),
      spec: alias.specs,
      aliasName: name,
      numaPolicy: affinityPolicy || alias.numaPolicy,
    });
  }
  return requests;
}
