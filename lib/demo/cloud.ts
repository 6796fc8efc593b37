/**
 * The demo cloud (prisma/seed.ts): a pure, deterministic function of
 * (number of hosts, PRNG seed) that returns a cloud document in the scenario
 * format, which the seed then imports with importCloud.
 *
 * Layout: 3 availability zones (az1 40 %, az2 35 %, az3 25 %), 2 cells
 * (cell1 = az1 + az2, cell2 = az3), hosts named cmp-a<az>-<nnn>; hardware
 * classes general / highmem / ssd / gpu (+ a few aarch64 hosts in az3);
 * aggregates per AZ and per capability (gpu, ssd, highmem, a tenant-isolated
 * one, a dense "batch" one) with Nova metadata; a few disabled (with a
 * reason), down and forced-down hosts; instances placed on hosts so that each
 * host's usage (vcpus_used, memory_mb_used incl. reserved memory,
 * local_gb_used, num_instances) is exactly the sum of its instances' flavors;
 * server groups of every policy whose members respect their policy.
 */
import { DEFAULT_ENABLED_FILTERS } from "@/lib/scheduler/config";
import { mulberry32 } from "@/lib/scheduler/random";
import { stableUuid } from "@/lib/scheduler/nova-uuid";
import type { FilterName } from "@/lib/scheduler/names";
import type { ScenarioConfig } from "@/lib/scheduler/scenario";
import type { CloudDocument, ScenarioFlavorInput } from "../scenario/schema";

// ---------------------------------------------------------------------------
class Rng {
  private next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  weighted<T>(list: readonly (readonly [T, number])[]): T {
    const total = list.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [v, w] of list) {
      r -= w;
      if (r < 0) return v;
    }
    return list[list.length - 1][0];
  }
  /** A random (v4-shaped) uuid from the PRNG. */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = "4";
    hex[16] = "89ab"[Math.floor(this.next() * 4)];
    const s = hex.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
  hex(n: number): string {
    return Array.from({ length: n }, () => Math.floor(this.next() * 16).toString(16)).join("");
  }
}

// ---------------------------------------------------------------------------
// Catalogue

export const DEMO_FLAVORS: ScenarioFlavorInput[] = [
  { name: "m1.tiny", id: "1", vcpus: 1, memory_mb: 512, root_gb: 1, ephemeral_gb: 0, swap: 0, extra_specs: {} },
  { name: "m1.small", id: "2", vcpus: 1, memory_mb: 2048, root_gb: 20, ephemeral_gb: 0, swap: 0, extra_specs: {} },
  { name: "m1.medium", id: "3", vcpus: 2, memory_mb: 4096, root_gb: 40, ephemeral_gb: 0, swap: 0, extra_specs: {} },
  { name: "m1.large", id: "4", vcpus: 4, memory_mb: 8192, root_gb: 80, ephemeral_gb: 0, swap: 0, extra_specs: {} },
  { name: "m1.xlarge", id: "5", vcpus: 8, memory_mb: 16384, root_gb: 160, ephemeral_gb: 0, swap: 0, extra_specs: {} },
  {
    name: "m1.2xlarge",
    id: "6",
    vcpus: 16,
    memory_mb: 32768,
    root_gb: 160,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: { "hw:mem_page_size": "large" },
  },
  {
    name: "c1.xlarge",
    id: "c1-xl",
    vcpus: 8,
    memory_mb: 16384,
    root_gb: 40,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: {
      "hw:cpu_policy": "dedicated",
      "hw:cpu_thread_policy": "prefer",
      "capabilities:hypervisor_type": "s== QEMU",
    },
  },
  {
    name: "r1.2xlarge",
    id: "r1-2xl",
    vcpus: 16,
    memory_mb: 262144,
    root_gb: 80,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: { "aggregate_instance_extra_specs:highmem": "true", "hw:mem_page_size": "1GB" },
  },
  {
    name: "s1.large",
    id: "s1-l",
    vcpus: 4,
    memory_mb: 8192,
    root_gb: 200,
    ephemeral_gb: 200,
    swap: 0,
    extra_specs: { "aggregate_instance_extra_specs:ssd": "true", "trait:STORAGE_DISK_SSD": "required" },
  },
  {
    name: "w1.large",
    id: "w1-l",
    vcpus: 4,
    memory_mb: 16384,
    root_gb: 100,
    ephemeral_gb: 0,
    swap: 0,
    // the machine type is the image's hw_machine_type: nova-api refuses hw:machine_type in a flavor
    extra_specs: { "os:secure_boot": "required" },
  },
  {
    name: "gpu.large",
    id: "gpu-l",
    vcpus: 8,
    memory_mb: 65536,
    root_gb: 200,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: {
      "aggregate_instance_extra_specs:gpu": "true",
      "trait:HW_GPU_API_VULKAN": "required",
      "pci_passthrough:alias": "a40:1",
    },
  },
  {
    name: "gpu.xlarge",
    id: "gpu-xl",
    vcpus: 16,
    memory_mb: 131072,
    root_gb: 400,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: {
      "aggregate_instance_extra_specs:gpu": "true",
      "trait:HW_GPU_API_VULKAN": "required",
      "capabilities:hypervisor_type": "s== QEMU",
      "hw:cpu_policy": "dedicated",
      "pci_passthrough:alias": "a40:2",
    },
  },
  {
    name: "h1.large",
    id: "h1-l",
    vcpus: 4,
    memory_mb: 8192,
    root_gb: 40,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: { "hw:mem_page_size": "1GB", "hw:numa_nodes": "1" },
  },
  {
    name: "n1.dpdk",
    id: "n1-dpdk",
    vcpus: 4,
    memory_mb: 8192,
    root_gb: 20,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: {
      "hw:cpu_policy": "dedicated",
      "hw:cpu_thread_policy": "require",
      "hw:mem_page_size": "2MB",
      "pci_passthrough:alias": "vf:1",
    },
  },
  {
    // one vGPU of a physical GPU's type, from a child resource provider of the compute node
    name: "vgpu.small",
    id: "vgpu-s",
    vcpus: 4,
    memory_mb: 16384,
    root_gb: 40,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: { "resources:VGPU": "1" },
  },
  {
    // a whole Ironic node: its custom resource class, the standard classes zeroed
    name: "bm.large",
    id: "bm-l",
    vcpus: 32,
    memory_mb: 262144,
    root_gb: 800,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: {
      "resources:CUSTOM_BAREMETAL_LARGE": "1",
      "resources:VCPU": "0",
      "resources:MEMORY_MB": "0",
      "resources:DISK_GB": "0",
      "aggregate_instance_extra_specs:baremetal": "true",
    },
  },
];

