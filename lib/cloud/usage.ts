/**
 * What an instance holds on its compute node, and the edit a committed
 * placement or move makes to the node's usage: Placement's classes (VCPU or
 * PCPU, MEMORY_MB, DISK_GB, and the flavor's other `resources:` classes on
 * the node's own inventories or its child providers), the instance count,
 * and the NUMA cells and PCI pools nova-compute reports.
 *
 * One rule for every writer (a boot commit, a move commit, a drain or a
 * host loss on a cloud file), so that the usage always stays the sum of
 * what the instances on a host hold: lib/cloud/integrity.ts checks it.
 * Pure: it edits a host in the scenario format; the database side reads and
 * writes the row's columns (lib/cloud/usage-row.ts).
 */
import type { PciTaken } from "@/lib/scheduler/numa/consume";
import type { FittedCell } from "@/lib/scheduler/numa/objects";
import type {
  ScenarioConfig,
  ScenarioFlavor,
  ScenarioHost,
  ScenarioNumaCell,
  ScenarioPciPool,
} from "@/lib/scheduler/scenario";

/** The host fields this module reads and edits. */
export type UsageHost = Pick<
  ScenarioHost,
  | "vcpus_used"
  | "memory_mb_used"
  | "local_gb_used"
  | "num_instances"
  | "free_ram_mb"
  | "free_disk_gb"
  | "disk_available_least"
  | "pcpus"
  | "pcpus_used"
  | "numa_topology"
  | "pci_device_pools"
  | "inventories"
  | "child_providers"
>;

/** What the scheduler's consume step placed for the instance, where it says (a selection's numa / pci, a claim's allocations). */
export interface Placed {
  numa?: FittedCell[] | null;
  pci?: PciTaken[];
  /** {provider name: {class: amount}} of the claimed allocation request (child providers) */
  allocations?: Record<string, Record<string, number>> | null;
}

/** A PCI alias of the scheduler's config: which device an alias names. */
export interface PciAliasRef {
  name: string;
  vendor_id?: string;
  product_id?: string;
}

/** The config's PCI aliases ([pci] alias: JSON text or objects) as the usage edit reads them. */
export function pciAliases(config: ScenarioConfig | null | undefined): PciAliasRef[] {
  return (config?.pci_alias ?? []).flatMap((a) => {
    try {
      const o = (typeof a === "string" ? JSON.parse(a) : a) as Record<string, unknown>;
      const list = Array.isArray(o) ? o : [o];
      return list.map((x) => ({
        name: String(x.name ?? ""),
        ...(x.vendor_id !== undefined ? { vendor_id: String(x.vendor_id) } : {}),
        ...(x.product_id !== undefined ? { product_id: String(x.product_id) } : {}),
      }));
    } catch {
      return [];
    }
  });
}

const STANDARD = new Set(["VCPU", "PCPU", "MEMORY_MB", "DISK_GB"]);
const n0 = (v: unknown) => Number(v ?? 0) || 0;

export function isDedicated(f: ScenarioFlavor): boolean {
  return f.extra_specs?.["hw:cpu_policy"] === "dedicated";
}

/**
 * Placement's amounts for an instance of `f` on `h` (scheduler/utils.py
 * resources_from_flavor with `resources:` overrides): pinned CPUs come out
 * of the PCPU inventory where the node reports one, else VCPU; disk is
 * root + ephemeral + swap rounded up to GB. Zeros dropped.
 */
export function flavorAmounts(f: ScenarioFlavor, h: Pick<UsageHost, "pcpus">): Map<string, number> {
  const specs = f.extra_specs ?? {};
  const override = (rc: string, own: number) => {
    const v = specs[`resources:${rc}`];
    return v !== undefined ? n0(v) : own;
  };
  const out = new Map<string, number>();
  const cpuClass = isDedicated(f) && n0(h.pcpus) > 0 ? "PCPU" : "VCPU";
  const cpus = override(cpuClass, n0(f.vcpus));
  if (cpus) out.set(cpuClass, cpus);
  const mem = override("MEMORY_MB", n0(f.memory_mb));
  if (mem) out.set("MEMORY_MB", mem);
  const disk = override("DISK_GB", n0(f.root_gb) + n0(f.ephemeral_gb) + Math.ceil(n0(f.swap) / 1024));
  if (disk) out.set("DISK_GB", disk);
  for (const [k, v] of Object.entries(specs)) {
    const m = /^resources\d*:(.+)$/.exec(k);
    if (m && !STANDARD.has(m[1]) && n0(v) > 0) out.set(m[1], (out.get(m[1]) ?? 0) + n0(v));
  }
  return out;
}

