/**
 * Does a host still have room? The rules the engine's Placement "resources"
 * prefilter applies (capacity = (total - reserved) × allocation ratio, used
 * from the host's counters), plus the service state ComputeFilter checks.
 * Pure, used by the commit transaction.
 */

export interface HostCapacity {
  name: string;
  vcpus: number;
  vcpusUsed: number;
  memoryMb: number;
  memoryMbUsed: number;
  localGb: number;
  localGbUsed: number;
  freeRamMb: number | null;
  freeDiskGb: number | null;
  diskAvailableLeast: number | null;
  reservedVcpus: number;
  reservedMemoryMb: number;
  reservedDiskGb: number;
  cpuAllocationRatio: number;
  ramAllocationRatio: number;
  diskAllocationRatio: number;
  serviceDisabled: boolean;
  serviceUp: boolean;
  forcedDown: boolean;
}

export interface Demand {
  vcpus: number;
  memoryMb: number;
  /** root + ephemeral + swap (rounded up to GB) */
  diskGb: number;
}

export interface FlavorSize {
  vcpus: number;
  memory_mb: number;
  root_gb?: number;
  ephemeral_gb?: number;
  swap?: number;
}

/** What `count` instances of a flavor take (disk as Placement counts it: root + ephemeral + swap). */
export function demandOf(f: FlavorSize, count = 1): Demand {
  return {
    vcpus: f.vcpus * count,
    memoryMb: f.memory_mb * count,
    diskGb: ((f.root_gb ?? 0) + (f.ephemeral_gb ?? 0) + Math.ceil((f.swap ?? 0) / 1024)) * count,
  };
}

export function freeRamMb(h: HostCapacity): number {
  return h.freeRamMb ?? h.memoryMb - h.memoryMbUsed;
}

export function freeDiskGb(h: HostCapacity): number {
  const free = h.freeDiskGb ?? h.localGb - h.localGbUsed;
  return h.diskAvailableLeast === null ? free : Math.min(free, h.diskAvailableLeast);
}

/** null when the host can take `d`, else why not (one line). */
export function capacityProblem(h: HostCapacity, d: Demand): string | null {
  if (h.serviceDisabled) return "its compute service is disabled";
  if (h.forcedDown || !h.serviceUp) return "its compute service is down";
  const vcpuCap = (h.vcpus - h.reservedVcpus) * h.cpuAllocationRatio;
  if (h.vcpusUsed + d.vcpus > vcpuCap) return `VCPU: ${vcpuCap - h.vcpusUsed} free < ${d.vcpus} needed`;
  const memCap = (h.memoryMb - h.reservedMemoryMb) * h.ramAllocationRatio;
  const memUsed = h.memoryMb - freeRamMb(h);
  if (memUsed + d.memoryMb > memCap) return `MEMORY_MB: ${memCap - memUsed} MB free < ${d.memoryMb} MB needed`;
  const diskCap = (h.localGb - h.reservedDiskGb) * h.diskAllocationRatio;
  const diskUsed = h.localGb - freeDiskGb(h);
  if (diskUsed + d.diskGb > diskCap) return `DISK_GB: ${diskCap - diskUsed} GB free < ${d.diskGb} GB needed`;
  return null;
}
