/**
 * One scheduling request in a fresh process: what the first request after a
 * start costs (nothing compiled, nothing cached). Prints one JSON line:
 * engine_ms (the engine's own clock: filters, weighers, alternates; the same
 * window the Nova reference times) and build_ms (host states from the parsed
 * scenario, outside that window).
 *
 * With --warm-up, the process first runs the engine warm-up a server runs
 * when it starts (instrumentation.ts), before it serves: what the first
 * request a user makes of a fresh server sees. The warm-up runs on its own
 * synthetic cloud, not this one; warm_up_ms is how long it took. With
 * --then-warm, the process goes on to 25 more requests and prints their
 * median as warm_ms too (the same cloud, warm, in the same process).
 *
 * With --prime (after --warm-up), the process then does what a server's
 * start-up prime does on its own cloud (lib/runs/prime.ts): it schedules the
 * cloud's flavors, round after round, for the prime's 1.5 s. The cloud's
 * flavors here are the demo's other general-purpose ones (PRIME_FLAVORS),
 * never the measured request's: its first request then asks Placement a
 * query no request has asked on that cloud (as a new flavor, a what-if or
 * an edited request does), on code that has met the cloud's hosts.
 *
 * --variant picks the request (default: bigCloud, the bench's 10,000-host
 * scenario; its filters are the demo profile's, as one warm-up request's):
 *   profile    the app's default profile as shipped (no metrics weight
 *              setting), a flavor without extra specs, 2 instances;
 *   other      filters, a flavor, a RAM weigher multiplier and an instance
 *              count none of the warm-up's requests has;
 *   numa       bigNumaCloud (every host 2 NUMA cells and GPUs; pinned,
 *              1 GiB pages and a GPU asked);
 *   placement  bigPlacementCloud (Nova's Placement path).
 *
 *   node --import tsx bench/first-run.ts HOSTS INSTANCES [--warm-up [--prime]] [--then-warm] [--variant NAME]
 */
import { schedule } from "../lib/scheduler/engine";
import { freezeScenario, type Scenario } from "../lib/scheduler/scenario";
import { warmUpEngine } from "../lib/scheduler/warm-up";
import { bigCloud, bigNumaCloud, bigPlacementCloud } from "../lib/demo/big-cloud";
import { median } from "./median";

const VARIANTS: Record<string, (hosts: number, instances: number) => Scenario> = {
  profile: (hosts) => {
    const sc = bigCloud(hosts, 2);
    sc.config = { ...sc.config, metrics_weight_setting: "" };
    sc.request.flavor = { name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20, extra_specs: {} };
    return sc;
  },
  other: (hosts) => {
    const sc = bigCloud(hosts, 5);
    sc.config = {
      enabled_filters: [
        "ComputeFilter",
        "AvailabilityZoneFilter",
        "AggregateInstanceExtraSpecsFilter",
        "AggregateMultiTenancyIsolation",
        "DifferentHostFilter",
        "NumInstancesFilter",
      ],
      weighers: sc.config?.weighers,
      ram_weight_multiplier: -1.0,
      metrics_weight_setting: "cpu.percent=1.0",
    };
    sc.request.flavor = {
      name: "c1.xlarge",
      vcpus: 8,
      memory_mb: 16384,
      root_gb: 80,
      extra_specs: { "hw:cpu_policy": "shared" },
    };
    return sc;
  },
  numa: bigNumaCloud,
  placement: bigPlacementCloud,
};

/** The demo cloud's general-purpose flavors other than m1.large (lib/demo/cloud.ts). */
const PRIME_FLAVORS = [
  { name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20, extra_specs: {} },
  { name: "m1.medium", vcpus: 2, memory_mb: 4096, root_gb: 40, extra_specs: {} },
  { name: "m1.xlarge", vcpus: 8, memory_mb: 16384, root_gb: 160, extra_specs: {} },
];
/** lib/runs/prime.ts's BUDGET_MS. */
const PRIME_BUDGET_MS = 1500;

function prime(scenario: Scenario): number {
  const t0 = performance.now();
  for (let i = 0; performance.now() - t0 < PRIME_BUDGET_MS; i++) {
    const flavors = PRIME_FLAVORS.filter((f) => f.name !== scenario.request.flavor.name);
    const flavor = flavors[i % flavors.length];
    schedule(freezeScenario({ ...scenario, request: { ...scenario.request, flavor } }));
  }
  return performance.now() - t0;
}

const argv = process.argv;
const hosts = Number(argv[2]);
const instances = Number(argv[3]);
const variant = argv.includes("--variant") ? argv[argv.indexOf("--variant") + 1] : null;
if (variant !== null && !VARIANTS[variant])
  throw new Error(`--variant: one of ${Object.keys(VARIANTS).join(", ")}, not ${variant}`);
const warmUpMs = argv.includes("--warm-up") ? warmUpEngine() : 0;
// Frozen, as the app keeps its snapshot; deriving each host's facts is build_ms, outside the window.
const scenario = freezeScenario((variant ? VARIANTS[variant] : bigCloud)(hosts, instances));
const primeMs = argv.includes("--prime") ? prime(scenario) : 0;
const t0 = performance.now();
const run = schedule(scenario);
const total = performance.now() - t0;
// A request cut short would time less than the whole request.
if (run.error) throw new Error(`${run.error.name}: ${run.error.message}`);
const out: Record<string, number> = {
  engine_ms: run.engineMs,
  build_ms: total - run.engineMs,
  warm_up_ms: warmUpMs,
  prime_ms: primeMs,
};
if (argv.includes("--then-warm")) out.warm_ms = median(Array.from({ length: 25 }, () => schedule(scenario).engineMs));
console.log(JSON.stringify(out));
