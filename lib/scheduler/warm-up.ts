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
import { freezeScenario, type Scenario, type ScenarioHost } from "./scenario";

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
      instances: [`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`],
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

/**
 * Run the warm-up; returns how long it took (ms). Never throws.
 * 5,000 hosts twice: V8 optimises the host loops for the trip counts it has
 * seen, and a warm-up on a small cloud left the first 10,000-host request at
 * about 3× the warm time; at this size it is within 1.5× (bench/first-run.ts
 * --warm-up), for about half a second at server start.
 */
export function warmUpEngine(hosts = 5000, rounds = 2): number {
  const t0 = performance.now();
  try {
    // Frozen as the app keeps its snapshot: requests then take the same paths (copies of each host's state).
    const cloud = freezeScenario(warmUpCloud(hosts));
    const weighers = Object.keys(WEIGHERS);
    for (const filters of [DEFAULT_ENABLED_FILTERS, Object.keys(FILTERS)]) {
      const scenario: Scenario = freezeScenario({ ...cloud, config: { enabled_filters: filters, weighers } });
      for (let r = 0; r < rounds; r++) schedule(scenario);
    }
  } catch (e) {
    console.error("engine warm-up failed (the first request will be slower):", e);
  }
  return performance.now() - t0;
}
