/**
 * Warm the engine up when a server process starts: a few requests on a small
 * synthetic cloud, through every filter and weigher, so that the first real
 * request runs code V8 has already compiled and optimised. Without it the
 * first request of a process takes several times as long as the next ones
 * (lazy compilation, then the interpreter until the hot loops tier up).
 * Deterministic and self-contained: no database, no randomness.
 */
import { DEFAULT_ENABLED_FILTERS } from "./config";
import { schedule } from "./engine";
import { FILTERS, WEIGHERS } from "./registry";
import { toResult } from "./result";
import { freezeScenario, type Scenario, type ScenarioHost } from "./scenario";

/** Two NUMA cells (SMT siblings, some CPUs pinned, 4 KiB and 1 GiB pages) and a GPU pool. */
function numaHost(i: number, vcpus: number, memory: number): Pick<ScenarioHost, "numa_topology" | "pci_device_pools"> {
  const cores = vcpus / 4;
  const cells = [0, 1].map((c) => {
    const siblings = Array.from({ length: cores }, (_, k) => [c * cores + k, c * cores + k + 2 * cores]);
    const cpus = siblings.flat().sort((a, b) => a - b);
    const cellMemory = memory / 2;
    return {
      id: c,
      cpuset: cpus,
      pcpuset: cpus,
      memory: cellMemory,
      memory_usage: (i * 977) % (cellMemory / 2),
      pinned_cpus: cpus.filter((cpu) => (cpu + i) % 5 < 2),
      siblings,
      mempages: [
        { size_kb: 4, total: ((cellMemory - 8192) * 1024) / 4, used: 0 },
        { size_kb: 1048576, total: 8, used: (i + c) % 8 },
      ],
      socket: c,
    };
  });
  return {
    numa_topology: { cells },
    pci_device_pools: [
      {
        vendor_id: "10de",
        product_id: "20b5",
        numa_node: (i >> 2) % 2,
        count: (i >> 3) % 4,
        tags: { dev_type: "type-PCI" },
      },
    ],
  };
}

function warmUpCloud(hosts: number): Scenario {
  const list: ScenarioHost[] = [];
  const names = (pred: (i: number) => boolean) =>
    Array.from({ length: hosts }, (_, i) => i)
      .filter(pred)
      .map((i) => `warm-${i}`);
  for (let i = 0; i < hosts; i++) {
    const vcpus = [16, 32, 64][i % 3];
    const memory = [65536, 131072, 262144][i % 3];
    list.push({
      name: `warm-${i}`,
      cell: i % 2 ? "cell2" : "cell1",
      vcpus,
      vcpus_used: (i * 7) % (vcpus * 2),
      memory_mb: memory,
      memory_mb_used: (i * 4099) % memory,
      local_gb: 1000,
      local_gb_used: (i * 13) % 800,
      hypervisor_type: "QEMU",
      hypervisor_version: [6002000, 7001000][i % 2],
      host_ip: `10.9.${(i >> 8) & 255}.${i & 255}`,
      supported_instances: [["x86_64", "kvm", "hvm"]],
      cpu_info: { vendor: i % 2 ? "Intel" : "AMD", features: ["avx", "aes"] },
      num_instances: i % 40,
      num_io_ops: i % 9,
      failed_builds: i % 50 === 0 ? 1 : 0,
      service: { disabled: i % 31 === 0, up: i % 47 !== 0 },
      metrics: [{ name: "cpu.percent", value: (i * 3.7) % 100 }],
      // Half the hosts with their own allocation ratios, as an imported cloud has them.
      ...(i % 2 ? {} : { cpu_allocation_ratio: 4.0, ram_allocation_ratio: 1.5, disk_allocation_ratio: 1.0 }),
      instances: [`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`],
      ...(i % 4 < 2 ? numaHost(i, vcpus, memory) : {}),
    });
  }
  return {
    hosts: list,
    aggregates: [
      { name: "az1", availability_zone: "az1", hosts: names((i) => i % 2 === 0), metadata: {} },
      { name: "az2", availability_zone: "az2", hosts: names((i) => i % 2 === 1), metadata: {} },
      { name: "ssd", hosts: names((i) => i % 3 !== 0), metadata: { ssd: "true", ram_weight_multiplier: "2.0" } },
    ],
    server_groups: [],
    request: {
      flavor: {
        name: "warm.large",
        vcpus: 2,
        memory_mb: 4096,
        root_gb: 20,
        extra_specs: {
          "aggregate_instance_extra_specs:ssd": "true",
          "capabilities:cpu_info:vendor": "<or> Intel <or> AMD",
        },
      },
      image: { id: "warm-image", properties: { hw_architecture: "x86_64" } },
      num_instances: 3,
      project_id: "warm",
    },
  };
}

