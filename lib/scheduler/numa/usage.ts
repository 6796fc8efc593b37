/**
 * hardware.numa_usage_from_instance_numa: the host cells after a guest was
 * placed on them (memory, shared CPU usage, pages, pinned CPUs with their
 * siblings for `isolate`). New cells, as Nova builds new NUMACell objects.
 */
import { NovaError } from "../python";
import { type InstanceNUMATopology, type NUMACell, type NUMAPages, withDerived } from "./objects";
import { PySet } from "./pyset";

/** _numa_pagesize_usage_from_cell: pages of the guest's size (else the smallest) are used. */
function pagesAfter(host: NUMACell, cell: InstanceNUMATopology["cells"][number]): NUMAPages[] {
  let pagesize = cell.pagesize;
  if (!pagesize) {
    if (!host.mempages.length) throw new NovaError("IndexError", `host NUMA cell ${host.id} has no memory pages`);
    pagesize = Math.min(...host.mempages.map((p) => p.sizeKb));
  }
  return host.mempages.map((p) =>
    p.sizeKb === pagesize ? { ...p, used: Math.trunc(Math.max(0, p.used + (cell.memory * 1024) / p.sizeKb)) } : p,
  );
}

/** NUMACell.pin_cpus: pinned_cpus |= cpus (checked), stored through the field's coercion. */
function pinCpus(cell: NUMACell, cpus: PySet): void {
  if (cpus.values().some((c) => !cell.pcpuset.has(c)))
    throw new NovaError("CPUPinningUnknown", `CPUs ${cpus.sorted()} are not all in cell ${cell.id}'s pcpuset`);
  if (cpus.values().some((c) => cell.pinnedCpus.has(c)))
    throw new NovaError("CPUPinningInvalid", `CPUs ${cpus.sorted()} are already pinned in cell ${cell.id}`);
  const pinned = cell.pinnedCpus;
  pinned.merge(PySet.of(cpus.values()));
  cell.pinnedCpus = PySet.coerce(pinned);
}

/** NUMACell.pin_cpus_with_siblings: a pinned thread takes its whole core. */
function pinCpusWithSiblings(cell: NUMACell, cpus: PySet): void {
  const all = new PySet();
  for (const sib of cell.siblings) if (cpus.and(sib).size) all.merge(sib);
  pinCpus(cell, all);
}

/** The new host cells; throws like Nova when they cannot take the guest (the old cells stay). */
export function numaUsageFromInstance(
  hostCells: NUMACell[],
  topology: InstanceNUMATopology,
  emptyPinningFits = false,
): NUMACell[] {
  const out: NUMACell[] = [];
  for (const host of hostCells) {
    let memoryUsage = host.memoryUsage;
    let cpuUsage = host.cpuUsage;
    const cell: NUMACell = {
      ...host,
      cpuset: PySet.coerce(host.cpuset),
      pcpuset: PySet.coerce(host.pcpuset),
      pinnedCpus: PySet.coerce(host.pinnedCpus),
      siblings: host.siblings.map((s) => PySet.coerce(s)),
      derived: undefined,
    };
    for (const guest of topology.cells) {
      if (guest.id !== host.id) continue;
      cell.mempages = pagesAfter(cell, guest);
      memoryUsage += guest.memory;
      cpuUsage += guest.cpuset.length;
      if (guest.cpuPolicy === null || guest.cpuPolicy === "shared") continue;
      // Nova 31 reads `cpu_pinning or set()`: the pinned guest cell with no dedicated vCPU it lets fit
      if (!guest.cpuPinning && !emptyPinningFits)
        throw new NovaError("AttributeError", "'NoneType' object has no attribute 'values'");
      const pinned = PySet.of(guest.cpuPinning?.values() ?? []);
      if (guest.cpusetReserved) pinned.merge(guest.cpusetReserved);
      if (guest.cpuThreadPolicy === "isolate") pinCpusWithSiblings(cell, pinned);
      else pinCpus(cell, pinned);
    }
    cell.memoryUsage = Math.max(0, memoryUsage);
    cell.cpuUsage = Math.max(0, cpuUsage);
    out.push(withDerived(cell));
  }
  return out;
}
