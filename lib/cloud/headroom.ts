/**
 * "Am I OK?": for the flavors most instances use, how many more fit by
 * Placement's rule alone ((total − reserved) × allocation ratio − used, per
 * class, on hosts whose service is enabled and up), how many hosts cannot
 * take one, and which class runs out first (the limit on most hosts). Also
 * which zones and aggregates are near full. Filters and aggregates may
 * allow fewer: a trial or a capacity fill says exactly.
 */
import { flavorAmounts } from "./usage";
import type { ScenarioFlavor } from "@/lib/scheduler/scenario";

export interface HeadroomHost {
  vcpus: number;
  vcpusUsed: number;
  reservedVcpus: number;
  cpuAllocationRatio: number;
  memoryMb: number;
  memoryMbUsed: number;
  reservedMemoryMb: number;
  ramAllocationRatio: number;
  localGb: number;
  localGbUsed: number;
  reservedDiskGb: number;
  diskAllocationRatio: number;
  pcpus: number;
  pcpusUsed: number;
  /** enabled and up (what ComputeFilter lets through) */
  usable: boolean;
}

export type LimitClass = "VCPU" | "PCPU" | "MEMORY_MB" | "DISK_GB";

export interface FlavorHeadroom {
  flavor: string;
  /** instances of it the cloud holds today */
  instances: number;
  /** more that fit, summed over usable hosts */
  more: number;
  /** usable hosts that cannot take one more */
  full: number;
  usable: number;
  /** the class that runs out first on most usable hosts (ties: in LimitClass order) */
  limit: LimitClass | null;
  /** per class, on how many usable hosts it is the one that runs out first */
  limitHosts: Partial<Record<LimitClass, number>>;
}

const ORDER: LimitClass[] = ["DISK_GB", "MEMORY_MB", "VCPU", "PCPU"];

/** A host's free amount of a class by Placement's rule. */
function free(h: HeadroomHost, rc: LimitClass): number {
  if (rc === "VCPU") return (h.vcpus - h.reservedVcpus) * h.cpuAllocationRatio - h.vcpusUsed;
  if (rc === "PCPU") return h.pcpus - h.pcpusUsed;
  if (rc === "MEMORY_MB") return (h.memoryMb - h.reservedMemoryMb) * h.ramAllocationRatio - h.memoryMbUsed;
  return (h.localGb - h.reservedDiskGb) * h.diskAllocationRatio - h.localGbUsed;
}

/** null when the flavor asks for another class (bare metal, vGPU): not a question of these four. */
export function flavorHeadroom(f: ScenarioFlavor, instances: number, hosts: HeadroomHost[]): FlavorHeadroom | null {
  const probe = flavorAmounts(f, { pcpus: 0 });
  if ([...probe.keys()].some((rc) => !ORDER.includes(rc as LimitClass))) return null;
  const out: FlavorHeadroom = {
    flavor: f.name,
    instances,
    more: 0,
    full: 0,
    usable: 0,
    limit: null,
    limitHosts: {},
  };
  for (const h of hosts) {
    if (!h.usable || h.vcpus <= 0) continue;
    out.usable++;
    const need = flavorAmounts(f, h);
    let fit = Number.POSITIVE_INFINITY;
    let binding: LimitClass | null = null;
    for (const rc of ORDER) {
      const n = need.get(rc) ?? 0;
      if (!n) continue;
      const k = Math.max(0, Math.floor(free(h, rc) / n));
      if (k < fit) {
        fit = k;
        binding = rc;
      }
    }
    if (!Number.isFinite(fit)) continue;
    out.more += fit;
    if (fit === 0) out.full++;
    if (binding) out.limitHosts[binding] = (out.limitHosts[binding] ?? 0) + 1;
  }
  let best = 0;
  for (const rc of ORDER)
    if ((out.limitHosts[rc] ?? 0) > best) {
      best = out.limitHosts[rc]!;
      out.limit = rc;
    }
  return out;
}

/** Used / capacity of each resource of a zone, cell or aggregate row, the fullest first. */
export function fullest(r: {
  vcpusUsed: number;
  vcpusCapacity: number;
  memoryMbUsed: number;
  memoryMbCapacity: number;
  localGbUsed: number;
  localGbCapacity: number;
  bareMetalNodes?: number;
  bareMetalUsed?: number;
}): { resource: string; share: number } | null {
  const shares = [
    { resource: "vCPU", share: r.vcpusCapacity > 0 ? r.vcpusUsed / r.vcpusCapacity : 0 },
    { resource: "RAM", share: r.memoryMbCapacity > 0 ? r.memoryMbUsed / r.memoryMbCapacity : 0 },
    { resource: "disk", share: r.localGbCapacity > 0 ? r.localGbUsed / r.localGbCapacity : 0 },
    {
      resource: "bare-metal nodes",
      share: r.bareMetalNodes ? (r.bareMetalUsed ?? 0) / r.bareMetalNodes : 0,
    },
  ].sort((a, b) => b.share - a.share);
  return shares[0].share > 0 ? shares[0] : null;
}

/** Near full: a resource at 90 % or more of its capacity. */
export const NEAR_FULL = 0.9;

export const CLASS_WORDS: Record<LimitClass, string> = {
  DISK_GB: "Disk",
  MEMORY_MB: "RAM",
  VCPU: "vCPU",
  PCPU: "Pinned CPU (PCPU)",
};
