/**
 * A host's NUMA topology and PCI device pools as the host page shows them:
 * per cell, each physical core with its SMT threads and what each thread is
 * (shared, dedicated, pinned), the memory pages per size and the devices on
 * the cell. Pure: the page, the API and the tests read the same view.
 */
import { formatCpuList, formatKib } from "../catalog/hw-specs";
import type { NumaTopologyInput, PciDevicePoolInput } from "../scenario/schema";

export type CpuRole = "shared" | "dedicated" | "shared and dedicated";

export interface CpuView {
  cpu: number;
  role: CpuRole;
  pinned: boolean;
  /** What a screen reader hears: "CPU 4: dedicated, pinned". */
  label: string;
}

export interface PagePoolView {
  sizeKb: number;
  size: string;
  total: number;
  used: number;
  reserved: number;
  free: number;
}

export interface DevicePoolView {
  vendorId: string;
  productId: string;
  deviceType: string | null;
  count: number;
  tags: Record<string, string>;
  label: string;
}

export interface CellView {
  id: number;
  socket: number | null;
  /** SMT thread sets (cores), each its threads in order. */
  cores: CpuView[][];
  shared: number;
  dedicated: number;
  pinned: number;
  freeDedicated: number;
  /** Shared vCPUs in use on this cell (cpu_usage). */
  cpuUsage: number;
  memoryMb: number;
  memoryUsageMb: number;
  pages: PagePoolView[];
  devices: DevicePoolView[];
  summary: string;
}

export interface NumaView {
  cells: CellView[];
  /** Pools whose devices report no NUMA node. */
  unaffinedDevices: DevicePoolView[];
  smt: boolean;
}

function deviceView(p: PciDevicePoolInput): DevicePoolView {
  const tags = (p.tags ?? {}) as Record<string, string>;
  const type = tags.dev_type ?? null;
  const extra = Object.entries(tags)
    .filter(([k]) => k !== "dev_type")
    .map(([k, v]) => `${k}=${v}`);
  return {
    vendorId: p.vendor_id,
    productId: p.product_id,
    deviceType: type,
    count: p.count,
    tags,
    label: `${p.count} free × ${p.vendor_id}:${p.product_id}${type ? ` (${type})` : ""}${extra.length ? `, ${extra.join(", ")}` : ""}`,
  };
}

export function describeNumaTopology(
  topology: NumaTopologyInput | null | undefined,
  pools: PciDevicePoolInput[] | null | undefined,
): NumaView | null {
  const allPools = pools ?? [];
  if (!topology && allPools.length === 0) return null;
  const cells: CellView[] = (topology?.cells ?? []).map((c) => {
    const shared = new Set(c.cpuset);
    const dedicated = new Set(c.pcpuset ?? []);
    const pinned = new Set(c.pinned_cpus ?? []);
    const cpuView = (cpu: number): CpuView => {
      const role: CpuRole =
        shared.has(cpu) && dedicated.has(cpu) ? "shared and dedicated" : dedicated.has(cpu) ? "dedicated" : "shared";
      const isPinned = pinned.has(cpu);
      return { cpu, role, pinned: isPinned, label: `CPU ${cpu}: ${role}${isPinned ? ", pinned" : ", free"}` };
    };
    const all = [...new Set([...c.cpuset, ...(c.pcpuset ?? [])])].sort((a, b) => a - b);
    // Nova's default without siblings: one thread per core
    const siblingSets = c.siblings?.length ? c.siblings : all.map((x) => [x]);
    const seen = new Set<number>();
    const cores = siblingSets.map((set) =>
      set.map((cpu) => {
        seen.add(cpu);
        return cpuView(cpu);
      }),
    );
    for (const cpu of all) if (!seen.has(cpu)) cores.push([cpuView(cpu)]);
    const pages = (c.mempages?.length ? c.mempages : [{ size_kb: 4, total: c.memory * 256 }]).map((m) => {
      const used = m.used ?? 0;
      const reserved = m.reserved ?? 0;
      return {
        sizeKb: m.size_kb,
        size: formatKib(m.size_kb),
        total: m.total,
        used,
        reserved,
        free: m.total - used - reserved,
      };
    });
    const devices = allPools.filter((p) => p.numa_node === c.id).map(deviceView);
    const freeDedicated = [...dedicated].filter((x) => !pinned.has(x)).length;
    const sameSets = shared.size === dedicated.size && [...shared].every((x) => dedicated.has(x));
    const summary = sameSets
      ? `${all.length} CPUs (${formatCpuList(all)}), usable shared or pinned; ${pinned.size} pinned`
      : `${shared.size} shared CPUs (${formatCpuList([...shared]) || "none"}), ${dedicated.size} dedicated (${formatCpuList([...dedicated]) || "none"}), ${pinned.size} pinned`;
    return {
      id: c.id,
      socket: c.socket ?? null,
      cores,
      shared: shared.size,
      dedicated: dedicated.size,
      pinned: pinned.size,
      freeDedicated,
      cpuUsage: c.cpu_usage ?? 0,
      memoryMb: c.memory,
      memoryUsageMb: c.memory_usage ?? 0,
      pages,
      devices,
      summary,
    };
  });
  const cellIds = new Set(cells.map((c) => c.id));
  return {
    cells,
    unaffinedDevices: allPools.filter((p) => p.numa_node == null || !cellIds.has(p.numa_node)).map(deviceView),
    smt: cells.some((c) => c.cores.some((core) => core.length > 1)),
  };
}
