/**
 * hardware.numa_fit_instance_to_host and _numa_fit_instance_cell: place
 * each guest cell on its own host cell (page size, CPUs, memory, pinning),
 * trying host cells in Nova's order, with the PCI requests' NUMA affinity.
 * Like Nova, the guest cells are mutated as they are tried.
 */
import type { PciDeviceStats } from "../pci/stats";
import type { PciRequest } from "../pci/request";
import {
  cellAvailMemory,
  cellCanFitPagesize,
  cellFreePcpuCount,
  cellPageSizesDesc,
  type InstanceNUMACell,
  type InstanceNUMATopology,
  MEMPAGES_ANY,
  MEMPAGES_LARGE,
  MEMPAGES_SMALL,
  type NUMACell,
  pagesFree,
} from "./objects";
import { packInstanceOntoCores, wouldPack } from "./pack";

/** objects.NUMATopologyLimits: the host's allocation ratios. */
export interface NUMALimits {
  cpuAllocationRatio: number;
  ramAllocationRatio: number;
}

/** Page size not on the host (MemoryPageSizeNotSupported in Nova). */
const UNSUPPORTED = Symbol("unsupported");

/** _numa_cell_supports_pagesize_request: the size to use, or null. */
function supportedPagesize(host: NUMACell, cell: InstanceNUMACell): number | null | typeof UNSUPPORTED {
  const sizes = cellPageSizesDesc(host);
  const memKb = cell.memory * 1024;
  if (cell.pagesize === MEMPAGES_SMALL) return firstFitting(host, sizes, sizes.length - 1, sizes.length, memKb);
  if (cell.pagesize === MEMPAGES_LARGE) return firstFitting(host, sizes, 0, sizes.length - 1, memKb);
  if (cell.pagesize === MEMPAGES_ANY) return firstFitting(host, sizes, 0, sizes.length, memKb);
  return firstFitting(host, [cell.pagesize!], 0, 1, memKb);
}

/** verify_pagesizes over sizes[from, to). */
function firstFitting(
  host: NUMACell,
  sizes: number[],
  from: number,
  to: number,
  memKb: number,
): number | null | typeof UNSUPPORTED {
  for (let i = Math.max(from, 0); i < to; i++) {
    const fits = cellCanFitPagesize(host, sizes[i], memKb);
    if (fits === null) return UNSUPPORTED;
    if (fits) return sizes[i];
  }
  return null;
}

const dedicatedOrMixed = (c: InstanceNUMACell) => c.cpuPolicy === "dedicated" || c.cpuPolicy === "mixed";
const sharedOrMixed = (c: InstanceNUMACell) =>
  c.cpuPolicy === null || c.cpuPolicy === "shared" || c.cpuPolicy === "mixed";

/** _numa_fit_instance_cell: the fitted cell (same object) or null; UNSUPPORTED for an unknown page size. */
function fitCell(
  host: NUMACell,
  cell: InstanceNUMACell,
  limits: NUMALimits | null,
  cpusetReserved: number,
  verdictOnly = false,
  freeSmallPages = false,
  emptyPinningFits = false,
): InstanceNUMACell | null | typeof UNSUPPORTED {
  if (cell.pagesize) {
    const size = supportedPagesize(host, cell);
    if (size === UNSUPPORTED) return UNSUPPORTED;
    if (!size) return null;
    cell.pagesize = size;
  } else if (host.mempages.length) {
    // No size asked: smallest pages, overcommit allowed (total, not free);
    // since Nova 30 a pinned cell may not overcommit: free pages.
    const sizes = cellPageSizesDesc(host);
    const smallest = sizes[sizes.length - 1];
    const useFree = freeSmallPages && dedicatedOrMixed(cell);
    if (!cellCanFitPagesize(host, smallest, cell.memory * 1024, useFree)) return null;
  } else if (freeSmallPages && dedicatedOrMixed(cell)) {
    if (cellAvailMemory(host) < cell.memory) return null;
  } else if (cell.memory > host.memory) return null;

  if (dedicatedOrMixed(cell) && cell.pcpuset.length + cpusetReserved > host.pcpuset.size) return null;
  if (sharedOrMixed(cell) && cell.cpuset.length > host.cpuset.size) return null;

  let fitted: InstanceNUMACell | null = cell;
  if (dedicatedOrMixed(cell)) {
    if (cell.pcpuset.length + cpusetReserved > cellFreePcpuCount(host)) return null;
    // Up to Nova 29 a pinned cell also needed the host cell's free memory, page size asked or not.
    if (!freeSmallPages && cell.memory > cellAvailMemory(host)) return null;
    const packs = verdictOnly ? wouldPack(host, cell, cpusetReserved) : null;
    if (packs === false) return null;
    if (packs) cell.cpusetReserved = null;
    else fitted = packInstanceOntoCores(host, cell, cpusetReserved, emptyPinningFits);
    // `if not instance_cell`: a cell without CPUs is falsy too
    if (!fitted || fitted.cpuset.length + fitted.pcpuset.length === 0) return null;
  }
  if (sharedOrMixed(fitted) && limits) {
    if (host.cpuUsage + fitted.cpuset.length > host.cpuset.size * limits.cpuAllocationRatio) return null;
    if (host.memoryUsage + fitted.memory > host.memory * limits.ramAllocationRatio) return null;
  }
  fitted.id = host.id;
  return fitted;
}