/** Nova's default filters and the ones aggregates, zones and load limits need: what most clouds enable. */
const COMMON_FILTERS = [
  ...DEFAULT_ENABLED_FILTERS,
  "AvailabilityZoneFilter",
  "AggregateInstanceExtraSpecsFilter",
  "NumInstancesFilter",
  "IoOpsFilter",
];

/** The warm-up cloud's flavor, pinned to 1 GiB pages with a GPU (NUMATopologyFilter and PciPassthroughFilter fit it). */
function numaRequest(request: Scenario["request"]): Scenario["request"] {
  return {
    ...request,
    flavor: {
      ...request.flavor,
      name: "warm.pinned",
      extra_specs: {
        ...request.flavor.extra_specs,
        "hw:cpu_policy": "dedicated",
        "hw:mem_page_size": "large",
        "pci_passthrough:alias": "warm-gpu:1",
      },
    },
  };
}

/**
 * The Placement requests of round `round`: flavors no other round asks, so
 * that every round asks every provider (a query asked before is answered
 * from the answers kept per query), with one and several instances.
 */
function placementRequests(request: Scenario["request"], round: number): Scenario["request"][] {
  return [
    { ...request, flavor: { ...request.flavor, memory_mb: 4096 + 256 * round } },
    { ...request, num_instances: 1, flavor: { ...request.flavor, vcpus: 4, memory_mb: 8192 + 256 * round } },
    { ...request, num_instances: 2, flavor: { ...request.flavor, vcpus: 1, memory_mb: 2048 + 256 * round } },
  ];
}

/** The warm-up's requests on one cloud of `hosts` hosts, for its round `round` (see warmUpEngine). */
export function warmUpScenarios(
  hosts: number,
  round = 0,
  // Frozen as the app keeps its snapshot: requests then take the same paths (copies of each host's state).
  cloud: Scenario = freezeScenario(warmUpCloud(hosts)),
): Scenario[] {
  const weighers = Object.keys(WEIGHERS);
  const pci_alias = [{ name: "warm-gpu", vendor_id: "10de", product_id: "20b5", device_type: "type-PCI" }];
  const metrics_weight_setting = "cpu.percent=0.5";
  const common = { enabled_filters: COMMON_FILTERS, weighers, metrics_weight_setting };
  const every = { enabled_filters: Object.keys(FILTERS), weighers, pci_alias, metrics_weight_setting };
  const request = (config: Scenario["config"], req = cloud.request) =>
    freezeScenario({ ...cloud, config, request: req });
  return [
    request({ enabled_filters: DEFAULT_ENABLED_FILTERS, weighers }),
    request(common, { ...cloud.request, num_instances: 1 }),
    request(every),
    ...placementRequests(cloud.request, round).map((req) => request({ ...common, placement: true }, req)),
    request(every, numaRequest(cloud.request)),
  ];
}

/**
 * Run the warm-up; returns how long it took (ms). Never throws.
 * A plain request with Nova's default filters, one instance with the filters
 * most clouds add, one with every filter, three instances with the filters
 * most clouds add on the Placement path, and a pinned, hugepage, GPU
 * request, in turn, each run through toResult as a Schedule click is.
 * 5,000 hosts: V8 optimises the host loops for the trip counts it has seen,
 * and a warm-up on a small cloud left the first 10,000-host request at about
 * 3× the warm time. The NUMA/PCI path takes several requests to settle (V8
 * drops and redoes its code as cell and pool shapes reach it), hence the
 * rounds.
 *
 * What the compiled code has not seen, a real cloud's first request pays
 * for: code compiled for one shape of an object or array is dropped when
 * another reaches it. Hence the mix of filter sets, a metrics weight setting
 * (a weigher's setting list empty or not), hosts with and without their own
 * allocation ratios, one instance and several, the Placement path, and
 * GPUs on both NUMA nodes.
 */
export function warmUpEngine(hosts = 5000, rounds = 3): number {
  const t0 = performance.now();
  try {
    const cloud = freezeScenario(warmUpCloud(hosts));
    for (let r = 0; r < rounds; r++)
      for (const scenario of warmUpScenarios(hosts, r, cloud)) toResult(schedule(scenario));
  } catch (e) {
    console.error("engine warm-up failed (the first request will be slower):", e);
  }
  return performance.now() - t0;
}
