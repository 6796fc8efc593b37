/**
 * One fresh process's measure of one bench row, for bench/compare.ts (and
 * for looking at one process by hand). The engine comes in as an argument,
 * so the same harness and the same cloud (this tree's lib/demo/big-cloud.ts)
 * time this tree's engine and another revision's alike: compare.ts bundles a
 * small entry per revision that hands its lib/scheduler to runWorker.
 *
 * Prints one JSON line: the median over the measured requests of the
 * engine's own clock (wall, ms) and of the process's CPU time around each
 * request (getrusage: user + system, so time spent waiting for a core does
 * not count, the garbage collector's helper threads do), the garbage
 * collections inside the measured requests (count and ms), and the chosen
 * host, which both sides must agree on.
 *
 * Row names: HOSTSxINSTANCES (plain), HOSTSxINSTANCESp (Placement),
 * fillHOSTS (capacity fill of m1.large, FILL_BOOTS boots, ms per boot).
 */
import { PerformanceObserver } from "node:perf_hooks";
import { bigCloud, bigPlacementCloud } from "../lib/demo/big-cloud";
import type { Scenario } from "../lib/scheduler/scenario";

interface Run {
  engineMs: number;
  selections: Array<{ host: { host: string } }>;
  error: { name: string; message: string } | null;
}
export interface Engine {
  schedule: (sc: Scenario) => Run;
  freezeScenario: <T>(v: T) => T;
  fill: (sc: Scenario, o: { limit: number }) => { count: number };
}

export interface WorkerResult {
  row: string;
  wall: number;
  cpu: number;
  gcCount: number;
  gcMs: number;
  chosen: string;
  windows?: Array<[number, number]>;
  /** Every measured request's CPU ms, in order (BENCH_EACH=1). */
  each?: number[];
}

/** Boots per capacity fill in a compare row: enough for the per-boot cost to show, short enough to repeat. */
export const FILL_BOOTS = 1000;

const M1_LARGE = { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 80 };

export function parseRow(row: string): {
  kind: "schedule" | "fill";
  hosts: number;
  instances: number;
  placement: boolean;
} {
  const fill = /^fill(\d+)(p?)$/.exec(row);
  if (fill) return { kind: "fill", hosts: Number(fill[1]), instances: 1, placement: fill[2] === "p" };
  const m = /^(\d+)x(\d+)(p?)$/.exec(row);
  if (!m) throw new Error(`row "${row}": HOSTSxINSTANCES, HOSTSxINSTANCESp or fillHOSTS[p]`);
  return { kind: "schedule", hosts: Number(m[1]), instances: Number(m[2]), placement: m[3] === "p" };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export function measure(engine: Engine, row: string, warm?: number, reps?: number): WorkerResult {
  const r = parseRow(row);
  const cloud = (r.placement ? bigPlacementCloud : bigCloud)(r.hosts, r.instances);
  // The measured windows, to attribute the collections to (their entries arrive later, by start time).
  const windows: Array<[number, number]> = [];
  let opened = 0;
  const open = () => {
    opened = performance.now();
  };
  const close = () => {
    windows.push([opened, performance.now()]);
  };
  const walls: number[] = [];
  const cpus: number[] = [];
  let chosen = "";
  if (r.kind === "fill") {
    const sc = { ...cloud, request: { flavor: M1_LARGE, num_instances: 1 } } as Scenario;
    const n = reps ?? 5;
    for (let i = 0; i < (warm ?? 1) + n; i++) {
      const measured = i >= (warm ?? 1);
      open();
      const t = performance.now();
      const c = cpuMs();
      const f = engine.fill(sc, { limit: FILL_BOOTS });
      const cpu = cpuMs() - c;
      const wall = performance.now() - t;
      if (measured) close();
      chosen = String(f.count);
      if (measured) {
        walls.push(wall / Math.max(f.count, 1));
        cpus.push(cpu / Math.max(f.count, 1));
      }
    }
  } else {
    // Frozen, as the app keeps its snapshot (host states derived once, before any clock).
    const sc = engine.freezeScenario(cloud);
    const big = r.hosts * r.instances >= 500000;
    const n = reps ?? (big ? 7 : r.hosts >= 10000 ? 31 : 61);
    for (let i = 0; i < (warm ?? (big ? 3 : 40)); i++) engine.schedule(sc);
    if (process.env.BENCH_GC) {
      (globalThis as { gc?: () => void }).gc?.();
      for (let i = 0; i < 5; i++) engine.schedule(sc);
    }
    // With BENCH_EACH, a line between the warm-up and the measured requests (for --trace-opt, --trace-gc).
    if (process.env.BENCH_EACH) console.log("--- measured requests start");
    for (let i = 0; i < n; i++) {
      open();
      const c = cpuMs();
      const run = engine.schedule(sc);
      cpus.push(cpuMs() - c);
      close();
      if (run.error && run.error.name !== "NoValidHost") throw new Error(run.error.message);
      walls.push(run.engineMs);
      chosen = run.selections.map((s) => s.host.host).join(" ") || (run.error?.name ?? "");
    }
  }
  const each = process.env.BENCH_EACH ? cpus.map((x) => Math.round(x * 100) / 100) : undefined;
  return { row, wall: median(walls), cpu: median(cpus), gcCount: 0, gcMs: 0, chosen, windows, each };
}

/** The worker's command line: ROW [WARM] [REPS]; prints one JSON line. */
export function runWorker(engine: Engine): void {
  const [row, warm, reps] = process.argv.slice(2);
  const gcs: Array<{ start: number; ms: number }> = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: e.startTime, ms: e.duration });
  });
  obs.observe({ entryTypes: ["gc"] });
  const res = measure(engine, row, warm ? Number(warm) : undefined, reps ? Number(reps) : undefined);
  // The observer's entries arrive after the current task: count them once they have.
  setTimeout(() => {
    obs.disconnect();
    for (const g of gcs)
      if (res.windows?.some(([a, b]) => g.start >= a && g.start <= b)) {
        res.gcCount++;
        res.gcMs += g.ms;
      }
    delete res.windows;
    console.log(JSON.stringify(res));
  }, 10);
}
