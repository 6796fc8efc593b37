/**
 * npm run bench: the engine beside the Nova reference, like for like.
 *
 * For each cloud size (lib/demo/big-cloud.ts: 9 filters, the ten Zed weighers)
 * and 1 or 50 instances:
 *   - "engine warm": our engine's median over several requests in one
 *     process per size, as the reference is run (bench/warm-run.ts; engine
 *     only: filters, weighers, alternates; excluding parsing and building
 *     host states, as the reference's timer does), after 25 warm-up
 *     requests, on the scenario frozen as the app keeps its snapshot;
 *   - "engine first": the same measure for the first request of a fresh
 *     node process (nothing compiled yet);
 *   - "Nova ref warm" / "Nova ref first": the Nova reference
 *     (../shared/nova-reference/nova_reference.py --repeat N, Nova's own
 *     filter and weigher classes) timing the same window: the median of its
 *     N runs in one process, and its first run. Skipped where it would take
 *     minutes.
 * Then the goals; the Placement path (placement: true, max_placement_results
 * 1,000) at 1,000 and 10,000 hosts, the same measures on both sides; and
 * the database side at 10,000 hosts; a sync of a 10,000-host cloud over its
 * APIs (bench/sync.ts). Browser timings: npm run bench:browser.
 * `npm run bench -- --placement-only` runs the Placement section alone (with
 * its goals and the capacity fills). Each run appends its tables and goal
 * lines, dated, with the load, to docs/performance.md (bench/record.ts;
 * `--no-record` leaves the file alone). Each warm figure is the median of
 * several fresh processes (BENCH_WARM_PROCESSES, default 5).
 * The NUMA/PCI and whole-request sections alone: bench/numa-run.ts.
 */
import { execFileSync, execSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bigCloud, bigPlacementCloud } from "../lib/demo/big-cloud";
import { bundled } from "./bundle";
import { benchCapacity } from "./capacity";
import { benchMetrics } from "./metrics";
import { benchLogs } from "./logs";
import { benchSnapshot } from "./snapshot";
import { benchSync, printSync } from "./sync";
import { benchHistory } from "./history";
import { median } from "./median";
import { appendRun, runSection } from "./record";

const ROOT = path.resolve(__dirname, "..");
const REFERENCE = path.resolve(ROOT, "../shared/nova-reference/nova_reference.py");
const PYTHON = "/usr/bin/python3";
const REFERENCE_MAX_HOSTS = Number(process.env.BENCH_REFERENCE_MAX_HOSTS ?? 10000);
// The reference spends ~0.1-0.3 ms per host and instance, plus ~0.5 ms per host
// to parse and build its host states on every repeat: beyond this it takes minutes.
const REFERENCE_MAX_WORK = Number(process.env.BENCH_REFERENCE_MAX_WORK ?? 50000);
// On the Placement path the reference first fills a real Placement (one
// provider, its inventories, traits, aggregates and usage per host, through
// Placement's API): about 2 minutes per 1,000 hosts and run on this machine,
// outside its timer but not outside the wait.
const PLACEMENT_REFERENCE_MAX_HOSTS = Number(process.env.BENCH_PLACEMENT_REFERENCE_MAX_HOSTS ?? 1000);
const PLACEMENT_CASES = [1000, 10000];

const CASES: Array<[number, number]> = [
  [100, 1],
  [100, 50],
  [1000, 1],
  [1000, 50],
  [10000, 1],
  [10000, 50],
  [50000, 1],
  [50000, 50],
];

type CloudName = "plain" | "placement" | "numa";

/**
 * Fresh processes per warm figure: one process's median is one sample, and
 * processes on the same code settle up to 2× apart (docs/performance.md,
 * "Why one process settles at 3.5 ms and the next at 6.9").
 */
const WARM_PROCESSES = Number(process.env.BENCH_WARM_PROCESSES ?? 5);

interface Warm {
  /** The median of the processes' medians. */
  ms: number;
  /** The fastest and slowest process's median. */
  min: number;
  max: number;
  processes: number;
  chosen: string;
  survivors: number;
  matched: number;
  returned: number;
}