/** PCI aliases of the demo's [pci] config: the GPU hosts' A40s and the NFV hosts' SR-IOV NICs. */
export const DEMO_PCI_ALIASES = [
  { name: "a40", vendor_id: "10de", product_id: "2235", device_type: "type-PCI", numa_policy: "legacy" },
  { name: "vf", vendor_id: "8086", product_id: "154c", device_type: "type-VF" },
  { name: "pf", vendor_id: "8086", product_id: "1572", device_type: "type-PF" },
];

const IMAGE_DEFS = [
  {
    name: "ubuntu-22.04",
    properties: {
      hw_architecture: "x86_64",
      img_hv_type: "kvm",
      hw_vm_mode: "hvm",
      os_distro: "ubuntu",
      os_version: "22.04",
      os_type: "linux",
    },
  },
  {
    name: "ubuntu-22.04-arm64",
    properties: {
      hw_architecture: "aarch64",
      img_hv_type: "kvm",
      hw_vm_mode: "hvm",
      os_distro: "ubuntu",
      os_version: "22.04",
      os_type: "linux",
    },
  },
  {
    name: "rhel-9.2",
    properties: {
      hw_architecture: "x86_64",
      img_hv_type: "kvm",
      hw_vm_mode: "hvm",
      os_distro: "rhel",
      os_version: "9.2",
      os_type: "linux",
      hw_machine_type: "q35",
    },
  },
  {
    name: "windows-server-2022",
    properties: {
      hw_architecture: "x86_64",
      img_hv_type: "kvm",
      hw_vm_mode: "hvm",
      os_distro: "windows",
      os_type: "windows",
      hw_firmware_type: "uefi",
      os_secure_boot: "required",
    },
  },
  {
    name: "ubuntu-22.04-baremetal",
    properties: { hw_architecture: "x86_64", img_hv_type: "baremetal", hw_vm_mode: "hvm", os_distro: "ubuntu" },
  },
  { name: "cirros-0.6.2", properties: { hw_architecture: "x86_64", hw_vm_mode: "hvm", os_distro: "cirros" } },
] as const;

export const DEMO_PROJECTS = {
  acme: "3f6a1c2e9b8d4f0aa1b2c3d4e5f60718",
  globex: "8d2e4b6a0c1f43e5b7a9c0d1e2f30415",
  initech: "b1c2d3e4f5a64b7c8d9e0f1a2b3c4d5e",
  umbrella: "5e4d3c2b1a0f4e9d8c7b6a5f4e3d2c1b",
} as const;

// config.ts may not name the registry's types (its filters read config.ts): every name there is a FilterName
const [NOVA_COMPUTE_FILTER, ...NOVA_OTHER_DEFAULT_FILTERS] = DEFAULT_ENABLED_FILTERS as FilterName[];

/**
 * Nova's default filters in order, with AvailabilityZoneFilter where Nova
 * had it before Zed (the demo's zones are its aggregates), plus the ones the
 * demo's aggregates need.
 */
export const DEMO_ENABLED_FILTERS = [
  NOVA_COMPUTE_FILTER,
  "AvailabilityZoneFilter",
  ...NOVA_OTHER_DEFAULT_FILTERS,
  "AggregateInstanceExtraSpecsFilter",
  "NumInstancesFilter",
  "IoOpsFilter",
] satisfies FilterName[];

/**
 * The "default" profile: Nova's Placement path (every Nova since Stein asks
 * Placement first), the filters above, every weigher, Nova's default
 * multipliers and options.
 */
export const DEFAULT_PROFILE_CONFIG: ScenarioConfig = {
  placement: true,
  enabled_filters: DEMO_ENABLED_FILTERS,
  weighers: "all",
  ram_weight_multiplier: 1.0,
  cpu_weight_multiplier: 1.0,
  disk_weight_multiplier: 1.0,
  io_ops_weight_multiplier: -1.0,
  pci_weight_multiplier: 1.0,
  soft_affinity_weight_multiplier: 1.0,
  soft_anti_affinity_weight_multiplier: 1.0,
  build_failure_weight_multiplier: 1000000.0,
  cross_cell_move_weight_multiplier: 1000000.0,
  metrics_weight_multiplier: 1.0,
  metrics_weight_setting: "",
  metrics_required: true,
  metrics_weight_of_unavailable: -10000.0,
  host_subset_size: 1,
  shuffle_best_same_weighed_hosts: false,
  max_attempts: 3,
  max_instances_per_host: 50,
  max_io_ops_per_host: 8,
  isolated_hosts: [],
  isolated_images: [],
  restrict_isolated_hosts_to_isolated_images: true,
  aggregate_image_properties_isolation_namespace: null,
  aggregate_image_properties_isolation_separator: ".",
  default_availability_zone: "nova",
  pci_alias: DEMO_PCI_ALIASES,
} as ScenarioConfig;

/** "stacking": pack hosts by RAM instead of spreading. */
export const STACKING_PROFILE_CONFIG: ScenarioConfig = { ...DEFAULT_PROFILE_CONFIG, ram_weight_multiplier: -1.0 };

/** "placement": the default profile with the AZ and tenant aggregates asked of Placement. */
export const PLACEMENT_PROFILE_CONFIG: ScenarioConfig = {
  ...DEFAULT_PROFILE_CONFIG,
  query_placement_for_availability_zone: true,
  limit_tenants_to_placement_aggregate: true,
} as ScenarioConfig;