/**
 * What mayFit reads of a host's cells, in one array so that a check of
 * thousands of hosts reads one small block per host instead of each cell's
 * objects: the cell count, the smallest page size of any cell, then per
 * cell its memory, available memory, free pCPUs, cpuset size, number of
 * page sizes and (size, free pages) for each.
 */
export function fitSummary(hostCells: NUMACell[]): readonly number[] {
  // A plain array of doubles: it lives beside the object that holds it, where
  // a typed array's numbers would sit in a buffer of their own elsewhere.
  const out: number[] = [hostCells.length, Number.POSITIVE_INFINITY];
  for (const c of hostCells) {
    out.push(c.memory, cellAvailMemory(c), cellFreePcpuCount(c), c.cpuset.size, c.mempages.length);
    for (const p of c.mempages) {
      out.push(p.sizeKb, pagesFree(p));
      if (p.sizeKb < out[1]) out[1] = p.sizeKb;
    }
  }
  return out;
}

/**
 * What the NUMA filter keeps of one host's cells from request to request
 * (a frozen host's cells serve every request; consuming builds new cells,
 * and so new facts): the fitSummary, and the last reason a guest did not
 * fit, with what it was written for, so thousands of rejected hosts are not
 * explained again each request.
 */
export class NumaFitFacts {
  readonly summary: readonly number[];
  /** The guest needs the reason was written for, and the reason. */
  noFitNeeds: object | null = null;
  noFitReason: { code: "NUMA_NO_FIT"; message: string } | null = null;

  constructor(readonly cells: NUMACell[]) {
    this.summary = fitSummary(cells);
  }
}

/**
 * Whether the first guest cell has some host cell passing
 * _numa_fit_instance_cell's first checks (pages, memory, CPU counts), read
 * from the cells' fitSummary. False means no placement can fit, so the full
 * fit is skipped; true decides nothing. The checks are never stricter than
 * Nova's: an earlier host cell may have fixed the guest's page size (to one
 * of its own sizes; for "large", one above the smallest of some cell), and
 * emulator threads and allocation ratios are left out. The summary starts
 * at `from`.
 *
 * Only the first guest cell: Nova's fit caches pairs by (host cell id,
 * guest cell id) while it sets each fitted guest cell's id to its host
 * cell's, so a later guest cell can "fit" a host cell through a pair
 * another guest cell left, whatever it needs. Every placement starts with a
 * real fit of the first guest cell, so without one nothing fits.
 */
