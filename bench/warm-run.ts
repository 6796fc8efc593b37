/**
 * One cloud size's warm median in a process of its own, as the Nova
 * reference is run once per size: what an earlier size left in the heap or
 * taught the compiler does not carry over. Prints one JSON line: ms (the
 * engine's median over the measured requests), chosen, survivors, and on
 * the Placement path matched and returned.
 *
 *   node --import tsx bench/warm-run.ts HOSTS INSTANCES [plain|placement|numa]
 * (npm run bench runs it from a bundle: bench/bundle.ts)
 */
import { schedule } from "../lib/scheduler/engine";
import { freezeScenario } from "../lib/scheduler/scenario";
import { bigCloud, bigNumaCloud, bigPlacementCloud } from "../lib/demo/big-cloud";
import { median } from "./median";

const CLOUDS = { plain: bigCloud, placement: bigPlacementCloud, numa: bigNumaCloud };

const hosts = Number(process.argv[2]);
const instances = Number(process.argv[3]);
const cloud = CLOUDS[(process.argv[4] ?? "plain") as keyof typeof CLOUDS];
const big = hosts * instances >= 500000;
const reps = big ? 5 : hosts >= 10000 ? 21 : 41;
// Frozen, as the app keeps its snapshot: each host's state is derived once,
// on the first request, before the engine's clock starts.
const sc = freezeScenario(cloud(hosts, instances));
// Warm means compiled and settled: V8 optimises the host loops over the
// first requests and, on the NUMA path, drops and redoes some of that work
// as more shapes of cells and pools reach it, for about twenty requests
// (--trace-deopt); the first request is "engine first" (bench/first-run.ts).
for (let r = 0; r < (big ? 2 : 25); r++) schedule(sc);
const runs: number[] = [];
let run = schedule(sc);
for (let r = 0; r < reps; r++) {
  run = schedule(sc);
  if (run.error && run.error.name !== "NoValidHost") throw new Error(run.error.message);
  runs.push(run.engineMs);
}
console.log(
  JSON.stringify({
    ms: median(runs),
    chosen: run.selections[0]?.host.host ?? run.error?.name ?? "",
    survivors: run.traces[0]?.weighed.hosts.length ?? 0,
    matched: run.placement?.matched ?? 0,
    returned: run.placement?.candidates ?? 0,
  }),
);