/** The PCI devices a flavor asks for through `pci_passthrough:alias` ("a40:1,b:2"), as alias refs with counts. */
function pciWants(f: ScenarioFlavor, aliases: readonly PciAliasRef[]): { alias: PciAliasRef; count: number }[] {
  const spec = f.extra_specs?.["pci_passthrough:alias"];
  if (!spec) return [];
  return spec.split(",").flatMap((part) => {
    const [name, count] = part.split(":");
    const alias = aliases.find((a) => a.name === name.trim());
    return alias ? [{ alias, count: n0(count ?? 1) || 1 }] : [];
  });
}

function pageSizeKb(spec: string | undefined): number | null {
  if (spec === undefined || spec === "small" || spec === "any") return null;
  if (spec === "large") return -1;
  const m = /^(\d+)(KB|MB|GB)?$/i.exec(spec);
  if (!m) return null;
  const unit = (m[2] ?? "KB").toUpperCase();
  return Number(m[1]) * (unit === "GB" ? 1048576 : unit === "MB" ? 1024 : 1);
}

/** Whether the guest has a NUMA topology nova-compute accounts in the host's cells. */
function wantsNuma(f: ScenarioFlavor): boolean {
  const s = f.extra_specs ?? {};
  return isDedicated(f) || s["hw:mem_page_size"] !== undefined || s["hw:numa_nodes"] !== undefined;
}

/** Add `sign` × the Placement amounts to the node's counters and providers. */
function placementUsage(h: UsageHost, amounts: Map<string, number>, sign: 1 | -1, placed?: Placed): void {
  for (const [rc, n] of amounts) {
    const d = sign * n;
    if (rc === "VCPU") h.vcpus_used = n0(h.vcpus_used) + d;
    else if (rc === "PCPU") h.pcpus_used = n0(h.pcpus_used) + d;
    else if (rc === "MEMORY_MB") {
      h.memory_mb_used = n0(h.memory_mb_used) + d;
      if (h.free_ram_mb !== undefined && h.free_ram_mb !== null) h.free_ram_mb -= d;
    } else if (rc === "DISK_GB") {
      h.local_gb_used = n0(h.local_gb_used) + d;
      if (h.free_disk_gb !== undefined && h.free_disk_gb !== null) h.free_disk_gb -= d;
      if (h.disk_available_least !== undefined && h.disk_available_least !== null) h.disk_available_least -= d;
    } else customUsage(h, rc, n, sign, placed);
  }
}

/** A class beyond the standard four: where the claim put it, else the first provider of the tree with room (or holding it). */
function customUsage(h: UsageHost, rc: string, n: number, sign: 1 | -1, placed?: Placed): void {
  const children = h.child_providers ?? [];
  const claimed = placed?.allocations
    ? Object.entries(placed.allocations).find(([, a]) => n0(a[rc]) > 0)?.[0]
    : undefined;
  const childUsed = (c: (typeof children)[number]) => n0(c.usages?.[rc] ?? c.inventories?.[rc]?.used);
  const setChild = (c: (typeof children)[number], v: number) => {
    c.usages = { ...(c.usages ?? {}), [rc]: v };
  };
  const claimedChild = claimed ? children.find((c) => c.name === claimed) : undefined;
  if (claimedChild?.inventories?.[rc]) {
    setChild(claimedChild, childUsed(claimedChild) + sign * n);
    return;
  }
  const own = h.inventories?.[rc];
  const free = (total: number, reserved: unknown, used: number) => total - n0(reserved) - used;
  if (own && (sign > 0 ? free(own.total, own.reserved, n0(own.used)) >= n : n0(own.used) >= n)) {
    own.used = n0(own.used) + sign * n;
    return;
  }
  const child = children.find((c) => {
    const inv = c.inventories?.[rc];
    if (!inv) return false;
    return sign > 0 ? free(inv.total, inv.reserved, childUsed(c)) >= n : childUsed(c) >= n;
  });
  if (child) setChild(child, childUsed(child) + sign * n);
  else if (own) own.used = n0(own.used) + sign * n;
}

