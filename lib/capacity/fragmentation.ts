/**
 * Fragmentation: free vCPU and RAM in total (Placement's rule: (total −
 * reserved) × ratio − used, over enabled and up hosts) versus the largest
 * virtual-machine flavor that still fits on one host, and the hosts where
 * capacity is stranded: RAM left but no vCPU, vCPUs left but under 1 GiB of
 * RAM, or vCPUs and RAM left for a filled flavor but not its disk.
 * Bare-metal nodes (no vCPU inventory) and flavors that ask for their own
 * resource class (a bare-metal node, a vGPU) are not counted here.
 */
import { flavorAmounts } from "@/lib/cloud/usage";
import type { FillResult } from "@/lib/scheduler/fill";
import type { ScenarioFlavor } from "@/lib/scheduler/scenario";

const STANDARD = new Set(["VCPU", "PCPU", "MEMORY_MB", "DISK_GB"]);

/** A flavor's VCPU, MEMORY_MB and DISK_GB as Placement asks them of a host without PCPUs; null when it asks for another class. */
function vmAmounts(f: ScenarioFlavor): { v: number; ram: number; disk: number } | null {
  const a = flavorAmounts(f, { pcpus: 0 });
  if ([...a.keys()].some((rc) => !STANDARD.has(rc))) return null;
  return { v: a.get("VCPU") ?? 0, ram: a.get("MEMORY_MB") ?? 0, disk: a.get("DISK_GB") ?? 0 };
}

export interface Fragmentation {
  /** Free after allocation ratios, over enabled and up hosts. */
  freeVcpus: number;
  freeRamMb: number;
  freeDiskGb: number;
  /** The virtual-machine flavor with the most RAM that the resources left still fit on one host (by vCPU, RAM, disk). */
  largestFit: string | null;
  /** The smallest disk (root + ephemeral + swap, GB) of the filled flavors: a host with their vCPUs and RAM but less disk is stranded. */
  smallestDiskGb: number;
  /** Hosts with RAM left but not a vCPU, vCPUs left but under 1 GiB RAM, or room for a filled flavor but its disk. */
  stranded: Array<{
    host: string;
    freeVcpus: number;
    freeRamMb: number;
    freeDiskGb: number;
    kind: "ram" | "vcpu" | "disk";
  }>;
}

/**
 * Free resources after the fill: what a host can still give by Placement's
 * rule ((total − reserved) × ratio − used), and where it is stranded.
 */
export function fragmentation(r: FillResult, flavors: ScenarioFlavor[]): Fragmentation {
  let freeVcpus = 0;
  let freeRamMb = 0;
  let freeDiskGb = 0;
  const vm = flavors.flatMap((f) => {
    const a = vmAmounts(f);
    return a ? [{ f, ...a }] : [];
  });
  // the flavors the fill booted (r.flavor: a name, or the mix's names joined with "+")
  const filled = new Set(r.flavor.split("+"));
  const mine = vm.filter((x) => filled.has(x.f.name) && x.disk > 0);
  const smallestDiskGb = mine.length ? Math.min(...mine.map((x) => x.disk)) : 0;
  const stranded: Fragmentation["stranded"] = [];
  const free: Array<{ v: number; ram: number; disk: number }> = [];
  for (const h of r.hosts) {
    // what ComputeFilter lets through (the snapshot's `up` already counts forced down as down)
    if (h.service.disabled || !h.service.up) continue;
    // a bare-metal node (no vCPU inventory) holds a whole-node class, not vCPUs and RAM
    if (h.vcpusTotal <= 0) continue;
    const v = Math.max(0, Math.floor((h.vcpusTotal - h.reservedVcpus) * h.cpuAllocationRatio - h.vcpusUsed));
    const ram = Math.max(
      0,
      Math.floor((h.memoryMb - h.reservedMemoryMb) * h.ramAllocationRatio - (h.memoryMb - h.freeRamMb)),
    );
    const disk = Math.max(0, Math.floor(h.freeDiskMb / 1024));
    freeVcpus += v;
    freeRamMb += ram;
    freeDiskGb += disk;
    free.push({ v, ram, disk });
    const at = { host: h.host, freeVcpus: v, freeRamMb: ram, freeDiskGb: disk };
    if (v === 0 && ram >= 1024) stranded.push({ ...at, kind: "ram" });
    else if (v > 0 && ram < 1024) stranded.push({ ...at, kind: "vcpu" });
    else if (
      mine.some((x) => v >= x.v && ram >= x.ram) &&
      !mine.some((x) => v >= x.v && ram >= x.ram && disk >= x.disk)
    )
      stranded.push({ ...at, kind: "disk" });
  }
  const fits = vm
    .filter((x) => free.some((h) => h.v >= x.v && h.ram >= x.ram && h.disk >= x.disk))
    .sort((a, b) => b.ram - a.ram || b.v - a.v);
  stranded.sort((a, b) => b.freeRamMb - a.freeRamMb || b.freeVcpus - a.freeVcpus);
  return {
    freeVcpus,
    freeRamMb,
    freeDiskGb,
    largestFit: fits[0]?.f.name ?? null,
    smallestDiskGb,
    stranded: stranded.slice(0, 300),
  };
}
