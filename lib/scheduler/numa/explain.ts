/**
 * Why a guest topology did not fit a host, in words an operator can act
 * on: per host cell, what is free against what one guest cell needs. It
 * runs for every rejected host, so the guest's side is worked out once.
 */
import type { PciRequest } from "../pci/request";
import {
  cellAvailMemory,
  cellFreePcpuCount,
  cellPageSizesDesc,
  type InstanceNUMACell,
  type InstanceNUMATopology,
  MEMPAGES_ANY,
  MEMPAGES_LARGE,
  MEMPAGES_SMALL,
  type NUMACell,
  type NUMAPages,
  pagesFree,
} from "./objects";

export function pageSizeText(kb: number): string {
  if (kb >= 1048576 && kb % 1048576 === 0) return `${kb / 1048576} GiB`;
  if (kb >= 1024 && kb % 1024 === 0) return `${kb / 1024} MiB`;
  return `${kb} KiB`;
}

export interface GuestNeeds {
  /** The largest guest cell: it says the most. */
  cell: InstanceNUMACell;
  pinned: boolean;
  shared: boolean;
  heading: string;
}

const NEEDS = new WeakMap<InstanceNUMATopology, GuestNeeds>();
/** Needs that read the same are one object from request to request, so a host's text stays cached. */
const EQUAL_NEEDS = new Map<string, GuestNeeds>();

/** What a guest topology needs, as explainNoFit words it: one object for guests that need the same. */
export function guestNeeds(topology: InstanceNUMATopology, pciRequests: PciRequest[]): GuestNeeds {
  let needs = NEEDS.get(topology);
  if (!needs) {
    const cell = [...topology.cells].sort((a, b) => b.pcpuset.length + b.memory - (a.pcpuset.length + a.memory))[0];
    const threads = cell.cpuThreadPolicy ? `, thread policy ${cell.cpuThreadPolicy}` : "";
    const pci = pciRequests.length ? " (or no cell with the PCI devices' NUMA affinity)" : "";
    const pinned = cell.cpuPolicy === "dedicated" || cell.cpuPolicy === "mixed";
    const shared = cell.cpuPolicy !== "dedicated" && cell.cpuset.length > 0;
    const heading = `guest NUMA node(s) do not fit${threads}${pci}: `;
    // Everything explainNoFit reads of the guest
    const key = JSON.stringify([
      topology.cells.length,
      heading,
      pinned,
      shared,
      cell.pcpuset.length,
      cell.cpuset.length,
      cell.memory,
      cell.pagesize,
    ]);
    if (EQUAL_NEEDS.size > 1000) EQUAL_NEEDS.clear();
    needs = EQUAL_NEEDS.get(key);
    // A copy: fitting a guest sets its cells' page size (Nova mutates them
    // too), and needs kept for later requests must still read as asked.
    if (!needs) EQUAL_NEEDS.set(key, (needs = { cell: { ...cell }, pinned, shared, heading }));
    NEEDS.set(topology, needs);
  }
  return needs;
}

function pagesText(host: NUMACell, guest: InstanceNUMACell): string | null {
  const size = guest.pagesize;
  if (!size) return null;
  const sizes = cellPageSizesDesc(host);
  const from = size === MEMPAGES_LARGE || size === MEMPAGES_ANY ? 0 : size === MEMPAGES_SMALL ? sizes.length - 1 : -1;
  const to = size === MEMPAGES_LARGE ? sizes.length - 1 : sizes.length;
  // It runs for every rejected host: no intermediate arrays.
  const n = from < 0 ? 1 : to - Math.max(from, 0);
  if (n <= 0) return "no large pages";
  let text = "";
  for (let i = 0; i < n; i++) {
    const s = from < 0 ? size : sizes[Math.max(from, 0) + i];
    let p: NUMAPages | undefined;
    for (const m of host.mempages) if (m.sizeKb === s) p = p ?? m;
    const part = p
      ? `${pageSizeText(s)} pages ${pagesFree(p)} free, needs ${Math.ceil((guest.memory * 1024) / s)}`
      : `no ${pageSizeText(s)} pages`;
    text = text ? `${text} / ${part}` : part;
  }
  return text;
}

function cellText(host: NUMACell, needs: GuestNeeds, cpuRatio: number): string {
  const guest = needs.cell;
  let text = `cell ${host.id}: `;
  if (needs.pinned) text += `${cellFreePcpuCount(host)} free pCPUs, needs ${guest.pcpuset.length}, `;
  if (needs.shared)
    text += `${Math.max(0, host.cpuset.size * cpuRatio - host.cpuUsage)} shared vCPUs left, needs ${guest.cpuset.length}, `;
  return text + (pagesText(host, guest) ?? `${cellAvailMemory(host)} MiB free, needs ${guest.memory}`);
}

export function explainNoFit(
  hostCells: NUMACell[],
  topology: InstanceNUMATopology,
  cpuRatio: number,
  pciRequests: PciRequest[],
): string {
  const n = topology.cells.length;
  if (hostCells.length < n) return `${hostCells.length} host NUMA cell(s), the guest needs ${n}`;
  const needs = guestNeeds(topology, pciRequests);
  let text = needs.heading;
  for (let i = 0; i < hostCells.length; i++) text += (i ? "; " : "") + cellText(hostCells[i], needs, cpuRatio);
  return text;
}
