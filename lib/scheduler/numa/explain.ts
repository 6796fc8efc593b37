/**
 * Why a guest topology did not fit a host, in words an operator can act
 * on: per host cell, what is free against what one guest cell needs.
 * Only called for rejected hosts, so it may take its time.
 */
import type { PciRequest } from "../pci/request";
import {
  cellAvailMemory,
  cellFreePcpus,
  type InstanceNUMACell,
  type InstanceNUMATopology,
  MEMPAGES_ANY,
  MEMPAGES_LARGE,
  MEMPAGES_SMALL,
  type NUMACell,
  pagesFree,
} from "./objects";

export function pageSizeText(kb: number): string {
  if (kb >= 1048576 && kb % 1048576 === 0) return `${kb / 1048576} GiB`;
  if (kb >= 1024 && kb % 1024 === 0) return `${kb / 1024} MiB`;
  return `${kb} KiB`;
}

function pagesNeed(host: NUMACell, guest: InstanceNUMACell): string | null {
  const size = guest.pagesize;
  if (!size) return null;
  const memKb = guest.memory * 1024;
  const sizes = host.mempages.map((p) => p.sizeKb).sort((a, b) => b - a);
  const candidates =
    size === MEMPAGES_SMALL
      ? sizes.slice(-1)
      : size === MEMPAGES_LARGE
        ? sizes.slice(0, -1)
        : size === MEMPAGES_ANY
          ? sizes
          : [size];
  if (!candidates.length) return "no large pages";
  const parts = candidates.map((s) => {
    const p = host.mempages.find((m) => m.sizeKb === s);
    if (!p) return `no ${pageSizeText(s)} pages`;
    return `${pageSizeText(s)} pages ${pagesFree(p)} free, needs ${Math.ceil(memKb / s)}`;
  });
  return parts.join(" / ");
}

function cellText(host: NUMACell, guest: InstanceNUMACell, limits: { cpu: number; ram: number }): string {
  const parts: string[] = [];
  if (guest.cpuPolicy === "dedicated" || guest.cpuPolicy === "mixed")
    parts.push(`${cellFreePcpus(host).size} free pCPUs, needs ${guest.pcpuset.length}`);
  if (guest.cpuPolicy !== "dedicated" && guest.cpuset.length)
    parts.push(
      `${Math.max(0, host.cpuset.size * limits.cpu - host.cpuUsage)} shared vCPUs left, needs ${guest.cpuset.length}`,
    );
  const pages = pagesNeed(host, guest);
  if (pages) parts.push(pages);
  else parts.push(`${cellAvailMemory(host)} MiB free, needs ${guest.memory}`);
  return `cell ${host.id}: ${parts.join(", ")}`;
}

export function explainNoFit(
  hostCells: NUMACell[],
  topology: InstanceNUMATopology,
  limits: { cpu: number; ram: number },
  pciRequests: PciRequest[],
): string {
  const n = topology.cells.length;
  if (hostCells.length < n) return `${hostCells.length} host NUMA cell(s), the guest needs ${n}`;
  // The largest guest cell says the most.
  const guest = [...topology.cells].sort((a, b) => b.pcpuset.length + b.memory - (a.pcpuset.length + a.memory))[0];
  const cells = hostCells.map((h) => cellText(h, guest, limits)).join("; ");
  const pci = pciRequests.length ? " (or no cell with the PCI devices' NUMA affinity)" : "";
  const threads = guest.cpuThreadPolicy ? `, thread policy ${guest.cpuThreadPolicy}` : "";
  return `guest NUMA node(s) do not fit${threads}${pci}: ${cells}`;
}