/** "filters-only": the default profile without Placement; nothing checks RAM, CPU or disk. */
export const FILTERS_ONLY_PROFILE_CONFIG: ScenarioConfig = { ...DEFAULT_PROFILE_CONFIG, placement: false };

/** "nfv": the default profile plus NUMATopologyFilter and PciPassthroughFilter (pinned CPUs, huge pages, PCI). */
export const NFV_PROFILE_CONFIG: ScenarioConfig = {
  ...DEFAULT_PROFILE_CONFIG,
  enabled_filters: [...DEMO_ENABLED_FILTERS, "NUMATopologyFilter", "PciPassthroughFilter"],
};

export const DEMO_PROFILES: { name: string; description: string; config: ScenarioConfig; active: boolean }[] = [
  {
    name: "default",
    description:
      "Nova's Placement path, Nova's default filters (+ AZ, aggregate extra specs, instance and I/O limits), every weigher, Nova's default multipliers",
    config: DEFAULT_PROFILE_CONFIG,
    active: true,
  },
  {
    name: "stacking",
    description: "As default, but ram_weight_multiplier = -1.0: fill hosts up before using empty ones",
    config: STACKING_PROFILE_CONFIG,
    active: false,
  },
  {
    name: "placement",
    description:
      "As default, with the AZ and tenant aggregates asked of Placement (limit_tenants_to_placement_aggregate)",
    config: PLACEMENT_PROFILE_CONFIG,
    active: false,
  },
  {
    name: "filters-only",
    description: "As default, but filters only: no Placement, nothing checks RAM, CPU or disk",
    config: FILTERS_ONLY_PROFILE_CONFIG,
    active: false,
  },
  {
    name: "nfv",
    description:
      "As default, plus NUMATopologyFilter and PciPassthroughFilter: pinned CPUs, huge pages, guest NUMA nodes and PCI devices must fit",
    config: NFV_PROFILE_CONFIG,
    active: false,
  },
];

// ---------------------------------------------------------------------------
// NUMA cells and PCI pools (as the libvirt driver reports them)

type NumaCell = {
  id: number;
  cpuset: number[];
  pcpuset: number[];
  memory: number;
  cpu_usage: number;
  memory_usage: number;
  pinned_cpus: number[];
  siblings: number[][];
  mempages: { size_kb: number; total: number; used: number; reserved: number }[];
  socket: number;
};
type PciPool = {
  vendor_id: string;
  product_id: string;
  numa_node: number;
  count: number;
  tags: Record<string, string>;
};

const SRIOV_TAGS = { physical_network: "physnet1", remote_managed: "false" };
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/**
 * A 2-socket host, 16 cores x 2 threads per socket: socket s has cores
 * s*16 .. s*16+15, whose SMT siblings are +32 (Linux's numbering).
 */
function socketThreads(socket: number, cores: number[]): number[] {
  return [...cores.map((c) => socket * 16 + c), ...cores.map((c) => 32 + socket * 16 + c)].sort((a, b) => a - b);
}
function socketSiblings(socket: number): number[][] {
  return range(0, 16).map((c) => [socket * 16 + c, 32 + socket * 16 + c]);
}

/** NFV cell: cores 0-3 shared (cpu_shared_set), 4-15 dedicated; 32 x 1 GiB + 8192 x 2 MiB pages. */
function nfvCell(socket: number): NumaCell {
  const memory = 196608;
  const huge1g = 32;
  const huge2m = 8192;
  return {
    id: socket,
    cpuset: socketThreads(socket, range(0, 4)),
    pcpuset: socketThreads(socket, range(4, 12)),
    memory,
    cpu_usage: 0,
    memory_usage: 0,
    pinned_cpus: [],
    siblings: socketSiblings(socket),
    mempages: [
      { size_kb: 4, total: (memory - huge1g * 1024 - huge2m * 2) * 256, used: 0, reserved: 0 },
      { size_kb: 2048, total: huge2m, used: 0, reserved: 0 },
      { size_kb: 1048576, total: huge1g, used: 0, reserved: 0 },
    ],
    socket,
  };
}

/** GPU cell: neither CPU set configured, so libvirt reports cpuset == pcpuset; small pages only. */
function gpuCell(socket: number): NumaCell {
  const cpus = socketThreads(socket, range(0, 16));
  const memory = 524288;
  return {
    id: socket,
    cpuset: cpus,
    pcpuset: [...cpus],
    memory,
    cpu_usage: 0,
    memory_usage: 0,
    pinned_cpus: [],
    siblings: socketSiblings(socket),
    mempages: [{ size_kb: 4, total: memory * 256, used: 0, reserved: 0 }],
    socket,
  };
}

/**
 * Highmem cell: 24 cores x 2 threads per socket (cpuset == pcpuset, no CPU
 * sets configured), 512 x 1 GiB pages for the large-page flavors.
 */
function highmemCell(socket: number): NumaCell {
  const threads = [...range(socket * 24, 24), ...range(48 + socket * 24, 24)];
  const memory = 786432;
  const huge1g = 512;
  return {
    id: socket,
    cpuset: threads,
    pcpuset: [...threads],
    memory,
    cpu_usage: 0,
    memory_usage: 0,
    pinned_cpus: [],
    siblings: range(0, 24).map((c) => [socket * 24 + c, 48 + socket * 24 + c]),
    mempages: [
      { size_kb: 4, total: (memory - huge1g * 1024) * 256, used: 0, reserved: 0 },
      { size_kb: 1048576, total: huge1g, used: 0, reserved: 0 },
    ],
    socket,
  };
}

/** hw:mem_page_size in KiB; "large" is -1 (the largest page a cell has room in, as Nova picks it). */
function pageSizeKb(spec: string | undefined): number | null {
  if (spec === "large") return -1;
  if (spec === undefined || spec === "small") return null;
  const m = /^(\d+)(MB|GB)?$/.exec(spec);
  if (!m) return null;
  return Number(m[1]) * (m[2] === "GB" ? 1048576 : m[2] === "MB" ? 1024 : 1);
}

