/**
 * Fragmentation: free vCPU and RAM in total (Placement's rule: (total −
 * reserved) × ratio − used, over enabled and up hosts) versus the largest
 * flavor that still fits on one host, and the hosts where capacity is
 * stranded (RAM left but no vCPU, or vCPUs left but under 1 GiB of RAM).
 */
import type { FillResult } from "@/lib/scheduler/fill";
import type { ScenarioFlavor } from "@/lib/scheduler/scenario";

export interface Fragmentation {
  /** Free after allocation ratios, over enabled and up hosts. */
  freeVcpus: number;
  freeRamMb: number;
  /** The flavor with the most RAM that the resources left still fit on one host (by vCPU, RAM, disk). */
  largestFit: string | null;
  /** Hosts with RAM left but not a vCPU, or vCPUs left but under 1 GiB RAM. */
  stranded: Array<{ host: string; freeVcpus: number; freeRamMb: number; kind: "ram" | "vcpu" }>;
}

/**
 * Free resources after the fill: what a host can still give by Placement's
 * rule ((total − reserved) × ratio − used), and where it is stranded.
 */
export function fragmentation(r: FillResult, flavors: ScenarioFlavor[]): Fragmentation {
  let freeVcpus = 0;
  let freeRamMb = 0;
  const stranded: Fragmentation["stranded"] = [];
  const free: Array<{ v: number; ram: number; disk: number }> = [];
  for (const h of r.hosts) {
    // what ComputeFilter lets through (the snapshot's `up` already counts forced down as down)
    if (h.service.disabled || !h.service.up) continue;
    const v = Math.max(0, Math.floor((h.vcpusTotal - h.reservedVcpus) * h.cpuAllocationRatio - h.vcpusUsed));
    const ram = Math.max(
      0,
      Math.floor((h.memoryMb - h.reservedMemoryMb) * h.ramAllocationRatio - (h.memoryMb - h.freeRamMb)),
    );
    const disk = Math.max(0, Math.floor(h.freeDiskMb / 1024));
    freeVcpus += v;
    freeRamMb += ram;
    free.push({ v, ram, disk });
    if (v === 0 && ram >= 1024) stranded.push({ host: h.host, freeVcpus: v, freeRamMb: ram, kind: "ram" });
    else if (v > 0 && ram < 1024) stranded.push({ host: h.host, freeVcpus: v, freeRamMb: ram, kind: "vcpu" });
  }
  const fits = flavors
    .filter((f) =>
      free.some((x) => x.v >= f.vcpus && x.ram >= f.memory_mb && x.disk >= (f.root_gb ?? 0) + (f.ephemeral_gb ?? 0)),
    )
    .sort((a, b) => b.memory_mb - a.memory_mb || b.vcpus - a.vcpus);
  stranded.sort((a, b) => b.freeRamMb - a.freeRamMb || b.freeVcpus - a.freeVcpus);
  return { freeVcpus, freeRamMb, largestFit: fits[0]?.name ?? null, stranded: stranded.slice(0, 300) };
}