export function mayFit(
  summary: ArrayLike<number>,
  topology: InstanceNUMATopology,
  from = 0,
  freeSmallPages = false,
): boolean {
  const cells = summary[from];
  const cell = topology.cells[0];
  if (!cell) return true;
  const pinned = dedicatedOrMixed(cell);
  const shared = sharedOrMixed(cell);
  // Only sizes above the smallest for "large"; one size when a size is asked.
  const above = cell.pagesize === MEMPAGES_LARGE ? summary[from + 1] : 0;
  const only = Math.max(cell.pagesize ?? 0, 0);
  const memKb = cell.memory * 1024;
  for (let i = 0, at = from + 2; i < cells; i++) {
    const pages = at + 5;
    const end = pages + 2 * summary[at + 4];
    const memory = summary[at];
    const available = summary[at + 1];
    const freePcpus = summary[at + 2];
    const cpus = summary[at + 3];
    at = end;
    if (!cell.pagesize && pages === end && cell.memory > memory) continue;
    // Since Nova 30 a pinned cell's memory is checked against pages where the host cell has them.
    const memoryCheck = !freeSmallPages || (!cell.pagesize && pages === end);
    if (pinned && ((memoryCheck && cell.memory > available) || cell.pcpuset.length > freePcpus)) continue;
    if (shared && cell.cpuset.length > cpus) continue;
    if (!cell.pagesize) return true;
    for (let p = pages; p < end; p += 2) {
      const size = summary[p];
      if ((only === 0 || size === only) && size > above && memKb <= summary[p + 1] * size && memKb % size === 0)
        return true;
    }
  }
  return false;
}

const pairKey = (h: number, g: number): string | number =>
  h >= 0 && g >= 0 && h < 65536 && g < 65536 ? h * 65536 + g : `${h},${g}`;

/** itertools.permutations(items, r), in its order. */
function* permutations<T>(items: T[], r: number): Generator<T[]> {
  const n = items.length;
  if (r > n) return;
  const indices = items.map((_, i) => i);
  const cycles = Array.from({ length: r }, (_, i) => n - i);
  yield indices.slice(0, r).map((i) => items[i]);
  while (n) {
    let i = r - 1;
    for (; i >= 0; i--) {
      cycles[i]--;
      if (cycles[i] === 0) {
        const moved = indices[i];
        indices.splice(i, 1);
        indices.push(moved);
        cycles[i] = n - i;
      } else {
        const j = n - cycles[i];
        [indices[i], indices[j]] = [indices[j], indices[i]];
        yield indices.slice(0, r).map((k) => items[k]);
        break;
      }
    }
    if (i < 0) return;
  }
}

/**
 * Python's sorted(cells, key=..., reverse=...), both stable; keys[i]
 * belongs to cells[i]. The input is never changed (it may be the host's).
 */
function sortedBy(cells: NUMACell[], keys: ArrayLike<number>, reverse: boolean): NUMACell[] {
  if (cells.length === 2) return (reverse ? keys[1] > keys[0] : keys[1] < keys[0]) ? [cells[1], cells[0]] : cells;
  const order = cells.map((_, i) => i);
  order.sort((a, b) => (reverse ? keys[b] - keys[a] : keys[a] - keys[b]) || a - b);
  return order.map((i) => cells[i]);
}

/** Sort keys, reused call to call (the fit is not re-entered). */
const KEYS = new Float64Array(256);

function keysOf(cells: NUMACell[], key: (c: NUMACell) => number): ArrayLike<number> {
  const keys = cells.length <= KEYS.length ? KEYS : new Float64Array(cells.length);
  for (let i = 0; i < cells.length; i++) keys[i] = key(cells[i]);
  return keys;
}

const cpuUsageOf = (c: NUMACell) => c.cpuUsage;

function distinctIds(cells: NUMACell[]): boolean {
  if (cells.length === 2) return cells[0].id !== cells[1].id;
  return new Set(cells.map((c) => c.id)).size === cells.length;
}
const zero = () => 0;

export interface FitOptions {
  limits: NUMALimits | null;
  pciRequests: PciRequest[] | null;
  pciStats: PciDeviceStats | null;
  /** [compute] packing_host_numa_cells_allocation_strategy */
  pack: boolean;
  /** Whether it fits is all the caller reads (NUMATopologyFilter): the guest CPUs may stay unpinned. */
  verdictOnly?: boolean;
  /** Set to the host cells of the first placement that fitted but lacked the PCI devices' NUMA affinity. */
  pciMiss?: { hostCells: number[] | null };
  /**
   * Nova 30+ (f14c16af82, bug 1811886): a pinned guest cell with no page size
   * must fit the host cell's free smallest pages (its free memory when the cell
   * reports no pages), and one with a page size only needs those pages.
   */
  freeSmallPages?: boolean;
  /** Nova 31 (_pack_instance_onto_cores): a mixed guest cell without dedicated vCPUs fits (empty pinning). */
  emptyPinningFits?: boolean;
}