/** Pin `k` free dedicated CPUs of a cell, whole cores first (thread policy prefer/require). */
function pickPinned(cell: NumaCell, k: number): number[] | null {
  const free = new Set(cell.pcpuset.filter((c) => !cell.pinned_cpus.includes(c)));
  if (free.size < k) return null;
  const out: number[] = [];
  for (const core of cell.siblings) {
    if (out.length + core.length > k) break;
    if (core.every((c) => free.has(c))) out.push(...core);
  }
  for (const c of [...free].sort((a, b) => a - b)) if (out.length < k && !out.includes(c)) out.push(c);
  return out.length === k ? out : null;
}

/**
 * The NUMA cell usage, pinned CPUs, pages and PCI devices an existing
 * instance of flavor `f` holds on host `h`, as nova-compute accounts them.
 * false when the host has no room (the caller tries another flavor).
 */
function consumeNumaAndPci(h: Host, f: ScenarioFlavorInput): boolean {
  const specs = f.extra_specs ?? {};
  const dedicated = specs["hw:cpu_policy"] === "dedicated";
  const page = pageSizeKb(specs["hw:mem_page_size"]);
  const alias = specs["pci_passthrough:alias"];
  const [aliasName, aliasCount] = alias ? [alias.split(":")[0], Number(alias.split(":")[1])] : [null, 0];
  const product = aliasName ? DEMO_PCI_ALIASES.find((a) => a.name === aliasName)!.product_id : null;
  const wantsNuma = dedicated || page !== null || specs["hw:numa_nodes"] !== undefined;
  const cells = (h.numa_topology?.cells ?? []) as NumaCell[];
  const pools = (h.pci_device_pools ?? []) as PciPool[];
  if (wantsNuma && cells.length === 0) return false;
  if (product && !pools.some((p) => p.product_id === product && p.count >= aliasCount)) return false;
  if (!wantsNuma) {
    if (product) {
      // no guest NUMA topology: any pool, the fullest first
      const pool = pools.filter((p) => p.product_id === product).sort((a, b) => b.count - a.count)[0];
      pool.count -= aliasCount;
      h.pci_device_pools = pools.filter((p) => p.count > 0);
    }
    return true;
  }
  for (const cell of cells) {
    const fits = (m: NumaCell["mempages"][number]) => m.total - m.used - m.reserved >= (f.memory_mb * 1024) / m.size_kb;
    const pages =
      page === -1
        ? ([...cell.mempages].sort((a, b) => b.size_kb - a.size_kb).find((m) => m.size_kb > 4 && fits(m)) ?? null)
        : page !== null
          ? (cell.mempages.find((m) => m.size_kb === page) ?? null)
          : null;
    const need = pages ? (f.memory_mb * 1024) / pages.size_kb : 0;
    if (page !== null && (!pages || !fits(pages))) continue;
    if (cell.memory - cell.memory_usage < f.memory_mb) continue;
    const pool = product
      ? pools.find((p) => p.product_id === product && p.numa_node === cell.id && p.count >= aliasCount)
      : null;
    if (product && !pool) continue;
    let pinned: number[] = [];
    if (dedicated) {
      const got = pickPinned(cell, f.vcpus);
      if (!got) continue;
      pinned = got;
    } else if (cell.cpuset.length * 4 - cell.cpu_usage < f.vcpus) continue; // cpu_allocation_ratio 4.0
    if (dedicated) {
      cell.pinned_cpus = [...cell.pinned_cpus, ...pinned].sort((a, b) => a - b);
      if (h.pcpus) h.pcpus_used = (h.pcpus_used ?? 0) + f.vcpus;
    } else cell.cpu_usage += f.vcpus;
    cell.memory_usage += f.memory_mb;
    if (pages) pages.used += need;
    if (pool) {
      pool.count -= aliasCount;
      h.pci_device_pools = pools.filter((p) => p.count > 0);
    }
    return true;
  }
  return false;
}

/** Custom resource classes a flavor asks for (resources[N]:RC, not the standard four), with amounts. */
function customResources(f: ScenarioFlavorInput): [string, number][] {
  const out: [string, number][] = [];
  for (const [k, v] of Object.entries(f.extra_specs ?? {})) {
    const m = /^resources\d*:(.+)$/.exec(k);
    if (m && !["VCPU", "PCPU", "MEMORY_MB", "DISK_GB"].includes(m[1]) && Number(v) > 0) out.push([m[1], Number(v)]);
  }
  return out;
}

/**
 * Take an existing instance's custom resources (VGPU, ...) from the first
 * provider of the host's tree with room: the compute node's own inventories,
 * then its child providers. false when one does not fit.
 */
function consumeCustom(h: Host, f: ScenarioFlavorInput): boolean {
  const want = customResources(f);
  const take: (() => void)[] = [];
  for (const [rc, n] of want) {
    const own = h.inventories?.[rc];
    if (own && own.total - (own.reserved ?? 0) - (own.used ?? 0) >= n) {
      take.push(() => {
        own.used = (own.used ?? 0) + n;
      });
      continue;
    }
    const child = (h.child_providers ?? []).find((c) => {
      const inv = c.inventories?.[rc];
      return inv && inv.total - (inv.reserved ?? 0) - (c.usages?.[rc] ?? 0) >= n;
    });
    if (!child) return false;
    take.push(() => {
      child.usages = { ...child.usages, [rc]: (child.usages?.[rc] ?? 0) + n };
    });
  }
  for (const t of take) t();
  return true;
}

// ---------------------------------------------------------------------------
// Hosts

type HwClass = "general" | "general-large" | "highmem" | "ssd" | "gpu" | "vgpu" | "nfv" | "arm";

const HW: Record<
  HwClass,
  {
    vcpus: number;
    memory_mb: number;
    local_gb: number;
    cpu_ratio: number;
    ram_ratio: number;
    cpu_model: string;
    vendor: string;
    arch: string;
  }
