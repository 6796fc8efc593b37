/**
 * One cloud size's warm median in a process of its own, as the Nova
 * reference is run once per size: what an earlier size left in the heap or
 * taught the compiler does not carry over. Prints one JSON line: ms (the
 * engine's median over the measured requests), cpu (the median of the
 * process's CPU time per request: user + system, so waiting for a core does
 * not count), p25 and p75 of ms, gcs (collections that started inside a
 * measured request), chosen, survivors, and on the Placement path matched
 * and returned.
 *
 * One process's figure is one sample: fresh processes on the same code
 * settle up to 2× apart (docs/performance.md, "Why one process settles at
 * 3.5 ms and the next at 6.9"), so bench/index.ts takes the median of
 * several.
 *
 *   node --import tsx bench/warm-run.ts HOSTS INSTANCES [plain|placement|numa]
 * (npm run bench runs it from a bundle: bench/bundle.ts)
 */
import { schedule } from "../lib/scheduler/engine";
import { freezeScenario } from "../lib/scheduler/scenario";
import { bigCloud, bigNumaCloud, bigPlacementCloud } from "../lib/demo/big-cloud";
import { PerformanceObserver } from "node:perf_hooks";
import { median } from "./median";
import { quantile } from "./stats";

const CLOUDS = { plain: bigCloud, placement: bigPlacementCloud, numa: bigNumaCloud };

const hosts = Number(process.argv[2]);
const instances = Number(process.argv[3]);
const cloud = CLOUDS[(process.argv[4] ?? "plain") as keyof typeof CLOUDS];
const big = hosts * instances >= 500000;
const reps = big ? 7 : hosts >= 10000 ? 41 : 61;
// Frozen, as the app keeps its snapshot: each host's state is derived once,
// on the first request, before the engine's clock starts.
const sc = freezeScenario(cloud(hosts, instances));
// Warm means compiled and settled: V8 optimises the host loops over the
// first requests and, on the NUMA path, drops and redoes some of that work
// as more shapes of cells and pools reach it, for about twenty requests
// (--trace-deopt); the first request is "engine first" (bench/first-run.ts).
// At least 40 requests and a second: on a loaded machine the optimising
// compiler's thread gets its turn late, and measuring before its code is in
// measures the baseline tier.
const warmUntil = performance.now() + (big ? 0 : 1000);
for (let r = 0; r < (big ? 2 : 40) || performance.now() < warmUntil; r++) schedule(sc);
const gcStarts: number[] = [];
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcStarts.push(e.startTime);
});
obs.observe({ entryTypes: ["gc"] });
const windows: Array<[number, number]> = [];
const runs: number[] = [];
const cpus: number[] = [];
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let run = schedule(sc);
for (let r = 0; r < reps; r++) {
  const t = performance.now();
  const c = cpuMs();
  run = schedule(sc);
  cpus.push(cpuMs() - c);
  windows.push([t, performance.now()]);
  if (run.error && run.error.name !== "NoValidHost") throw new Error(run.error.message);
  runs.push(run.engineMs);
}
// The collector's entries arrive after this task: print once they have.
setTimeout(() => {
  obs.disconnect();
  console.log(
    JSON.stringify({
      ms: median(runs),
      cpu: median(cpus),
      p25: quantile(runs, 0.25),
      p75: quantile(runs, 0.75),
      gcs: gcStarts.filter((g) => windows.some(([a, b]) => g >= a && g <= b)).length,
      chosen: run.selections[0]?.host.host ?? run.error?.name ?? "",
      survivors: run.traces[0]?.weighed.hosts.length ?? 0,
      matched: run.placement?.matched ?? 0,
      returned: run.placement?.candidates ?? 0,
    }),
  );
}, 10);
