/**
 * hardware._pack_instance_onto_cores: pin a guest cell's dedicated vCPUs to
 * free host threads, honouring the thread policy (prefer / isolate /
 * require) and reserving host CPUs for isolated emulator threads.
 */
import { NovaError } from "../python";
import { cellFreeSiblings, type InstanceNUMACell, type NUMACell } from "./objects";
import { PySet } from "./pyset";

type Pinning = Array<[number, number]>;

/** _get_pinning: vCPUs (sorted) onto the first `threadsNo` threads of each core. */
function getPinning(threadsNo: number, siblingSet: number[][], instanceCores: number[]): Pinning | null {
  if (threadsNo * siblingSet.length < instanceCores.length) return null;
  const usable = siblingSet.flatMap((s) => s.slice(0, threadsNo));
  const n = Math.min(instanceCores.length, usable.length);
  const out: Pinning = [];
  for (let i = 0; i < n; i++) out.push([instanceCores[i], usable[i]]);
  return out;
}

/** _get_reserved: host CPUs left for the emulator threads once the vCPUs are pinned. */
function getReserved(
  siblingSet: number[][],
  pinning: Pinning | null,
  numReserved: number,
  isolate = false,
): PySet | null {
  if (!pinning?.length) return null;
  if (!numReserved) return null;
  const usable = siblingSet.map((s) => [...s]);
  for (const [, pcpu] of pinning) {
    // Python's list iteration while removing from the list: the next core is skipped.
    for (let i = 0; i < usable.length; i++) {
      const sib = usable[i];
      const at = sib.indexOf(pcpu);
      if (at < 0) continue;
      if (isolate) usable.splice(i, 1);
      else sib.splice(at, 1);
    }
  }
  const reserved = PySet.of(usable.flat().slice(0, numReserved));
  return reserved.size ? reserved : null;
}

/**
 * Returns the pinned cell (mutated: pinning, id, reserved CPUs) or null.
 * `emptyPinningFits`: Nova 31 tests `pinning is None` where Zed tested
 * `not pinning`, so a mixed guest cell with no dedicated vCPUs (an empty
 * pinning) fits instead of failing.
 */
export function packInstanceOntoCores(
  hostCell: NUMACell,
  cell: InstanceNUMACell,
  numCpuReserved = 0,
  emptyPinningFits = false,
): InstanceNUMACell | null {
  const none = (p: Pinning | null) => (emptyPinningFits ? p === null : !p?.length);
  if (!hostCell.siblings.length) throw new NovaError("ValueError", `host NUMA cell ${hostCell.id} has no sibling sets`);
  const threadsPerCore = Math.max(...hostCell.siblings.map((s) => s.size)) || 1;
  const siblingSets = new Map<number, number[][]>();
  const setsOf = (n: number): number[][] => {
    let l = siblingSets.get(n);
    if (!l) siblingSets.set(n, (l = []));
    return l;
  };
  for (const sib of cellFreeSiblings(hostCell)) for (let t = 1; t <= sib.length; t++) setsOf(t).push(sib);

  let pinning: Pinning | null = null;
  let reserved: PySet | null = null;
  const policy = cell.cpuThreadPolicy;
  if (policy === "isolate") {
    if (!siblingSets.has(threadsPerCore)) return null;
    if (threadsPerCore !== 1 && !sameSet(hostCell.pcpuset, hostCell.cpuset)) return null;
    pinning = getPinning(1, setsOf(threadsPerCore), cell.pcpuset);
    reserved = getReserved(setsOf(1), pinning, numCpuReserved, true);
    if (!pinning?.length || (numCpuReserved && !reserved)) {
      pinning = null;
      reserved = null;
    }
  } else {
    if (policy === "require" && threadsPerCore <= 1) return null;
    let threadsNo = 1;
    // Most threads per core first: spread guests over physical cores.
    for (const t of [...siblingSets.keys()].sort((a, b) => b - a)) {
      threadsNo = t;
      if (policy === "require" && t <= 1) continue;
      pinning = getPinning(t, siblingSets.get(t)!, cell.pcpuset);
      reserved = getReserved(setsOf(1), pinning, numCpuReserved);
      if (none(pinning) || (numCpuReserved && !reserved)) continue;
      break;
    }
    if (policy !== "require" && !pinning?.length) {
      // Fall back to any free thread, each core treated as if it had no siblings.
      const single = setsOf(1).flatMap((s) => s.map((x) => [x]));
      pinning = getPinning(threadsNo, single, cell.pcpuset);
      reserved = getReserved(single, pinning, numCpuReserved);
    }
  }
  if (none(pinning) || (numCpuReserved && !reserved)) return null;
  pinVcpus(cell, pinning!);
  cell.id = hostCell.id;
  cell.cpusetReserved = reserved ? PySet.coerce(reserved) : null;
  return cell;
}

/**
 * Whether packInstanceOntoCores would pin the cell, without pinning: for
 * the thread policies prefer and none with no CPU reserved it does exactly
 * when the free sibling threads number at least the dedicated vCPUs (each
 * pass over thread counts takes only free threads, and the last falls back
 * to every one of them). Null for the other cases: ask packInstanceOntoCores.
 */
export function wouldPack(hostCell: NUMACell, cell: InstanceNUMACell, numCpuReserved: number): boolean | null {
  const policy = cell.cpuThreadPolicy;
  if (numCpuReserved || (policy !== null && policy !== "prefer")) return null;
  if (!hostCell.siblings.length || !cell.pcpuset.length) return null;
  let free = 0;
  for (const s of cellFreeSiblings(hostCell)) free += s.length;
  return free >= cell.pcpuset.length;
}

const sameSet = (a: PySet, b: PySet): boolean => a.size === b.size && a.values().every((x) => b.has(x));

/** InstanceNUMACell.pin_vcpus: only vCPUs of pcpuset are pinned; keys keep their first position. */
function pinVcpus(cell: InstanceNUMACell, pinning: Pinning): void {
  const pcpus = new Set(cell.pcpuset);
  for (const [vcpu, pcpu] of pinning) {
    if (!pcpus.has(vcpu)) continue;
    if (!cell.cpuPinning) cell.cpuPinning = new Map();
    cell.cpuPinning.set(vcpu, pcpu);
  }
}