/** numa_fit_instance_to_host: the fitted topology (guest cells carry host cell ids), or null. */
export function numaFitInstanceToHost(
  hostCells: NUMACell[] | null,
  topology: InstanceNUMATopology | null,
  opts: FitOptions,
): InstanceNUMATopology | null {
  if (!hostCells?.length || !topology?.cells.length) return null;
  if (hostCells.length < topology.cells.length) return null;
  const { limits, pciRequests, pciStats, pack } = opts;

  let cells = hostCells;
  if (hostCells.length > topology.cells.length) {
    cells = sortedBy(cells, keysOf(cells, cellAvailMemory), !pack);
    const policy = topology.cells[0].cpuPolicy;
    if (policy === null || policy === "shared") cells = sortedBy(cells, keysOf(cells, cpuUsageOf), pack);
    else cells = sortedBy(cells, keysOf(cells, cellFreePcpuCount), !pack);
    if (pciStats) {
      const devices = keysOf(cells, zero) as Float64Array;
      for (const p of pciStats.pools) {
        const node = p.numaNode;
        for (let i = 0; i < cells.length; i++) if (cells[i].id === node) devices[i] += p.count;
      }
      // PCI cells first when devices are requested, last otherwise
      cells = sortedBy(cells, devices, !!pciRequests?.length);
    }
  }

  if (topology.cells.length === 1 && distinctIds(cells)) {
    // One guest cell: each host cell is tried once, no pair cache needed.
    const cell = topology.cells[0];
    const reserved = topology.emulatorThreadsPolicy === "isolate" ? 1 : 0;
    for (const host of cells) {
      const got = fitCell(host, cell, limits, reserved, opts.verdictOnly, opts.freeSmallPages, opts.emptyPinningFits);
      if (got === null || got === UNSUPPORTED) continue;
      const chosen = [got];
      if (pciRequests?.length && pciStats && !pciStats.supportRequests(pciRequests, chosen)) {
        if (opts.pciMiss && !opts.pciMiss.hostCells) opts.pciMiss.hostCells = chosen.map((c) => c.id);
        continue;
      }
      return { cells: chosen, emulatorThreadsPolicy: topology.emulatorThreadsPolicy };
    }
    return null;
  }
  // (host cell id, guest cell id) pairs already tried
  const notFit = new Set<string | number>();
  const fit = new Set<string | number>();
  const emulatorIsolated = topology.emulatorThreadsPolicy === "isolate";
  for (const perm of permutations(cells, topology.cells.length)) {
    const chosen: InstanceNUMACell[] = [];
    for (let k = 0; k < perm.length; k++) {
      const host = perm[k];
      const cell = topology.cells[k];
      const pair = pairKey(host.id, cell.id);
      if (notFit.has(pair)) break;
      if (fit.has(pair)) {
        cell.id = host.id;
        chosen.push(cell);
        continue;
      }
      const got = fitCell(
        host,
        cell,
        limits,
        emulatorIsolated && chosen.length === 0 ? 1 : 0,
        opts.verdictOnly,
        opts.freeSmallPages,
        opts.emptyPinningFits,
      );
      if (got === null || got === UNSUPPORTED) {
        notFit.add(pair);
        break;
      }
      chosen.push(got);
      fit.add(pair);
    }
    if (chosen.length !== perm.length) continue;
    if (pciRequests?.length && pciStats && !pciStats.supportRequests(pciRequests, chosen)) {
      if (opts.pciMiss && !opts.pciMiss.hostCells) opts.pciMiss.hostCells = chosen.map((c) => c.id);
      continue;
    }
    return { cells: chosen, emulatorThreadsPolicy: topology.emulatorThreadsPolicy };
  }
  return null;
}