/** A size's warm median: the median of several processes' own (bench/warm-run.ts, one process per figure). */
function engineWarm(hosts: number, instances: number, cloud: CloudName = "plain"): Warm {
  const args = [bundled("bench/warm-run.ts"), String(hosts), String(instances), cloud];
  // 50,000 × 50 takes ~10 s a process: three.
  const n = hosts * instances >= 500000 ? Math.min(3, WARM_PROCESSES) : WARM_PROCESSES;
  const runs = Array.from({ length: n }, () => {
    const out = execFileSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 24 });
    return JSON.parse(out.trim().split("\n").pop()!) as Omit<Warm, "min" | "max" | "processes">;
  });
  const ms = runs.map((r) => r.ms);
  return { ...runs[0], ms: median(ms), min: Math.min(...ms), max: Math.max(...ms), processes: n };
}

function engineFirst(hosts: number, instances: number, placement = false): number {
  return firstRun([String(hosts), String(instances), ...(placement ? ["--variant", "placement"] : [])]).engine_ms;
}

/** bench/first-run.ts in a fresh node process. */
function firstRun(args: string[]): { engine_ms: number; build_ms: number; warm_up_ms: number; warm_ms?: number } {
  const out = execFileSync(process.execPath, [bundled("bench/first-run.ts"), ...args], { cwd: ROOT, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop()!);
}

/**
 * The first request a fresh server serves: in each of five fresh processes,
 * the start-up warm-up (its own synthetic cloud) and, with `prime`, the
 * start-up prime on the cloud (its other flavors, bench/first-run.ts), then
 * the first request on the 10,000-host cloud and 25 more; medians of the
 * first and of the warm ones.
 */
function serverFirst(variant?: string, prime = false): { first: number; warm: number; warmUp: number } {
  const runs = [0, 1, 2, 3, 4].map(() =>
    firstRun([
      "10000",
      "1",
      "--warm-up",
      ...(prime ? ["--prime"] : []),
      "--then-warm",
      ...(variant ? ["--variant", variant] : []),
    ]),
  );
  return {
    first: median(runs.map((r) => r.engine_ms)),
    warm: median(runs.map((r) => r.warm_ms!)),
    warmUp: median(runs.map((r) => r.warm_up_ms)),
  };
}

interface ReferenceTiming {
  warm: number;
  first: number;
  runs: number;
  chosen: string;
}

function reference(
  hosts: number,
  instances: number,
  dir: string,
  cloud = bigCloud,
  repeat = hosts * instances >= 10000 ? 5 : 9,
): ReferenceTiming | string {
  if (!existsSync(PYTHON) || !existsSync(REFERENCE)) return "no Nova reference here";
  const file = path.join(dir, `bench-${cloud.name}-${hosts}-${instances}.json`);
  writeFileSync(file, JSON.stringify(cloud(hosts, instances)));
  try {
    const out = execFileSync(PYTHON, [REFERENCE, "--repeat", String(repeat), "--brief", file], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      timeout: 900_000,
    });
    const res = JSON.parse(out);
    if (res.error && res.error !== "NoValidHost") return `reference error ${res.error}`;
    const chosen = res.selections?.[0]?.host ?? res.error ?? "";
    return { warm: res.timing.engine_ms, first: res.timing.first_ms, runs: repeat, chosen };
  } catch (e) {
    return `reference failed: ${(e as Error).message.split("\n")[0]}`;
  }
}

const fmt = (n: number | null | undefined, digits = 2) => (n === null || n === undefined ? "—" : n.toFixed(digits));
const times = (a: number, b: number) => `${a / b >= 10 ? Math.round(a / b) : (a / b).toFixed(1)}×`;

/** The columns both tables share: each side's warm and first figures and the ratios. */
const TIMING_HEADER = [
  "engine warm",
  "warm spread",
  "engine first",
  "Nova ref warm",
  "Nova ref first",
  "warm vs warm",
  "first vs first",
];

