/**
 * A host's NUMA cells and PCI pools as HostState gets them: the scenario's
 * cells become NUMACells, are stored as JSON (ComputeNode.numa_topology) and
 * read back, so every CPU set goes through the same CPython set operations
 * as in Nova (its iteration order decides the pinning).
 */
import { NovaError, pyIntOfJson, pyIter } from "../python";
import type { ScenarioNumaCell, ScenarioPciPool } from "../scenario";
import { PciDeviceStats, type PciPool, type PoolValue } from "../pci/stats";
import { type NUMACell, withDerived } from "./objects";
import { PySet } from "./pyset";

const int = pyIntOfJson;

/**
 * set(int(x) for x in list) assigned to a NUMACell field, serialised to a
 * JSON list and read back (from_primitive, then the field's coercion).
 */
function cpuSet(list: ReadonlyArray<number>): PySet {
  // Hosts repeat the same lists; built sets are never changed (consuming copies them), so share them.
  const key = list.join(",");
  let s = BUILT.get(key);
  if (!s) {
    if (BUILT.size > 100_000) BUILT.clear();
    const stored = PySet.coerce(PySet.of(list));
    BUILT.set(key, (s = PySet.coerce(PySet.of(stored.values()))));
  }
  return s;
}

const BUILT = new Map<string, PySet>();

function cpuList(v: unknown, field: string): number[] {
  return v === undefined ? [] : pyIter(v, field).map((x, i) => int(x, `${field}[${i}]`));
}

export function buildNumaCells(cells: ScenarioNumaCell[], field: string): NUMACell[] {
  return cells.map((c, i) => {
    const f = `${field}.cells[${i}]`;
    return withDerived(buildCell(c, f));
  });
}

function buildCell(c: ScenarioNumaCell, f: string): NUMACell {
  const cpuset = cpuList(c.cpuset, `${f}.cpuset`);
  const pcpuset = cpuList(c.pcpuset, `${f}.pcpuset`);
  const memory = int(c.memory, `${f}.memory`);
  const siblings =
    c.siblings !== undefined
      ? pyIter(c.siblings, `${f}.siblings`).map((s, j) => cpuList(s, `${f}.siblings[${j}]`))
      : [...new Set([...cpuset, ...pcpuset])].sort((a, b) => a - b).map((x) => [x]);
  const mempages =
    c.mempages !== undefined
      ? pyIter(c.mempages, `${f}.mempages`).map((m, j) => {
          const p = m as { size_kb: number; total: number; used?: number; reserved?: number };
          return {
            sizeKb: int(p.size_kb, `${f}.mempages[${j}].size_kb`),
            total: int(p.total, `${f}.mempages[${j}].total`),
            used: int(p.used ?? 0, `${f}.mempages[${j}].used`),
            reserved: int(p.reserved ?? 0, `${f}.mempages[${j}].reserved`),
          };
        })
      : [{ sizeKb: 4, total: Math.floor((memory * 1024) / 4), used: 0, reserved: 0 }];
  if (c.socket !== undefined && c.socket !== null && typeof c.socket !== "number")
    throw new NovaError("ValueError", `${f}.socket: an integer is required`);
  return {
    id: int(c.id, `${f}.id`),
    cpuset: cpuSet(cpuset),
    pcpuset: cpuSet(pcpuset),
    memory,
    cpuUsage: int(c.cpu_usage ?? 0, `${f}.cpu_usage`),
    memoryUsage: int(c.memory_usage ?? 0, `${f}.memory_usage`),
    pinnedCpus: cpuSet(cpuList(c.pinned_cpus, `${f}.pinned_cpus`)),
    siblings: siblings.map(cpuSet),
    mempages,
    socket: c.socket ?? null,
    // same object shape as consumed cells: monomorphic in the host loop
    derived: undefined,
  };
}

/** ComputeNode.pci_device_pools -> PciDeviceStats (str() of ids and tags, as the reference builds them). */
export function buildPciStats(
  pools: ScenarioPciPool[] | undefined,
  cells: NUMACell[] | null,
  field: string,
): PciDeviceStats {
  const list: PciPool[] = (pools ?? []).map((p, i) => {
    const props = new Map<string, PoolValue>();
    props.set("product_id", String(p.product_id));
    props.set("vendor_id", String(p.vendor_id));
    props.set("numa_node", p.numa_node ?? null);
    for (const [k, v] of Object.entries(p.tags ?? {})) props.set(k, v === null ? null : String(v));
    return { props, count: int(p.count, `${field}[${i}].count`), numaNode: props.get("numa_node") ?? null };
  });
  return PciDeviceStats.fromPools(list, cells?.map((c) => ({ id: c.id, socket: c.socket })) ?? null);
}