> = {
  general: {
    vcpus: 48,
    memory_mb: 262144,
    local_gb: 960,
    cpu_ratio: 4.0,
    ram_ratio: 1.0,
    cpu_model: "Cascadelake-Server",
    vendor: "Intel",
    arch: "x86_64",
  },
  "general-large": {
    vcpus: 64,
    memory_mb: 393216,
    local_gb: 1920,
    cpu_ratio: 4.0,
    ram_ratio: 1.0,
    cpu_model: "Icelake-Server",
    vendor: "Intel",
    arch: "x86_64",
  },
  highmem: {
    vcpus: 96,
    memory_mb: 1572864,
    local_gb: 1920,
    cpu_ratio: 2.0,
    ram_ratio: 1.0,
    cpu_model: "Icelake-Server",
    vendor: "Intel",
    arch: "x86_64",
  },
  ssd: {
    vcpus: 64,
    memory_mb: 524288,
    local_gb: 7680,
    cpu_ratio: 4.0,
    ram_ratio: 1.0,
    cpu_model: "EPYC-Milan",
    vendor: "AMD",
    arch: "x86_64",
  },
  gpu: {
    vcpus: 64,
    memory_mb: 1048576,
    local_gb: 3840,
    cpu_ratio: 1.0,
    ram_ratio: 1.0,
    cpu_model: "EPYC-Milan",
    vendor: "AMD",
    arch: "x86_64",
  },
  // two A16 GPUs exposed as vGPUs: a child resource provider per physical GPU
  vgpu: {
    vcpus: 64,
    memory_mb: 524288,
    local_gb: 1920,
    cpu_ratio: 4.0,
    ram_ratio: 1.0,
    cpu_model: "EPYC-Milan",
    vendor: "AMD",
    arch: "x86_64",
  },
  // cpu_shared_set = 4 cores per socket (16 threads: the VCPU inventory),
  // cpu_dedicated_set = the other 24 cores (48 threads: PCPU); 1 GiB and 2 MiB pages
  nfv: {
    vcpus: 16,
    memory_mb: 393216,
    local_gb: 960,
    cpu_ratio: 4.0,
    ram_ratio: 1.0,
    cpu_model: "Icelake-Server",
    vendor: "Intel",
    arch: "x86_64",
  },
  arm: {
    vcpus: 80,
    memory_mb: 524288,
    local_gb: 1920,
    cpu_ratio: 4.0,
    ram_ratio: 1.0,
    cpu_model: "Neoverse-N1",
    vendor: "ARM",
    arch: "aarch64",
  },
};

const X86_FEATURES = ["sse4.2", "avx", "avx2", "aes", "vmx", "pdpe1gb", "f16c", "rdrand"];
const AVX512 = ["avx512f", "avx512bw", "avx512vl"];
const ARM_FEATURES = ["fp", "asimd", "aes", "sha2", "crc32", "atomics"];

const DISABLED_REASONS = [
  "maintenance: BIOS and BMC firmware upgrade",
  "hardware: correctable ECC errors on DIMM B2",
  "decommissioning: end of warranty",
  "network: bonded NIC degraded",
];

type Host = CloudDocument["hosts"][number];

interface Placement {
  host: Host;
  hw: (typeof HW)[HwClass];
  cls: HwClass;
  freeVcpus: number;
  freeRam: number;
  freeDisk: number;
}

const RESERVED_MEMORY_MB = 8192;
const RESERVED_VCPUS = 2;
const RESERVED_DISK_GB = 50;

export const MIN_DEMO_HOSTS = 30;

/** The vGPU hosts (az1, after the NFV hosts) and the Ironic service host with its nodes (the end of az3). */
const VGPU_HOSTS = 2;
const IRONIC_HOST = "ironic-a3-01";
const IRONIC_NODES = 3;

/** A bare-metal node of the Ironic service host: nothing but its custom resource class in Placement. */
function ironicNode(node: string, uuid: string): Host {
  return {
    name: IRONIC_HOST,
    node,
    uuid,
    cell: "cell2",
    vcpus: 0,
    vcpus_used: 0,
    memory_mb: 0,
    memory_mb_used: 0,
    local_gb: 0,
    local_gb_used: 0,
    hypervisor_type: "ironic",
    hypervisor_version: 1,
    host_ip: "10.3.99.10",
    supported_instances: [["x86_64", "baremetal", "hvm"]],
    cpu_info: {},
    num_instances: 0,
    num_io_ops: 0,
    failed_builds: 0,
    cpu_allocation_ratio: 1.0,
    ram_allocation_ratio: 1.0,
    disk_allocation_ratio: 1.0,
    service: { disabled: false, up: true, forced_down: false },
    metrics: [],
    instances: [],
    traits: [],
    reserved_vcpus: 0,
    reserved_memory_mb: 0,
    reserved_disk_gb: 0,
    inventories: {
      CUSTOM_BAREMETAL_LARGE: { total: 1, reserved: 0, allocation_ratio: 1.0, min_unit: 1, max_unit: 1, step_size: 1 },
    },
  };
}

export interface DemoCloudOptions {
  hosts?: number;
  seed?: number;
}

