/**
 * The NUMA and PCI parts of a boot request, built once before the host
 * loop as nova-api builds them (compute/api.py, in its order):
 * numa_get_constraints, get_pci_numa_policy_constraint, then
 * get_pci_requests_from_flavor.
 */
import { pyInt } from "../python";
import type { ImageProps } from "../image-meta";
import { pciRequestsFromFlavor, type PciRequest } from "../pci/request";
import { type FlavorView, numaGetConstraints, pciNumaPolicyConstraint } from "./constraints";
import { parseCpuSpec } from "./cpu-spec";
import type { InstanceNUMATopology } from "./objects";
import { PySet } from "./pyset";

/** ImageMetaProps' hw_numa_cpus / hw_numa_mem lists ("hw_numa_cpus.0", ".1", ...). */
function imageCellLists(properties: Record<string, unknown>): [PySet[] | null, number[] | null] {
  const read = <T>(key: string, f: (v: unknown) => T): T[] | null => {
    const out: T[] = [];
    for (let i = 0; i < 128 && `${key}.${i}` in properties; i++) out.push(f(properties[`${key}.${i}`]));
    return out.length ? out : null;
  };
  // Invalid values already failed when the image properties were built.
  const cpus = read("hw_numa_cpus", (v) => PySet.coerce(parseCpuSpec(String(v))));
  const mem = read("hw_numa_mem", (v) => (typeof v === "number" ? Math.trunc(v) : pyInt(String(v))));
  return [cpus, mem];
}

/** What of a RequestSpec the NUMA and PCI requests are built from. */
export interface NumaRequestSource {
  flavor: { name: string; vcpus: number; memoryMb: number; extraSpecs: ReadonlyArray<{ key: string; value: string }> };
  imageProps: ImageProps;
}

export function buildNumaRequest(
  spec: NumaRequestSource,
  imageProperties: Record<string, unknown>,
  pciAlias: unknown[],
  pciAliasRequiresIds = false,
): { numaTopology: InstanceNUMATopology | null; pciRequests: PciRequest[] } {
  const f = spec.flavor;
  const flavor: FlavorView = {
    name: f.name,
    vcpus: f.vcpus,
    memoryMb: f.memoryMb,
    extraSpecs: new Map(f.extraSpecs.map((e) => [e.key, e.value])),
  };
  const [imageCpus, imageMem] = imageCellLists(imageProperties);
  const numaTopology = numaGetConstraints(flavor, spec.imageProps, imageCpus, imageMem);
  const policy = pciNumaPolicyConstraint(flavor, spec.imageProps);
  const pciRequests = pciRequestsFromFlavor(
    flavor.extraSpecs.get("pci_passthrough:alias"),
    pciAlias,
    policy,
    pciAliasRequiresIds,
  );
  return { numaTopology, pciRequests };
}