const sorted = (xs: Iterable<number>) => [...new Set(xs)].sort((a, b) => a - b);

function cellPages(c: ScenarioNumaCell, sizeKb: number | null) {
  const pages = c.mempages ?? [];
  if (sizeKb === null) return null;
  if (sizeKb === -1) return [...pages].sort((a, b) => b.size_kb - a.size_kb).find((p) => p.size_kb > 4) ?? null;
  return pages.find((p) => p.size_kb === sizeKb) ?? null;
}

/** The cells after the guest the scheduler fitted (hardware.numa_usage_from_instance_numa), from its fitted cells. */
function takeFittedCells(cells: ScenarioNumaCell[], fitted: FittedCell[]): void {
  for (const g of fitted) {
    const c = cells.find((x) => x.id === g.host_cell);
    if (!c) continue;
    c.memory_usage = n0(c.memory_usage) + g.memory;
    c.cpu_usage = n0(c.cpu_usage) + g.cpuset.length;
    const pins = [...Object.values(g.cpu_pinning), ...(g.cpuset_reserved ?? [])];
    if (pins.length) c.pinned_cpus = sorted([...(c.pinned_cpus ?? []), ...pins]);
    const size = g.pagesize ?? Math.min(...(c.mempages ?? []).map((p) => p.size_kb));
    const pages = (c.mempages ?? []).find((p) => p.size_kb === size);
    if (pages) pages.used = n0(pages.used) + Math.trunc((g.memory * 1024) / pages.size_kb);
  }
}

/** Whether the fitted cells' pinned CPUs and memory are still free (a stored run's fit may be older than the cells). */
function stillFree(cells: ScenarioNumaCell[], fitted: FittedCell[]): boolean {
  return fitted.every((g) => {
    const c = cells.find((x) => x.id === g.host_cell);
    if (!c || c.memory - n0(c.memory_usage) < g.memory) return false;
    const pinned = new Set(c.pinned_cpus ?? []);
    const pcpus = new Set(c.pcpuset ?? []);
    return [...Object.values(g.cpu_pinning), ...(g.cpuset_reserved ?? [])].every((x) => pcpus.has(x) && !pinned.has(x));
  });
}

/**
 * No fitted cells known (a cloud file's move, a stored run without them):
 * the first cell with room takes the guest whole, whole cores first, as
 * the demo cloud placed its instances.
 */
function takeFirstCell(cells: ScenarioNumaCell[], f: ScenarioFlavor, pinned: boolean): number | null {
  const size = pageSizeKb(f.extra_specs?.["hw:mem_page_size"]);
  for (const c of cells) {
    if (c.memory - n0(c.memory_usage) < f.memory_mb) continue;
    const pages = cellPages(c, size);
    const need = pages ? (f.memory_mb * 1024) / pages.size_kb : 0;
    if (size !== null && (!pages || pages.total - n0(pages.used) - n0(pages.reserved) < need)) continue;
    const pins: number[] = [];
    if (pinned) {
      const taken = new Set(c.pinned_cpus ?? []);
      const free = (c.pcpuset ?? []).filter((x) => !taken.has(x));
      if (free.length < f.vcpus) continue;
      for (const core of c.siblings ?? []) {
        if (pins.length + core.length > f.vcpus) break;
        if (core.every((x) => free.includes(x) && !pins.includes(x))) pins.push(...core);
      }
      for (const x of free) if (pins.length < f.vcpus && !pins.includes(x)) pins.push(x);
      c.pinned_cpus = sorted([...taken, ...pins]);
    } else c.cpu_usage = n0(c.cpu_usage) + f.vcpus;
    c.memory_usage = n0(c.memory_usage) + f.memory_mb;
    if (pages) pages.used = n0(pages.used) + need;
    return c.id;
  }
  return null;
}

