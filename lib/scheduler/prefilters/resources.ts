import type { PrefilterFactory } from "../plugin";
import { flavorDiskGb, resourceShortfall } from "../placement-capacity";

const WORDING = {
  VCPU: (free: number, n: number) => `VCPU: ${free} free < ${n} requested`,
  MEMORY_MB: (free: number, n: number) => `MEMORY_MB: free RAM ${free} MB < ${n} MB requested`,
  DISK_GB: (free: number, n: number) => `DISK_GB: free disk ${free} GB < ${n} GB requested`,
} as const;

/**
 * Placement allocation candidates: each resource class must fit in
 * (total - reserved) × allocation_ratio - used.
 */
export const ResourcesPrefilter: PrefilterFactory = () => ({
  name: "resources",
  check(host, spec) {
    const f = spec.flavor;
    const short = resourceShortfall(
      {
        vcpus: host.vcpusTotal,
        reservedVcpus: host.reservedVcpus,
        cpuAllocationRatio: host.cpuAllocationRatio,
        vcpusUsed: host.vcpusUsed,
        memoryMb: host.memoryMb,
        reservedMemoryMb: host.reservedMemoryMb,
        ramAllocationRatio: host.ramAllocationRatio,
        memoryMbUsed: host.memoryMb - host.freeRamMb,
        localGb: host.localGb,
        reservedDiskGb: host.reservedDiskGb,
        diskAllocationRatio: host.diskAllocationRatio,
        localGbUsed: host.localGb - host.freeDiskMb / 1024,
      },
      { vcpus: f.vcpus, memoryMb: f.memoryMb, diskGb: flavorDiskGb(f.rootGb, f.ephemeralGb, f.swap) },
    );
    return short ? WORDING[short.resourceClass](short.free, short.requested) : null;
  },
});
