import type { PrefilterFactory } from '../plugin';

/**
 * Placement allocation candidates: each resource class must fit in
 * (total - reserved) × allocation_ratio - used.
 */
export const ResourcesPrefilter: PrefilterFactory = () => ({
  name: 'resources',
  check(host, spec) {
    const f = spec.flavor;
    const vcpuCap = (host.vcpusTotal - host.reservedVcpus) * host.cpuAllocationRatio;
    if (host.vcpusUsed + f.vcpus > vcpuCap) {
      return `VCPU: ${vcpuCap - host.vcpusUsed} free < ${f.vcpus} requested`;
    }
    const memCap = (host.memoryMb - host.reservedMemoryMb) * host.ramAllocationRatio;
    const memUsed = host.memoryMb - host.freeRamMb;
    if (memUsed + f.memoryMb > memCap) {
      return `MEMORY_MB: free RAM ${memCap - memUsed} MB < ${f.memoryMb} MB requested`;
    }
    const diskGb = f.rootGb + f.ephemeralGb + Math.ceil(f.swap / 1024);
    const diskCap = (host.localGb - host.reservedDiskGb) * host.diskAllocationRatio;
    const diskUsed = host.localGb - host.freeDiskMb / 1024;
    if (diskUsed + diskGb > diskCap) {
      return `DISK_GB: free disk ${diskCap - diskUsed} GB < ${diskGb} GB requested`;
    }
    return null;
  },
});
