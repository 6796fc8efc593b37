/**
 * Placement's capacity rule, in one place: a resource provider can take a
 * demand when used + requested ≤ (total − reserved) × allocation ratio, for
 * VCPU, MEMORY_MB and DISK_GB, as the placement commit (lib/runs) asks it.
 * The scheduler's Placement path has its own model (placement/providers.ts).
 */
export interface ProviderInventory {
  vcpus: number;
  reservedVcpus: number;
  cpuAllocationRatio: number;
  vcpusUsed: number;
  memoryMb: number;
  reservedMemoryMb: number;
  ramAllocationRatio: number;
  memoryMbUsed: number;
  localGb: number;
  reservedDiskGb: number;
  diskAllocationRatio: number;
  localGbUsed: number;
}

export interface ResourceDemand {
  vcpus: number;
  memoryMb: number;
  diskGb: number;
}

export interface Shortfall {
  resourceClass: "VCPU" | "MEMORY_MB" | "DISK_GB";
  free: number;
  requested: number;
}

/** DISK_GB as Placement counts a flavor: root + ephemeral + swap rounded up to GB. */
export function flavorDiskGb(rootGb: number, ephemeralGb: number, swapMb: number): number {
  return rootGb + ephemeralGb + Math.ceil(swapMb / 1024);
}

/** The first resource class that does not fit, or null when the demand fits. */
export function resourceShortfall(p: ProviderInventory, d: ResourceDemand): Shortfall | null {
  const vcpuCap = (p.vcpus - p.reservedVcpus) * p.cpuAllocationRatio;
  if (p.vcpusUsed + d.vcpus > vcpuCap)
    return { resourceClass: "VCPU", free: vcpuCap - p.vcpusUsed, requested: d.vcpus };
  const memCap = (p.memoryMb - p.reservedMemoryMb) * p.ramAllocationRatio;
  if (p.memoryMbUsed + d.memoryMb > memCap)
    return { resourceClass: "MEMORY_MB", free: memCap - p.memoryMbUsed, requested: d.memoryMb };
  const diskCap = (p.localGb - p.reservedDiskGb) * p.diskAllocationRatio;
  if (p.localGbUsed + d.diskGb > diskCap)
    return { resourceClass: "DISK_GB", free: diskCap - p.localGbUsed, requested: d.diskGb };
  return null;
}
