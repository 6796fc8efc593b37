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
  cellFreePcpus,
  type InstanceNUMACell,
  type InstanceNUMATopology,
  MEMPAGES_ANY,
  MEMPAGES_LARGE,
  MEMPAGES_SMALL,
  type NUMACell,
} from "./objects";
import { packInstanceOntoCores } from "./pack";

/** objects.NUMATopologyLimits: the host's allocation ratios. */
export interface NUMALimits {
  cpuAllocationRatio: number;
  ramAllocationRatio: number;
}

/** Page size not on the host (MemoryPageSizeNotSupported in Nova). */
const UNSUPPORTED = Symbol("unsupported");

/** _numa_cell_supports_pagesize_request: the size to use, or null. */
function supportedPagesize(host: NUMACell, cell: InstanceNUMACell): number | null | typeof UNSUPPORTED {
  const sizes = host.mempages.map((p) => p.sizeKb).sort((a, b) => b - a);
  const memKb = cell.memory * 1024;
  const first = (candidates: number[]) => {
    for (const size of candidates) {
      const fits = cellCanFitPagesize(host, size, memKb);
      if (fits === null) return UNSUPPORTED;
      if (fits) return size;
    }
    return null;
  };
  if (cell.pagesize === MEMPAGES_SMALL) return first(sizes.slice(-1));
  if (cell.pagesize === MEMPAGES_LARGE) return first(sizes.slice(0, -1));
  if (cell.pagesize === MEMPAGES_ANY) return first(sizes);
  return first([cell.pagesize!]);
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
): InstanceNUMACell | null | typeof UNSUPPORTED {
  if (cell.pagesize) {
    const size = supportedPagesize(host, cell);
    if (size === UNSUPPORTED) return UNSUPPORTED;
    if (!size) return null;
    cell.pagesize = size;
  } else if (host.mempages.length) {
    // No size asked: smallest pages, overcommit allowed (total, not free).
    const smallest = Math.min(...host.mempages.map((p) => p.sizeKb));
    if (!cellCanFitPagesize(host, smallest, cell.memory * 1024, false)) return null;
  } else if (cell.memory > host.memory) return null;

  if (dedicatedOrMixed(cell) && cell.pcpuset.length + cpusetReserved > host.pcpuset.size) return null;
  if (sharedOrMixed(cell) && cell.cpuset.length > host.cpuset.size) return null;

  let fitted: InstanceNUMACell | null = cell;
  if (dedicatedOrMixed(cell)) {
    if (cell.pcpuset.length + cpusetReserved > cellFreePcpus(host).size) return null;
    if (cell.memory > cellAvailMemory(host)) return null;
    fitted = packInstanceOntoCores(host, cell, cpusetReserved);
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

/** Python's sorted(key=...) with reverse, both stable. */
function sortedBy<T>(items: T[], key: (x: T) => number, reverse: boolean): T[] {
  return [...items].sort((a, b) => (reverse ? key(b) - key(a) : key(a) - key(b)));
}

export interface FitOptions {
  limits: NUMALimits | null;
  pciRequests: PciRequest[] | null;
  pciStats: PciDeviceStats | null;
  /** [compute] packing_host_numa_cells_allocation_strategy */
  pack: boolean;
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
    cells = sortedBy(cells, cellAvailMemory, !pack);
    const policy = topology.cells[0].cpuPolicy;
    if (policy === null || policy === "shared") cells = sortedBy(cells, (c) => c.cpuUsage, pack);
    else cells = sortedBy(cells, (c) => cellFreePcpus(c).size, !pack);
    if (pciStats) {
      const perCell = new Map<number | null, number>();
      for (const p of pciStats.pools) {
        const node = (p.props.get("numa_node") ?? null) as number | null;
        perCell.set(node, (perCell.get(node) ?? 0) + p.count);
      }
      // PCI cells first when devices are requested, last otherwise
      cells = sortedBy(cells, (c) => perCell.get(c.id) ?? 0, !!pciRequests?.length);
    }
  }

  const notFit = new Set<string>();
  const fit = new Set<string>();
  const emulatorIsolated = topology.emulatorThreadsPolicy === "isolate";
  for (const perm of permutations(cells, topology.cells.length)) {
    const chosen: InstanceNUMACell[] = [];
    for (let k = 0; k < perm.length; k++) {
      const host = perm[k];
      const cell = topology.cells[k];
      const pair = `${host.id},${cell.id}`;
      if (notFit.has(pair)) break;
      if (fit.has(pair)) {
        cell.id = host.id;
        chosen.push(cell);
        continue;
      }
      const got = fitCell(host, cell, limits, emulatorIsolated && chosen.length === 0 ? 1 : 0);
      if (got === null || got === UNSUPPORTED) {
        notFit.add(pair);
        break;
      }
      chosen.push(got);
      fit.add(pair);
    }
    if (chosen.length !== perm.length) continue;
    if (pciRequests?.length && pciStats && !pciStats.supportRequests(pciRequests, chosen)) continue;
    return { cells: chosen, emulatorThreadsPolicy: topology.emulatorThreadsPolicy };
  }
  return null;
}
