/**
 * One scheduling request in a fresh process: what the first request after a
 * start costs (nothing compiled, nothing cached). Prints one JSON line:
 * engine_ms (the engine's own clock: filters, weighers, alternates; the same
 * window the Nova reference times) and build_ms (host states from the parsed
 * scenario, outside that window).
 *
 * With --warm-up, the process first runs the engine warm-up a server does
 * when it starts (instrumentation.ts), as the first request a user makes sees.
 * With --placement, the request takes Nova's Placement path (bigPlacementCloud).
 *
 *   node --import tsx bench/first-run.ts HOSTS INSTANCES [--warm-up] [--placement]
 */
import { schedule } from "../lib/scheduler/engine";
import { freezeScenario } from "../lib/scheduler/scenario";
import { warmUpEngine } from "../lib/scheduler/warm-up";
import { bigCloud, bigPlacementCloud } from "./big-cloud";

const hosts = Number(process.argv[2]);
const instances = Number(process.argv[3]);
if (process.argv.includes("--warm-up")) warmUpEngine();
// Frozen, as the app keeps its snapshot; deriving each host's facts is build_ms, outside the window.
const scenario = freezeScenario(
  (process.argv.includes("--placement") ? bigPlacementCloud : bigCloud)(hosts, instances),
);
const t0 = performance.now();
const run = schedule(scenario);
const total = performance.now() - t0;
if (run.error && run.error.name !== "NoValidHost") throw new Error(run.error.message);
console.log(JSON.stringify({ engine_ms: run.engineMs, build_ms: total - run.engineMs }));
