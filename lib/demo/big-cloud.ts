/**
 * A deterministic large cloud for benchmarks: hosts in 2 cells and 3 AZs,
 * GPU/SSD/tenant aggregates, metrics, a few disabled and down hosts.
 */
import { mulberry32 } from "@/lib/scheduler/random";
import { DEMO_ENABLED_FILTERS } from "./cloud";
import { WEIGHER_NAMES } from "../scheduler/names";
import { ZED_ALL_WEIGHERS } from "../scheduler/releases";
import type { Scenario, ScenarioHost } from "../scheduler/scenario";

/** The demo cloud's filters (Nova's defaults plus the ones its aggregates need). */
export const BENCH_FILTERS = DEMO_ENABLED_FILTERS;
/** Every weigher Zed ships, in the registry's order (the order the weights are summed in). */
const BENCH_WEIGHERS = WEIGHER_NAMES.filter((w) => ZED_ALL_WEIGHERS.includes(w));

export function bigCloud(hosts: number, numInstances: number, seed = 42): Scenario {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const list: ScenarioHost[] = [];
  const az: Record<string, string[]> = { az1: [], az2: [], az3: [] };
  const ssd: string[] = [];
  const gpu: string[] = [];
  for (let i = 0; i < hosts; i++) {
    const name = `cmp-${String(i).padStart(5, "0")}`;
    const mem = pick([131072, 262144, 524288]);
    const vcpus = pick([32, 64, 128]);
    const disk = pick([1000, 2000, 4000]);
    list.push({
      name,
      cell: i % 2 ? "cell2" : "cell1",
      vcpus,
      vcpus_used: Math.floor(rnd() * vcpus * 2),
      memory_mb: mem,
      memory_mb_used: Math.floor(rnd() * mem * 0.9),
      local_gb: disk,
      local_gb_used: Math.floor(rnd() * disk * 0.8),
      hypervisor_type: "QEMU",
      hypervisor_version: pick([6002000, 7001000, 8000000]),
      host_ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      supported_instances: [["x86_64", "kvm", "hvm"]],
      cpu_info: { vendor: pick(["Intel", "AMD"]), features: ["avx", "aes"] },
      num_instances: Math.floor(rnd() * 45),
      num_io_ops: Math.floor(rnd() * 8),
      failed_builds: rnd() < 0.02 ? 1 : 0,
      cpu_allocation_ratio: 4.0,
      ram_allocation_ratio: 1.0,
      disk_allocation_ratio: 1.0,
      service: { disabled: rnd() < 0.03, up: rnd() > 0.01 },
      metrics: [{ name: "cpu.percent", value: Math.round(rnd() * 10000) / 100 }],
      instances: [],
    });
    az[`az${(i % 3) + 1}`].push(name);
    if (rnd() < 0.5) ssd.push(name);
    if (rnd() < 0.1) gpu.push(name);
  }
  return {
    config: {
      enabled_filters: BENCH_FILTERS,
      weighers: BENCH_WEIGHERS,
      metrics_weight_setting: "cpu.percent=-1.0",
      max_attempts: 3,
    },
    hosts: list,
    aggregates: [
      { name: "az1", availability_zone: "az1", hosts: az.az1, metadata: {} },
      { name: "az2", availability_zone: "az2", hosts: az.az2, metadata: {} },
      { name: "az3", availability_zone: "az3", hosts: az.az3, metadata: {} },
      { name: "ssd", hosts: ssd, metadata: { ssd: "true", ram_weight_multiplier: "2.0" } },
      { name: "gpu", hosts: gpu, metadata: { gpu: "true" } },
    ],
    server_groups: [],
    request: {
      flavor: {
        name: "m1.large",
        vcpus: 4,
        memory_mb: 8192,
        root_gb: 40,
        extra_specs: {
          "aggregate_instance_extra_specs:ssd": "true",
          "capabilities:cpu_info:vendor": "<or> Intel <or> AMD",
        },
      },
      image: { id: "img-1", properties: { hw_architecture: "x86_64" } },
      num_instances: numInstances,
      project_id: "proj-a",
    },
  };
}

/**
 * The same cloud on Nova's Placement path (`placement: true`, Zed's request
 * filters, max_placement_results 1,000 as Nova's default): at 10,000 hosts
 * Placement matches 9,705 (the disabled computes are not candidates) and
 * returns 1,000; the filters and weighers see those only.
 */
export function bigPlacementCloud(hosts: number, numInstances: number, seed = 42): Scenario {
  const sc = bigCloud(hosts, numInstances, seed);
  sc.config = { ...sc.config, placement: true, max_placement_results: 1000 };
  return sc;
}

/**
 * The same cloud with NUMA and PCI: every host has 2 NUMA cells (SMT
 * siblings, some CPUs already pinned, 4 KiB and 1 GiB pages) and GPU pools;
 * the flavor asks for pinned CPUs and a GPU, and NUMATopologyFilter and
 * PciPassthroughFilter run after the usual filters.
 */
export function bigNumaCloud(hosts: number, numInstances: number, seed = 42): Scenario {
  const sc = bigCloud(hosts, numInstances, seed);
  const rnd = mulberry32(seed + 1);
  for (const h of sc.hosts) {
    const cores = h.vcpus / 4; // per cell, 2 threads per core
    const cells = [0, 1].map((c) => {
      const first = c * cores;
      const siblings = Array.from({ length: cores }, (_, k) => [first + k, first + k + 2 * cores]);
      const cpus = siblings.flat().sort((a, b) => a - b);
      const pinned = cpus.filter(() => rnd() < 0.4);
      const memory = h.memory_mb / 2;
      return {
        id: c,
        cpuset: cpus,
        pcpuset: cpus,
        memory,
        memory_usage: Math.floor(rnd() * memory * 0.5),
        pinned_cpus: pinned,
        siblings,
        mempages: [
          { size_kb: 4, total: ((memory - 8192) * 1024) / 4, used: 0 },
          { size_kb: 1048576, total: 8, used: Math.floor(rnd() * 8) },
        ],
        socket: c,
      };
    });
    h.numa_topology = { cells };
    h.pci_device_pools = [
      {
        vendor_id: "10de",
        product_id: "20b5",
        numa_node: Math.floor(rnd() * 2),
        count: Math.floor(rnd() * 4),
        tags: { dev_type: "type-PCI" },
      },
    ];
  }
  sc.config = {
    ...sc.config,
    enabled_filters: [...(sc.config?.enabled_filters ?? []), "NUMATopologyFilter", "PciPassthroughFilter"],
    pci_alias: [
      { name: "a100", vendor_id: "10de", product_id: "20b5", device_type: "type-PCI", numa_policy: "preferred" },
    ],
  };
  sc.request.flavor.extra_specs = {
    ...sc.request.flavor.extra_specs,
    "hw:cpu_policy": "dedicated",
    "hw:mem_page_size": "large",
    "pci_passthrough:alias": "a100:1",
  };
  return sc;
}
