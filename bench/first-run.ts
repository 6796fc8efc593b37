/**
 * One scheduling request in a fresh process: what the first request after a
 * start costs (nothing compiled, nothing cached). Prints one JSON line:
 * engine_ms (the engine's own clock: filters, weighers, alternates; the same
 * window the Nova reference times) and build_ms (host states from the parsed
 * scenario, outside that window).
 *
 * With --warm-up, the process first runs the engine warm-up a server runs
 * when it starts (instrumentation.ts), before it serves: what the first
 * request a user makes of a fresh server sees. The warm-up's own synthetic
 * cloud, not this one. With --placement, the request takes Nova's Placement
 * path (bigPlacementCloud). With --filters nova or --filters all, the cloud
 * enables Nova's default filters or every filter instead of the demo
 * profile's. With --then-warm, the process goes on to 25 more requests and
 * prints their median as warm_ms too (the same cloud, warm, in the same
 * process).
 *
 *   node --import tsx bench/first-run.ts HOSTS INSTANCES [--warm-up] [--placement] [--filters nova|all] [--then-warm]
 */
import { DEFAULT_ENABLED_FILTERS } from "../lib/scheduler/config";
import { schedule } from "../lib/scheduler/engine";
import { FILTERS } from "../lib/scheduler/registry";
import { freezeScenario } from "../lib/scheduler/scenario";
import { warmUpEngine } from "../lib/scheduler/warm-up";
import { bigCloud, bigPlacementCloud } from "./big-cloud";
import { median } from "./median";

const argv = process.argv;
const hosts = Number(argv[2]);
const instances = Number(argv[3]);
const filters = argv.includes("--filters") ? argv[argv.indexOf("--filters") + 1] : null;
if (argv.includes("--warm-up")) warmUpEngine();
const cloud = (argv.includes("--placement") ? bigPlacementCloud : bigCloud)(hosts, instances);
if (filters === "nova") cloud.config = { ...cloud.config, enabled_filters: DEFAULT_ENABLED_FILTERS };
else if (filters === "all") cloud.config = { ...cloud.config, enabled_filters: Object.keys(FILTERS) };
else if (filters) throw new Error(`--filters: nova or all, not ${filters}`);
// Frozen, as the app keeps its snapshot; deriving each host's facts is build_ms, outside the window.
const scenario = freezeScenario(cloud);
const t0 = performance.now();
const run = schedule(scenario);
const total = performance.now() - t0;
if (run.error && run.error.name !== "NoValidHost") throw new Error(run.error.message);
const out: Record<string, number> = { engine_ms: run.engineMs, build_ms: total - run.engineMs };
if (argv.includes("--then-warm")) out.warm_ms = median(Array.from({ length: 25 }, () => schedule(scenario).engineMs));
console.log(JSON.stringify(out));