function timingCells(warm: Warm, first: number, r: ReferenceTiming | null): string[] {
  return [
    fmt(warm.ms, 3),
    `${fmt(warm.min, 3)}–${fmt(warm.max, 3)}`,
    fmt(first, 1),
    fmt(r?.warm, 1),
    fmt(r?.first, 1),
    r ? times(r.warm, warm.ms) : "—",
    r ? times(r.first, first) : "—",
  ];
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padStart(widths[i])).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => `${"-".repeat(w + 1)}:`).join("|")}|`, ...rows.map(line)].join("\n");
}

/** The Placement path beside the reference's (placement_reference.py: Nova's select_destinations on a real Placement). */
function benchPlacement(dir: string): number {
  console.log(
    "\nPlacement path (placement: true, max_placement_results 1,000; same cloud, filters and weighers), ms\n" +
      "engine: its clock covers the request filters, GET /allocation_candidates, filters, weighers, claims\n" +
      "and alternates (a frozen snapshot's providers are built before it starts, as its host states are);\n" +
      "the reference's covers select_destinations only (its providers are filled before its timer starts)",
  );
  const header = ["hosts", "matched", "returned", "survivors", ...TIMING_HEADER];
  const rows: string[][] = [];
  let warmAt10k = Number.NaN;
  for (const hosts of PLACEMENT_CASES) {
    const warm = engineWarm(hosts, 1, "placement");
    if (hosts === 10000) warmAt10k = warm.ms;
    const first = engineFirst(hosts, 1, true);
    const ref =
      hosts > PLACEMENT_REFERENCE_MAX_HOSTS
        ? `skipped at ${hosts.toLocaleString("en-US")} hosts: filling its Placement takes ~2 min per 1,000 hosts and run (BENCH_PLACEMENT_REFERENCE_MAX_HOSTS=${hosts} runs it)`
        : reference(hosts, 1, dir, bigPlacementCloud, 3);
    const r = typeof ref === "string" ? null : ref;
    if (typeof ref === "string") console.log(`- Nova reference ${ref}`);
    else if (ref.chosen !== warm.chosen)
      console.log(`- DISAGREEMENT at ${hosts} hosts: engine chose ${warm.chosen}, the reference ${ref.chosen}`);
    rows.push([
      hosts.toLocaleString("en-US"),
      warm.matched.toLocaleString("en-US"),
      warm.returned.toLocaleString("en-US"),
      warm.survivors.toLocaleString("en-US"),
      ...timingCells(warm, first, r),
    ]);
    console.log(rows[rows.length - 1].join("\t"));
  }
  console.log(`\n${table(header, rows)}`);
  return warmAt10k;
}

/** The Placement path's goals: warm time beside the path without Placement, and a fresh server's first request. */
function placementGoals(placementWarm: number): void {
  const goal = (ok: boolean) => (ok ? "met" : "NOT met");
  const plain = engineWarm(10000, 1).ms;
  console.log(
    `\nPlacement goals at 10,000 hosts\n- warm: ${placementWarm.toFixed(2)} ms on the Placement path, ` +
      `${plain.toFixed(2)} ms the same request without it: ${(placementWarm / plain).toFixed(2)}× (goal ≤ 1.5×: ${goal(placementWarm <= 1.5 * plain)})`,
  );
  // As a server starts (instrumentation.ts): the warm-up, then the prime on its own cloud's other flavors.
  const v = serverFirst("placement", true);
  console.log(
    `- the first request a fresh server serves on the Placement path, a query its start-up prime did not ask: ` +
      `${v.first.toFixed(1)} ms, ${(v.first / v.warm).toFixed(1)}× its warm median (${v.warm.toFixed(2)} ms) ` +
      `(goal ≤ 3×: ${goal(v.first <= 3 * v.warm)})`,
  );
  const bare = serverFirst("placement");
  console.log(
    `  after the warm-up alone (no prime: the cloud's hosts new to the code): ${bare.first.toFixed(1)} ms, ` +
      `${(bare.first / bare.warm).toFixed(1)}× its warm median (${bare.warm.toFixed(2)} ms)`,
  );
}