/**
 * Give the guest back: an instance row records no cells, so the cell that
 * can account for it (enough pinned CPUs, memory and pages in use) gives
 * back its pinned CPUs (the highest first), memory and pages.
 */
function giveBackCell(cells: ScenarioNumaCell[], f: ScenarioFlavor, pinned: boolean): number | null {
  const size = pageSizeKb(f.extra_specs?.["hw:mem_page_size"]);
  for (const c of cells) {
    if (n0(c.memory_usage) < f.memory_mb) continue;
    if (pinned && (c.pinned_cpus ?? []).length < f.vcpus) continue;
    if (!pinned && n0(c.cpu_usage) < f.vcpus) continue;
    const pages = cellPages(c, size);
    const need = pages ? (f.memory_mb * 1024) / pages.size_kb : 0;
    if (pages && n0(pages.used) < need) continue;
    if (pinned) c.pinned_cpus = (c.pinned_cpus ?? []).slice(0, (c.pinned_cpus ?? []).length - f.vcpus);
    else c.cpu_usage = n0(c.cpu_usage) - f.vcpus;
    c.memory_usage = n0(c.memory_usage) - f.memory_mb;
    if (pages) pages.used = n0(pages.used) - need;
    return c.id;
  }
  return null;
}

const samePool = (p: ScenarioPciPool, vendor: string | null | undefined, product: string | null | undefined) =>
  (vendor == null || String(p.vendor_id) === vendor) && (product == null || String(p.product_id) === product);

/**
 * Take `f`'s place on `h` (a boot or a move's destination): Placement's
 * amounts, one instance, and the NUMA cells and PCI devices the scheduler's
 * consume step took (`placed`), or, not known, the first cell and pool with room.
 */
export function takeInstance(
  h: UsageHost,
  f: ScenarioFlavor,
  placed: Placed = {},
  aliases: readonly PciAliasRef[] = [],
): void {
  placementUsage(h, flavorAmounts(f, h), 1, placed);
  h.num_instances = n0(h.num_instances) + 1;
  const cells = h.numa_topology?.cells ?? [];
  let cell: number | null = null;
  if (placed.numa?.length && cells.length && stillFree(cells, placed.numa)) takeFittedCells(cells, placed.numa);
  else if (wantsNuma(f) && cells.length) cell = takeFirstCell(cells, f, isDedicated(f) && n0(h.pcpus) > 0);
  const pools = h.pci_device_pools ?? [];
  if (placed.pci?.length) {
    for (const t of placed.pci) {
      const pool =
        pools.find((p) => samePool(p, t.vendor_id, t.product_id) && (p.numa_node ?? null) === t.numa_node) ??
        pools.find((p) => samePool(p, t.vendor_id, t.product_id));
      if (pool) pool.count -= t.count;
    }
  } else
    for (const { alias, count } of pciWants(f, aliases)) {
      const fits = (p: ScenarioPciPool) => samePool(p, alias.vendor_id, alias.product_id) && p.count >= count;
      const pool = pools.find((p) => fits(p) && (cell === null || p.numa_node === cell)) ?? pools.find(fits);
      if (pool) pool.count -= count;
    }
}

/** Give `f`'s place on `h` back (a move's source): the reverse of takeInstance, cells and pools as giveBackCell finds them. */
export function giveBackInstance(h: UsageHost, f: ScenarioFlavor, aliases: readonly PciAliasRef[] = []): void {
  placementUsage(h, flavorAmounts(f, h), -1);
  h.num_instances = Math.max(n0(h.num_instances) - 1, 0);
  const cells = h.numa_topology?.cells ?? [];
  const cell = wantsNuma(f) && cells.length ? giveBackCell(cells, f, isDedicated(f) && n0(h.pcpus) > 0) : null;
  const pools = h.pci_device_pools ?? [];
  for (const { alias, count } of pciWants(f, aliases)) {
    const same = (p: ScenarioPciPool) => samePool(p, alias.vendor_id, alias.product_id);
    const pool = pools.find((p) => same(p) && (cell === null || p.numa_node === cell)) ?? pools.find(same);
    if (pool) pool.count += count;
  }
}
