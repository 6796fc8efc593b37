/**
 * The NUMA objects Nova's fitting code works on (nova/objects/numa.py,
 * instance_numa.py), with host CPU sets kept as CPython sets because their
 * iteration order decides the pinning.
 */
import { PySet } from "./pyset";

export const MEMPAGES_SMALL = -1;
export const MEMPAGES_LARGE = -2;
export const MEMPAGES_ANY = -3;

export type CpuPolicy = "shared" | "dedicated" | "mixed" | null;
export type CpuThreadPolicy = "prefer" | "isolate" | "require" | null;

export interface NUMAPages {
  sizeKb: number;
  total: number;
  used: number;
  reserved: number;
}

export const pagesFree = (p: NUMAPages): number => p.total - p.used - p.reserved;

/** objects.NUMACell: a host NUMA cell and its usage. */
export interface NUMACell {
  id: number;
  cpuset: PySet;
  pcpuset: PySet;
  memory: number;
  cpuUsage: number;
  memoryUsage: number;
  pinnedCpus: PySet;
  siblings: PySet[];
  mempages: NUMAPages[];
  socket: number | null;
  /**
   * free_pcpus and free_siblings, computed on first use. A cell is never
   * changed once built (consuming builds new cells), so they stay true.
   */
  derived?: {
    freeCount: number;
    freeSiblings?: number[][];
    sizesDesc?: number[];
  };
}

export const cellAvailMemory = (c: NUMACell): number => c.memory - c.memoryUsage;

/**
 * What the fit reads most, worked out when the cell is built (host states
 * are built once per request, consuming builds new cells).
 */
export function withDerived(c: NUMACell): NUMACell {
  const { pcpuset, pinnedCpus } = c;
  let pinned = 0;
  for (const x of pinnedCpus.values()) if (pcpuset.has(x)) pinned++;
  c.derived = { freeCount: pcpuset.size - pinned };
  return c;
}

function cellDerived(c: NUMACell): NonNullable<NUMACell["derived"]> {
  return c.derived ?? withDerived(c).derived!;
}

/** len(NUMACell.free_pcpus): dedicated CPUs not pinned. */
export const cellFreePcpuCount = (c: NUMACell): number => cellDerived(c).freeCount;

/** NUMACell.free_siblings: each sibling set & free_pcpus (in CPython's order), in sibling order. */
export function cellFreeSiblings(c: NUMACell): number[][] {
  const d = cellDerived(c);
  if (d.freeSiblings) return d.freeSiblings;
  const { pcpuset, pinnedCpus } = c;
  let free: PySet | null = null;
  const out: number[][] = new Array(c.siblings.length);
  for (let k = 0; k < c.siblings.length; k++) {
    const s = c.siblings[k];
    // sibling_set & free_pcpus walks the smaller of the two sets
    if (d.freeCount > s.size) {
      const kept: number[] = [];
      for (const x of s.values()) if (pcpuset.has(x) && !pinnedCpus.has(x)) kept.push(x);
      out[k] = s.orderOfSubset(kept);
    } else {
      free ??= pcpuset.minus(pinnedCpus);
      const kept: number[] = [];
      for (const x of free.values()) if (s.has(x)) kept.push(x);
      out[k] = PySet.orderOf(kept);
    }
  }
  d.freeSiblings = out;
  return out;
}

/** The cell's page sizes, largest first. */
export function cellPageSizesDesc(c: NUMACell): number[] {
  const d = cellDerived(c);
  if (!d.sizesDesc) {
    // Insertion sort: a cell has two or three sizes, and this runs for every cell a request looks at.
    const sizes = new Array<number>(c.mempages.length);
    for (let i = 0; i < sizes.length; i++) {
      const v = c.mempages[i].sizeKb;
      let j = i;
      for (; j > 0 && sizes[j - 1] < v; j--) sizes[j] = sizes[j - 1];
      sizes[j] = v;
    }
    d.sizesDesc = sizes;
  }
  return d.sizesDesc;
}

export const cellHasThreads = (c: NUMACell): boolean => c.siblings.some((s) => s.size > 1);

/**
 * NUMACell.can_fit_pagesize: whether `memoryKb` fits pages of `pagesize`;
 * null when the cell has no pages of that size (Nova raises
 * MemoryPageSizeNotSupported).
 */
export function cellCanFitPagesize(c: NUMACell, pagesize: number, memoryKb: number, useFree = true): boolean | null {
  for (const p of c.mempages) {
    if (p.sizeKb === pagesize) {
      const avail = (useFree ? pagesFree(p) : p.total) * p.sizeKb;
      return memoryKb <= avail && memoryKb % p.sizeKb === 0;
    }
  }
  return null;
}

/** objects.InstanceNUMACell; mutated in place by the fit, as in Nova. */
export interface InstanceNUMACell {
  id: number;
  /** Guest vCPUs on shared host CPUs, sorted. */
  cpuset: number[];
  /** Guest vCPUs pinned to dedicated host CPUs, sorted. */
  pcpuset: number[];
  memory: number;
  pagesize: number | null;
  cpuPolicy: CpuPolicy;
  cpuThreadPolicy: CpuThreadPolicy;
  /** vCPU -> host CPU, in insertion order (a Python dict). */
  cpuPinning: Map<number, number> | null;
  cpusetReserved: PySet | null;
}

export interface InstanceNUMATopology {
  cells: InstanceNUMACell[];
  emulatorThreadsPolicy: "share" | "isolate" | null;
}

/** obj_clone(): what NUMATopologyFilter fits, so its pinning does not leak. */
export function cloneTopology(t: InstanceNUMATopology): InstanceNUMATopology {
  return {
    emulatorThreadsPolicy: t.emulatorThreadsPolicy,
    cells: t.cells.map((c) => ({
      ...c,
      cpuPinning: c.cpuPinning ? new Map(c.cpuPinning) : null,
      cpusetReserved: c.cpusetReserved ? PySet.coerce(c.cpusetReserved) : null,
    })),
  };
}

/** The `numa` block of a selection (nova_reference.describe_numa). */
export interface FittedCell {
  id: number;
  host_cell: number;
  cpuset: number[];
  pcpuset: number[];
  cpu_pinning: Record<string, number>;
  cpuset_reserved: number[] | null;
  pagesize: number | null;
  memory: number;
}

export function describeTopology(t: InstanceNUMATopology | null): FittedCell[] | null {
  if (!t?.cells.length) return null;
  return t.cells.map((c, i) => {
    const pinning: Record<string, number> = {};
    for (const k of [...(c.cpuPinning?.keys() ?? [])].sort((a, b) => a - b)) pinning[String(k)] = c.cpuPinning!.get(k)!;
    return {
      id: i,
      host_cell: c.id,
      cpuset: [...c.cpuset],
      pcpuset: [...c.pcpuset],
      cpu_pinning: pinning,
      cpuset_reserved: c.cpusetReserved?.size ? c.cpusetReserved.sorted() : null,
      pagesize: c.pagesize,
      memory: c.memory,
    };
  });
}