/** Build the demo cloud document (no request). Pure and deterministic. */
export function buildDemoCloud(opts: DemoCloudOptions = {}): CloudDocument {
  const n = opts.hosts ?? 200;
  if (!Number.isInteger(n) || n < MIN_DEMO_HOSTS)
    throw new Error(`the demo cloud needs at least ${MIN_DEMO_HOSTS} hosts (got ${n})`);
  const rng = new Rng(opts.seed ?? 20261121);
  const width = Math.max(3, String(n).length);

  // AZ sizes
  const azCount = [Math.round(n * 0.4), Math.round(n * 0.35)];
  azCount.push(n - azCount[0] - azCount[1]);

  // capability pools (fractions of each AZ, at least a few hosts each)
  const gpuCount = Math.max(6, Math.round(n * 0.03)); // all in az1 / cell1
  const nfvCount = Math.max(4, Math.round(n * 0.03)); // az1, after the GPU hosts
  const highmemCount = Math.max(3, Math.round(n * 0.05));
  const ssdCount = Math.max(4, Math.round(n * 0.08));
  const armCount = Math.max(2, Math.round(n * 0.02));
  const tenantCount = Math.max(3, Math.round(n * 0.05));

  const hosts: Host[] = [];
  const placements: Placement[] = [];
  const byAz: string[][] = [[], [], []];
  const byClass: Record<HwClass, string[]> = {
    general: [],
    "general-large": [],
    highmem: [],
    ssd: [],
    gpu: [],
    vgpu: [],
    nfv: [],
    arm: [],
  };
  const ironicNodes: Host[] = [];
  const batchHosts: string[] = [];
  const tenantHosts: string[] = [];
  const tenantSet = new Set<string>();

  for (let az = 0; az < 3; az++) {
    for (let i = 0; i < azCount[az]; i++) {
      // az3 ends with the Ironic service host's nodes
      const k = i - (azCount[az] - IRONIC_NODES);
      if (az === 2 && k >= 0) {
        const node = ironicNode(`bm-a3-${String(k + 1).padStart(3, "0")}`, rng.uuid());
        hosts.push(node);
        ironicNodes.push(node);
        if (k === 0) byAz[az].push(IRONIC_HOST);
        continue;
      }
      const name = `cmp-a${az + 1}-${String(i + 1).padStart(width, "0")}`;
      let cls: HwClass;
      if (az === 0 && i < gpuCount) cls = "gpu";
      else if (az === 0 && i < gpuCount + nfvCount) cls = "nfv";
      else if (az === 0 && i < gpuCount + nfvCount + VGPU_HOSTS) cls = "vgpu";
      else if (az === 1 && i < highmemCount) cls = "highmem";
      else if (az === 1 && i >= highmemCount && i < highmemCount + ssdCount) cls = "ssd";
      else if (az === 2 && i < armCount) cls = "arm";
      else cls = rng.float() < 0.45 ? "general-large" : "general";
      const hw = HW[cls];
      const cell = az === 2 ? "cell2" : "cell1";
      const rack = Math.floor(i / 20) + 1;
      const hvVersion = rng.weighted([
        [6002000, 3],
        [7002000, 4],
        [8002000, 3],
      ] as const);
      const features =
        hw.arch === "aarch64"
          ? ARM_FEATURES
          : hw.cpu_model === "Cascadelake-Server"
            ? X86_FEATURES
            : [...X86_FEATURES, ...AVX512];
      const supported: [string, string, string][] =
        hw.arch === "aarch64"
          ? [
              ["aarch64", "kvm", "hvm"],
              ["aarch64", "qemu", "hvm"],
            ]
          : [
              ["x86_64", "kvm", "hvm"],
              ["x86_64", "qemu", "hvm"],
              ["i686", "kvm", "hvm"],
              ["i686", "qemu", "hvm"],
            ];
      const traits = [
        "COMPUTE_NET_ATTACH_INTERFACE",
        "COMPUTE_VOLUME_MULTI_ATTACH",
        ...(hw.arch === "aarch64"
          ? ["HW_ARCH_AARCH64"]
          : ["HW_ARCH_X86_64", "HW_CPU_X86_AVX2", "HW_CPU_X86_AESNI", "COMPUTE_SECURITY_UEFI_SECURE_BOOT"]),
        ...(cls === "ssd" || cls === "gpu" ? ["STORAGE_DISK_SSD"] : []),
        ...(cls === "gpu" ? ["HW_GPU_API_VULKAN", "HW_GPU_API_DXVA", "CUSTOM_GPU_NVIDIA_A40"] : []),
        ...(cls === "vgpu" ? ["COMPUTE_GRAPHICS_MODEL_VGA"] : []),
        ...(cls === "nfv" ? ["HW_CPU_HYPERTHREADING", "HW_NIC_SRIOV", "CUSTOM_NFV"] : []),
        ...(features.includes("avx512f") ? ["HW_CPU_X86_AVX512F"] : []),
      ];
      const host: Host = {
        name,
        node: `${name}.cloud.example.net`,
        uuid: rng.uuid(),
        cell,
        vcpus: hw.vcpus,
        vcpus_used: 0,
        memory_mb: hw.memory_mb,
        memory_mb_used: RESERVED_MEMORY_MB,
        local_gb: hw.local_gb,
        local_gb_used: RESERVED_DISK_GB,
        hypervisor_type: "QEMU",
        hypervisor_version: hvVersion,
        host_ip: `10.${az + 1}.${rack}.${(i % 20) + 11}`,
        supported_instances: supported,
        cpu_info: {
          arch: hw.arch,
          vendor: hw.vendor,
          model: hw.cpu_model,
          topology:
            cls === "nfv" ? { sockets: 2, cores: 16, threads: 2 } : { sockets: 2, cores: hw.vcpus / 4, threads: 2 },
          features,
        },
        num_instances: 0,
        num_io_ops: 0,
        failed_builds: 0,
        cpu_allocation_ratio: hw.cpu_ratio,
        ram_allocation_ratio: hw.ram_ratio,
        disk_allocation_ratio: 1.0,
        service: { disabled: false, up: true, forced_down: false },
        metrics: [
          { name: "cpu.frequency", value: hw.arch === "aarch64" ? 3000 : rng.pick([2100, 2400, 2600, 2900]) },
          { name: "cpu.percent", value: 0 },
        ],
        instances: [],
        traits,
        reserved_vcpus: RESERVED_VCPUS,
        reserved_memory_mb: RESERVED_MEMORY_MB,
        reserved_disk_gb: RESERVED_DISK_GB,
      };
      if (cls === "nfv") {
        host.numa_topology = { cells: [0, 1].map((socket) => nfvCell(socket)) };
        host.pcpus = 48;
        host.pcpus_used = 0;
        host.pci_device_pools = [0, 1].flatMap((node) => [
          {
            vendor_id: "8086",
            product_id: "154c",
            numa_node: node,
            count: 16,
            tags: { ...SRIOV_TAGS, dev_type: "type-VF" },
          },
          {
            vendor_id: "8086",
            product_id: "1572",
            numa_node: node,
            count: 1,
            tags: { ...SRIOV_TAGS, dev_type: "type-PF" },
          },
        ]);
      } else if (cls === "vgpu") {
        // libvirt's update_provider_tree: one provider per physical GPU, named after its PCI address
        host.child_providers = ["81", "c1"].map((bus) => ({
          name: `${host.node}_pci_0000_${bus}_00_0`,
          parent: null,
          inventories: {
            VGPU: { total: 16, reserved: 0, allocation_ratio: 1.0, min_unit: 1, max_unit: 16, step_size: 1 },
          },
          usages: { VGPU: 0 },
          traits: ["CUSTOM_NVIDIA_A16_4Q"],
        }));
      } else if (cls === "highmem") {
        host.numa_topology = { cells: [0, 1].map((socket) => highmemCell(socket)) };
      } else if (cls === "gpu") {
        host.numa_topology = { cells: [0, 1].map((socket) => gpuCell(socket)) };
        host.pci_device_pools = [0, 1].map((node) => ({
          vendor_id: "10de",
          product_id: "2235",
          numa_node: node,
          count: 2,
          tags: { dev_type: "type-PCI" },
        }));
      }
      // a few unhealthy hosts (never GPU or NFV hosts: their flavors must keep >= 3 candidates)
      if (cls !== "gpu" && cls !== "nfv" && cls !== "vgpu") {
        const r = rng.float();
        if (r < 0.025)
          host.service = { disabled: true, disabled_reason: rng.pick(DISABLED_REASONS), up: true, forced_down: false };
        else if (r < 0.035) host.service = { disabled: false, up: false, forced_down: false };
        else if (r < 0.04) host.service = { disabled: false, up: false, forced_down: true };
        if (rng.float() < 0.03) host.failed_builds = rng.int(1, 3);
      }
      hosts.push(host);
      placements.push({
        host,
        hw,
        cls,
        freeVcpus: hw.vcpus * hw.cpu_ratio,
        freeRam: hw.memory_mb * hw.ram_ratio - RESERVED_MEMORY_MB,
        freeDisk: hw.local_gb - RESERVED_DISK_GB,
      });
      byAz[az].push(name);
      byClass[cls].push(name);
      if (az === 1 && cls.startsWith("general") && tenantHosts.length < tenantCount) {
        tenantHosts.push(name);
        tenantSet.add(name);
      } else if (az === 2 && cls.startsWith("general") && rng.float() < 0.2) batchHosts.push(name);
    }
  }

  // ---- aggregates
  const aggregates: CloudDocument["aggregates"] = [
    { name: "az1", availability_zone: "az1", hosts: byAz[0], metadata: {} },
    { name: "az2", availability_zone: "az2", hosts: byAz[1], metadata: {} },
    { name: "az3", availability_zone: "az3", hosts: byAz[2], metadata: {} },
    {
      name: "gpu-a40",
      hosts: byClass.gpu,
      metadata: {
        gpu: "true",
        gpu_model: "a40",
        ram_weight_multiplier: "-1.0",
        cpu_weight_multiplier: "-1.0",
        max_instances_per_host: "8",
      },
    },
    {
      name: "ssd-nvme",
      hosts: byClass.ssd,
      metadata: { ssd: "true", disk_weight_multiplier: "2.0", max_io_ops_per_host: "16" },
    },
    {
      name: "highmem",
      hosts: byClass.highmem,
      metadata: { highmem: "true", ram_weight_multiplier: "2.0", cpu_weight_multiplier: "0.5" },
    },
    { name: "baremetal", hosts: [IRONIC_HOST], metadata: { baremetal: "true" } },
    { name: "arm64", hosts: byClass.arm, metadata: { arch: "aarch64", hw_architecture: "aarch64" } },
    {
      name: "tenant-acme",
      hosts: tenantHosts,
      metadata: { filter_tenant_id: DEMO_PROJECTS.acme, ram_weight_multiplier: "0.5" },
    },
    {
      name: "batch-dense",
      hosts: batchHosts,
      metadata: { max_instances_per_host: "80", max_io_ops_per_host: "16", cpu_weight_multiplier: "-1.0" },
    },
  ];

  // ---- catalogue
  const flavors = DEMO_FLAVORS.map((f) => ({ ...f, is_public: true }));
  const flavorByName = new Map(flavors.map((f) => [f.name, f]));
  const images = IMAGE_DEFS.map((im) => ({
    id: stableUuid(`schedscope-demo-image-${im.name}`),
    name: im.name,
    properties: { ...im.properties },
  }));
  const imageByName = new Map<string, { id: string }>(images.map((im) => [im.name, im]));

  const instances: NonNullable<CloudDocument["instances"]> = [];
  let serial = 0;
  const place = (p: Placement, flavorName: string, imageName: string, project: string): string | null => {
    const f = flavorByName.get(flavorName)!;
    const disk = (f.root_gb ?? 0) + (f.ephemeral_gb ?? 0);
    // Pinned CPUs come out of the PCPU inventory where the host reports one
    // (consumeNumaAndPci counts them); elsewhere Placement falls back to VCPU.
    const vcpus = f.extra_specs?.["hw:cpu_policy"] === "dedicated" && (p.host.pcpus ?? 0) > 0 ? 0 : f.vcpus;
    if (vcpus > p.freeVcpus || f.memory_mb > p.freeRam || disk > p.freeDisk) return null;
    if (!consumeCustom(p.host, f)) return null;
    if (!consumeNumaAndPci(p.host, f)) return null;
    p.freeVcpus -= vcpus;
    p.freeRam -= f.memory_mb;
    p.freeDisk -= disk;
    const h = p.host;
    h.vcpus_used! += vcpus;
    h.memory_mb_used! += f.memory_mb;
    h.local_gb_used! += disk;
    h.num_instances! += 1;
    const uuid = rng.uuid();
    h.instances!.push(uuid);
    serial++;
    instances.push({
      uuid,
      name: `vm-${String(serial).padStart(6, "0")}`,
      flavor: f.name,
      image: imageByName.get(imageName)!.id,
      project_id: project,
    });
    return uuid;
  };

  const projects = Object.values(DEMO_PROJECTS);
  const generalMix = [
    ["m1.small", 3],
    ["m1.medium", 4],
    ["m1.large", 4],
    // no m1.2xlarge: its large pages need a NUMA host with huge pages (highmem)
    ["m1.xlarge", 4],
    ["w1.large", 1],
  ] as const;
  const linuxImages = ["ubuntu-22.04", "ubuntu-22.04-arm64", "rhel-9.2", "cirros-0.6.2"] as const;

  // ---- server groups first (their members must respect the policy)
  const groups: NonNullable<CloudDocument["server_groups"]> = [];
  const generalAz1 = placements.filter(
    (p) =>
      p.cls.startsWith("general") &&
      p.host.cell === "cell1" &&
      !tenantSet.has(p.host.name) &&
      p.host.service?.up !== false &&
      !p.host.service?.disabled,
  );
  const spread = (k: number, offset: number) =>
    Array.from({ length: k }, (_, j) => generalAz1[(offset + j * 7) % generalAz1.length]);
  const addGroup = (
    name: string,
    policy: "affinity" | "anti-affinity" | "soft-affinity" | "soft-anti-affinity",
    where: Placement[],
    flavor: string,
    project: string,
    rules: Record<string, number> = {},
  ) => {
    const members: string[] = [];
    for (const p of where) {
      const u = place(p, flavor, "ubuntu-22.04", project);
      if (u) members.push(u);
    }
    groups.push({ uuid: rng.uuid(), name, policy, rules, members, project_id: project });
  };
  addGroup("web-frontend", "anti-affinity", spread(4, 0), "m1.large", DEMO_PROJECTS.globex);
  addGroup("etcd", "anti-affinity", spread(3, 3), "m1.medium", DEMO_PROJECTS.initech, { max_server_per_host: 1 });
  const dbHost = generalAz1[5 % generalAz1.length];
  addGroup("postgres-primary", "affinity", [dbHost, dbHost], "m1.xlarge", DEMO_PROJECTS.globex);
  const batchHost = generalAz1[11 % generalAz1.length];
  addGroup(
    "batch-workers",
    "soft-affinity",
    [batchHost, batchHost, batchHost, spread(1, 13)[0]],
    "m1.medium",
    DEMO_PROJECTS.umbrella,
  );
  addGroup("cache", "soft-anti-affinity", spread(3, 17), "m1.large", DEMO_PROJECTS.acme);

  // ---- fill hosts to a random utilisation
  for (const p of placements) {
    const target = rng.float() * 0.75 + 0.05; // 5 %..80 % of RAM
    const budget = (p.hw.memory_mb * p.hw.ram_ratio - RESERVED_MEMORY_MB) * target;
    let used = 0;
    let guard = 0;
    while (used < budget && guard++ < 200 && p.host.num_instances! < 40) {
      let flavor: string;
      let image: string;
      if (p.cls === "gpu") {
        flavor = rng.pick(["gpu.large", "gpu.xlarge", "m1.large"]);
        // every other GPU host keeps its A40s free, so gpu.xlarge (two on one NUMA node) still fits somewhere
        if (byClass.gpu.indexOf(p.host.name) % 2 === 0) flavor = "m1.large";
        image = "ubuntu-22.04";
        if (p.host.num_instances! >= 3) break; // keep room for the GPU demo request
      } else if (p.cls === "vgpu") {
        flavor = rng.pick(["vgpu.small", "m1.large"]);
        image = "ubuntu-22.04";
        if (p.host.num_instances! >= 10) break; // keep vGPUs free for the demo requests
      } else if (p.cls === "nfv") {
        flavor = rng.pick(["c1.xlarge", "n1.dpdk", "h1.large", "m1.large"]);
        image = "rhel-9.2";
        if (p.host.num_instances! >= 6) break; // keep pinned CPUs and pages free for the demo requests
      } else if (p.cls === "highmem") {
        flavor = rng.pick(["r1.2xlarge", "m1.2xlarge"]);
        image = "rhel-9.2";
      } else if (p.cls === "ssd") {
        flavor = rng.pick(["s1.large", "m1.large"]);
        image = "ubuntu-22.04";
      } else if (p.cls === "arm") {
        flavor = rng.pick(["m1.medium", "m1.large"]);
        image = "ubuntu-22.04-arm64";
      } else {
        flavor = rng.weighted(generalMix);
        image =
          flavor === "w1.large"
            ? "windows-server-2022"
            : rng.pick(linuxImages.filter((i) => i !== "ubuntu-22.04-arm64"));
      }
      const project = tenantSet.has(p.host.name) ? DEMO_PROJECTS.acme : rng.pick(projects);
      if (!place(p, flavor, image, project)) break;
      used += flavorByName.get(flavor)!.memory_mb;
    }
    const h = p.host;
    h.num_io_ops = rng.float() < 0.04 && p.cls !== "gpu" ? rng.int(8, 12) : rng.int(0, 2);
    const cpuLoad = Math.min(100, (h.vcpus_used! / (h.vcpus * p.hw.cpu_ratio)) * 100 * (0.6 + rng.float() * 0.6));
    h.metrics![1].value = Math.round(cpuLoad * 10) / 10;
  }

  // one Ironic node is deployed: the driver reserves its whole inventory and the instance uses it
  const deployed = ironicNodes[0];
  const bm = rng.uuid();
  deployed.inventories!.CUSTOM_BAREMETAL_LARGE = {
    ...deployed.inventories!.CUSTOM_BAREMETAL_LARGE,
    reserved: 1,
    used: 1,
  };
  deployed.instances!.push(bm);
  deployed.num_instances = 1;
  serial++;
  instances.push({
    uuid: bm,
    name: `vm-${String(serial).padStart(6, "0")}`,
    flavor: "bm.large",
    image: imageByName.get("ubuntu-22.04-baremetal")!.id,
    project_id: DEMO_PROJECTS.initech,
  });

  return {
    config: DEFAULT_PROFILE_CONFIG,
    hosts,
    aggregates,
    server_groups: groups,
    flavors,
    images,
    instances,
  } as unknown as CloudDocument;
}
