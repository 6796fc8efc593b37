/**
 * Does a host still have room? The rules the engine's Placement "resources"
 * prefilter applies (capacity = (total - reserved) × allocation ratio, used
 * from the host's counters), plus the service state ComputeFilter checks.
 * Pure, used by the commit transaction; the rule itself is the engine's
 * (lib/scheduler/placement/room.ts), worded here for the commit.
 */
import { serviceIsUp } from "@/lib/cloud/service";
import { flavorDiskGb, resourceShortfall } from "@/lib/scheduler/placement/room";
import { flavorAmounts } from "@/lib/cloud/usage";
import type { ScenarioFlavor } from "@/lib/scheduler/scenario";

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

/** The host columns a commit reads to re-check room (Prisma `select`). */
export const HOST_CAPACITY_SELECT = {
  id: true,
  name: true,
  vcpus: true,
  vcpusUsed: true,
  memoryMb: true,
  memoryMbUsed: true,
  localGb: true,
  localGbUsed: true,
  freeRamMb: true,
  freeDiskGb: true,
  diskAvailableLeast: true,
  reservedVcpus: true,
  reservedMemoryMb: true,
  reservedDiskGb: true,
  cpuAllocationRatio: true,
  ramAllocationRatio: true,
  diskAllocationRatio: true,
  serviceDisabled: true,
  serviceUp: true,
  forcedDown: true,
} as const;

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
    diskGb: flavorDiskGb(f.root_gb ?? 0, f.ephemeral_gb ?? 0, f.swap ?? 0) * count,
  };
}

export function freeRamMb(h: HostCapacity): number {
  return h.freeRamMb ?? h.memoryMb - h.memoryMbUsed;
}

export function freeDiskGb(h: HostCapacity): number {
  const free = h.freeDiskGb ?? h.localGb - h.localGbUsed;
  return h.diskAvailableLeast === null ? free : Math.min(free, h.diskAvailableLeast);
}

/**
 * What `count` instances of a flavor take of a node's VCPU, MEMORY_MB and
 * DISK_GB as Placement allocates them (pinned CPUs from PCPU where the node
 * has some, `resources:` overrides: a bare-metal flavor takes none of the three).
 */
export function demandOn(f: ScenarioFlavor, h: { pcpus?: number | null }, count = 1): Demand {
  const a = flavorAmounts(f, { pcpus: h.pcpus ?? 0 });
  return {
    vcpus: (a.get("VCPU") ?? 0) * count,
    memoryMb: (a.get("MEMORY_MB") ?? 0) * count,
    diskGb: (a.get("DISK_GB") ?? 0) * count,
  };
}

/** null when the host can take `d`, else why not (one line). */
export function capacityProblem(h: HostCapacity, d: Demand): string | null {
  if (h.serviceDisabled) return "its compute service is disabled";
  if (!serviceIsUp(h)) return h.forcedDown ? "its compute service is forced down" : "its compute service is down";
  const short = resourceShortfall(
    { ...h, memoryMbUsed: h.memoryMb - freeRamMb(h), localGbUsed: h.localGb - freeDiskGb(h) },
    d,
  );
  if (!short) return null;
  const unit = short.resourceClass === "MEMORY_MB" ? " MB" : short.resourceClass === "DISK_GB" ? " GB" : "";
  return `${short.resourceClass}: ${short.free}${unit} free < ${short.requested}${unit} needed`;
}