/** What this run prints, for its dated section in docs/performance.md (bench/record.ts). */
const printed: string[] = [];
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
  printed.push(String(chunk));
  return write(chunk, ...rest);
}) as typeof process.stdout.write;

function recordRun(started: Date, loadStart: number): void {
  if (process.argv.includes("--no-record")) return;
  const git = (args: string) => execSync(`git ${args}`, { cwd: ROOT, encoding: "utf8" }).trim();
  const dirty = git("status --porcelain -- lib bench") ? " plus uncommitted changes" : "";
  const machine =
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), node ${process.version}, commit ${git("rev-parse --short HEAD")}${dirty}; ` +
    `engine warm: the median of ${WARM_PROCESSES} fresh processes' medians (3 at 50,000 × 50), warm spread their range` +
    (process.argv.includes("--placement-only") ? "; --placement-only" : "");
  const file = path.join(ROOT, "docs/performance.md");
  appendRun(file, runSection({ started, loadStart, loadEnd: os.loadavg()[0], machine, output: printed.join("") }));
  // In the house format, so `npm run lint` passes on the appended tables.
  try {
    execFileSync(path.join(ROOT, "node_modules/.bin/biome"), ["format", "--write", file], {
      cwd: ROOT,
      stdio: "ignore",
    });
  } catch {
    console.log("(biome could not format docs/performance.md: run npm run format)");
  }
  console.log(`(this run's tables and goals appended to docs/performance.md; --no-record leaves it alone)`);
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "schedscope-bench-"));
  const load = os.loadavg()[0];
  const started = new Date();
  console.log(
    `Schedscope engine vs the Nova reference, ms (${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? "?"}; ` +
      `load average ${load.toFixed(1)} at start)\n` +
      "engine: lib/scheduler, engine only (filters, weighers, alternates), excluding parsing and host states,\n" +
      "        on the scenario frozen as the app keeps its snapshot (its host states read as they are),\n" +
      "        run from one bundle, as the server runs it (bench/bundle.ts)\n" +
      "Nova ref: ../shared/nova-reference (Nova 26 Zed's own classes), the same window\n" +
      "warm: median of several requests in one process per size (ours after ≥ 40 warm-up requests and 1 s,\n" +
      `      then the median of ${WARM_PROCESSES} such processes; warm spread: their range);\n` +
      "first: the first request of a bare node process (nothing compiled); a server's first request: Goals\n",
  );
  if (process.argv.includes("--placement-only")) {
    placementGoals(benchPlacement(dir));
    benchCapacity(await benchSnapshot());
    console.log(`\nload average ${os.loadavg()[0].toFixed(1)} at the end`);
    rmSync(dir, { recursive: true, force: true });
    recordRun(started, load);
    return;
  }
  const header = ["hosts", "instances", "survivors", ...TIMING_HEADER];
  const rows: string[][] = [];
  const notes: string[] = [];
  const results = new Map<string, { warm: number; first: number; ref: ReferenceTiming | null }>();
  for (const [hosts, instances] of CASES) {
    const warm = engineWarm(hosts, instances);
    const first = engineFirst(hosts, instances);
    const ref =
      hosts > REFERENCE_MAX_HOSTS || hosts * instances > REFERENCE_MAX_WORK
        ? "skipped: would take minutes"
        : reference(hosts, instances, dir);
    const r = typeof ref === "string" ? null : ref;
    if (typeof ref === "string") notes.push(`${hosts} hosts × ${instances}: Nova reference ${ref}`);
    results.set(`${hosts}x${instances}`, { warm: warm.ms, first, ref: r });
    rows.push([
      hosts.toLocaleString("en-US"),
      String(instances),
      warm.survivors.toLocaleString("en-US"),
      ...timingCells(warm, first, r),
    ]);
    console.log(rows[rows.length - 1].join("\t"));
  }
  console.log(`\n${table(header, rows)}\n`);
  for (const n of notes) console.log(`- ${n}`);

  const ten = results.get("10000x1")!;
  const big = results.get("50000x50")!;
  const goal = (ok: boolean) => (ok ? "met" : "NOT met");
  console.log("\nGoals");
  if (ten.ref)
    console.log(
      `- 10,000 hosts, warm: ${times(ten.ref.warm, ten.warm)} the Nova reference's speed (goal ≥ 300×: ${goal(ten.ref.warm / ten.warm >= 300)})`,
    );
  // A server warms up and primes on its own cloud before it serves (instrumentation.ts): its first request is the one users meet.
  const served = serverFirst(undefined, true);
  console.log(
    `- 10,000 hosts, the first request a fresh server serves (after its start-up warm-up on its own synthetic cloud ` +
      `and its prime on the cloud's other flavors; median of 5 processes): ${served.first.toFixed(1)} ms, ` +
      `${(served.first / served.warm).toFixed(1)}× the warm median of the same processes (${served.warm.toFixed(2)} ms) ` +
      `(goal ≤ 3×: ${goal(served.first <= 3 * served.warm)}); this request's filters are the demo profile's, ` +
      `as one warm-up request's; the warm-up took ${served.warmUp.toFixed(0)} ms`,
  );
  console.log("  after the warm-up alone, before any prime:");
  for (const [variant, label] of [
    ["profile", "the default profile as shipped (no metrics weight setting), m1.small, 2 instances"],
    ["other", "filters, flavor, RAM multiplier and instance count no warm-up request has, 5 instances"],
    ["numa", "NUMA/PCI (bigNumaCloud)"],
    ["placement", "the Placement path (bigPlacementCloud)"],
  ] as const) {
    const v = serverFirst(variant);
    console.log(
      `  ${label}: ${v.first.toFixed(1)} ms, ${(v.first / v.warm).toFixed(1)}× its warm median (${v.warm.toFixed(2)} ms)`,
    );
  }
  console.log(
    `- 10,000 hosts, the first request of a bare node process (nothing compiled, as a one-shot CLI run): ` +
      `${ten.first.toFixed(1)} ms, ${(ten.first / ten.warm).toFixed(1)}× the warm time (the "engine first" column; ` +
      `≤ 3×: ${goal(ten.first <= 3 * ten.warm)})`,
  );
  console.log(`- 50,000 hosts × 50 instances: ${big.warm.toFixed(0)} ms warm (goal < 500 ms: ${goal(big.warm < 500)})`);
  // In a process of their own, like both sides of their comparison: the
  // 50,000-host runs above leave a heap the garbage collector is still
  // sorting out for the next seconds.
  process.stdout.write(execFileSync(process.execPath, [bundled("bench/numa-run.ts")], { cwd: ROOT, encoding: "utf8" }));
  placementGoals(benchPlacement(dir));
  const mem = process.memoryUsage();
  console.log(`\nheap used ${(mem.heapUsed / 1048576).toFixed(0)} MB, rss ${(mem.rss / 1048576).toFixed(0)} MB`);
  rmSync(dir, { recursive: true, force: true });
  benchCapacity(await benchSnapshot());
  // Moves: the single-host-loss sweep (every host of 1,000 lost in turn, 20 evacuations each)
  process.stdout.write(
    execFileSync(process.execPath, [bundled("bench/lose-hosts.ts")], { cwd: ROOT, encoding: "utf8" }),
  );
  // /metrics: computing the cache after a sync, and a scrape from it, at 10,000 hosts
  await benchMetrics();
  // a sync of a 10,000-host cloud from a local server in the real cloud's answer shapes (goal < 60 s)
  printSync(await benchSync(10000));
  // The cloud's history: what a day of 1 % changed hosts adds beside a full copy
  await benchHistory();
  // Nova's logs: a ~1 GB synthetic nova-scheduler log parsed into scheduling calls (MB/s, peak RSS)
  await benchLogs();
  console.log(
    `\nload average ${os.loadavg()[0].toFixed(1)} at the end. Click-to-result in the browser: npm run bench:browser`,
  );
  recordRun(started, load);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
