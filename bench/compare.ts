/**
 * npm run bench:compare REF: is this tree's engine faster or slower than
 * REF's, beyond the machine's noise?
 *
 * REF is checked out in a temporary git worktree (node_modules linked from
 * this tree's, the worktree removed at the end), and each side's engine is
 * bundled with the same harness (bench/compare-worker.ts) and the same
 * cloud (this tree's lib/demo/big-cloud.ts). Then, row by row, the two
 * sides take turns in fresh processes (A B, then B A, so neither always
 * runs second), each process giving its median over many warm requests.
 * The sample is the process: one process's figure differs from the next's
 * by up to 2× on the same code (docs/performance.md), so only many
 * processes tell a difference from the machine. For each row it prints each
 * side's median and middle half, B/A with its 95 % interval (Hodges–Lehmann,
 * Mann–Whitney: bench/stats.ts) on process CPU time and on the engine's
 * wall clock, and whether the interval leaves out 1. A row keeps taking
 * rounds until its interval on CPU time is within ±5 % or --max-rounds.
 *
 *   npm run bench:compare -- REF [--rows 10000x1,fill10000] [--rounds 6]
 *                           [--max-rounds 16] [--node-flags "--single-threaded"]
 *                           [--instructions]
 *   --instructions: instead of times, each side's instructions per request
 *         counted by valgrind (see instructions()): minutes per row, but
 *         the same figure however loaded the machine is.
 *   rows: HOSTSxINSTANCES (plain), …p (Placement), fillHOSTS (capacity fill,
 *         per boot); default the main rows below.
 *
 * A is REF, B this working tree (uncommitted changes included).
 */
import { execFileSync, execSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSync } from "esbuild";
import { FILL_BOOTS, parseRow, type WorkerResult } from "./compare-worker";
import { ratioOf, spread } from "./stats";

const ROOT = path.resolve(__dirname, "..");
const MAIN_ROWS = ["1000x1", "1000x50", "10000x1", "10000x50", "1000x1p", "10000x1p", "fill10000"];

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

/** The module exporting fill() in a tree: lib/scheduler/fill.ts now, capacity.ts before the layout reshaping. */
function fillModule(root: string): string {
  for (const f of ["fill.ts", "capacity.ts"]) {
    const file = path.join(root, "lib/scheduler", f);
    if (existsSync(file) && /export function fill\(/.test(readFileSync(file, "utf8"))) return file;
  }
  throw new Error(`${root}: no lib/scheduler module exports fill()`);
}

/** A tree's engine under this tree's harness, as one bundle (the engine is bundled, as a server runs it: bench/bundle.ts). */
function bundleSide(root: string, dir: string, name: string): string {
  const entry = path.join(dir, `${name}-entry.ts`);
  const imp = (p: string) => JSON.stringify(p.replace(/\.ts$/, ""));
  writeFileSync(
    entry,
    `import { schedule } from ${imp(path.join(root, "lib/scheduler/engine"))};\n` +
      `import { freezeScenario } from ${imp(path.join(root, "lib/scheduler/scenario"))};\n` +
      `import { fill } from ${imp(fillModule(root))};\n` +
      `import { runWorker } from ${imp(path.join(ROOT, "bench/compare-worker"))};\n` +
      "runWorker({ schedule, freezeScenario, fill } as never);\n",
  );
  const out = path.join(dir, `${name}.cjs`);
  buildSync({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "warning",
  });
  return out;
}

function runSide(bundle: string, row: string, nodeFlags: string[]): WorkerResult {
  const out = execFileSync(process.execPath, [...nodeFlags, bundle, row], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

/**
 * Instructions per request (per fill, for a fill row) of one side, counted by
 * valgrind (cachegrind, no cache simulation) over the whole process: one run
 * with `reps` measured requests after the warm-up, one with none, the
 * difference over reps. Counted instructions do not depend on the machine's
 * load, which shifts wall and CPU times by ±50 % here; node runs
 * --single-threaded so the compiler and the collector work on the one
 * thread valgrind counts in order (their work for the measured requests
 * counted where it happens).
 */
function instructions(bundle: string, row: string, warm: number, reps: number): number {
  const count = (n: number) => {
    const res = spawnSync(
      "valgrind",
      [
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        process.execPath,
        "--single-threaded",
        bundle,
        row,
        String(warm),
        String(n),
      ],
      { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 24 },
    );
    const m = /I\s+refs:\s+([\d,]+)/.exec(res.stderr ?? "");
    if (!m) throw new Error(`valgrind on ${row}: ${res.error?.message ?? res.stderr?.slice(-400)}`);
    return Number(m[1].replace(/,/g, ""));
  };
  return (count(reps) - count(0)) / reps;
}

/** Warm-up and measured requests under valgrind, where a request runs ~50× slower. */
function instructionPlan(row: string): [number, number] {
  const r = parseRow(row);
  if (r.kind === "fill") return [1, 2];
  return r.hosts * r.instances >= 100000 ? [5, 2] : [40, 10];
}

const f2 = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const side = (xs: number[]) => {
  const s = spread(xs);
  return `${f2(s.median)} (${f2(s.p25)}–${f2(s.p75)})`;
};
const ratioCell = (a: number[], b: number[]) => {
  const r = ratioOf(a, b);
  const ci =
    r.low > 0 && Number.isFinite(r.high)
      ? `[${r.low.toFixed(2)}, ${r.high.toFixed(2)}]`
      : "[no interval: too few rounds]";
  return { text: `${r.ratio.toFixed(2)} ${ci}`, r };
};

function verdict(r: ReturnType<typeof ratioOf>): string {
  if (!r.beyondNoise) return "within the noise";
  return r.ratio > 1
    ? `B slower by ${((r.ratio - 1) * 100).toFixed(0)} %`
    : `B faster by ${((1 - r.ratio) * 100).toFixed(0)} %`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

function main() {
  const ref = process.argv[2];
  if (!ref || ref.startsWith("--")) {
    console.error("usage: npm run bench:compare -- REF [--rows R1,R2] [--rounds N] [--max-rounds N] [--node-flags F]");
    process.exit(2);
  }
  const rows = option("--rows", MAIN_ROWS.join(",")).split(",");
  const minRounds = Number(option("--rounds", "6"));
  const maxRounds = Math.max(minRounds, Number(option("--max-rounds", "16")));
  const nodeFlags = option("--node-flags", "").split(" ").filter(Boolean);
  const sha = execSync(`git rev-parse --verify ${JSON.stringify(`${ref}^{commit}`)}`, {
    cwd: ROOT,
    encoding: "utf8",
  }).trim();
  const head = execSync("git rev-parse --short HEAD", { cwd: ROOT, encoding: "utf8" }).trim();
  const dirty = execSync("git status --porcelain -- lib bench", { cwd: ROOT, encoding: "utf8" }).trim() !== "";
  const tmp = mkdtempSync(path.join(os.tmpdir(), "schedscope-compare-"));
  const tree = path.join(tmp, "ref");
  const cleanup = () => {
    try {
      execSync(`git worktree remove --force ${JSON.stringify(tree)}`, { cwd: ROOT, stdio: "ignore" });
    } catch {
      // not added, or already gone
    }
    rmSync(tmp, { recursive: true, force: true });
  };
  process.on("SIGINT", () => {
    cleanup();
    process.exit(130);
  });
  try {
    execSync(`git worktree add --detach ${JSON.stringify(tree)} ${sha}`, { cwd: ROOT, stdio: "ignore" });
    symlinkSync(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"));
    const a = bundleSide(tree, tmp, "a");
    const b = bundleSide(ROOT, tmp, "b");
    const started = new Date();
    console.log(
      `A ${ref} (${sha.slice(0, 7)}) vs B this tree (${head}${dirty ? " + uncommitted changes" : ""}), ` +
        `${started.toISOString().slice(0, 16).replace("T", " ")} UTC, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), ` +
        `load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}${nodeFlags.length ? `, node ${nodeFlags.join(" ")}` : ""}\n` +
        "each figure: one fresh process's median over its warm requests (ms; fill: per boot); " +
        "cells: median (middle half) of the processes; B/A: Hodges–Lehmann ratio [95 % interval]",
    );
    if (process.argv.includes("--instructions")) {
      const out: string[][] = [];
      for (const row of rows) {
        const [warm, reps] = instructionPlan(row);
        const ia = instructions(a, row, warm, reps);
        const ib = instructions(b, row, warm, reps);
        out.push([row, (ia / 1e6).toFixed(2), (ib / 1e6).toFixed(2), (ib / ia).toFixed(3)]);
        console.log(out[out.length - 1].join("  "));
      }
      console.log(
        `\n${table(["row", "A M instructions", "B M instructions", "B/A"], out)}\n\n` +
          `(per request; fill rows per fill of ${FILL_BOOTS} boots) load average ${os
            .loadavg()
            .map((l) => l.toFixed(1))
            .join(" ")} at the end`,
      );
      return;
    }
    const out: string[][] = [];
    for (const row of rows) {
      const res: Record<"a" | "b", WorkerResult[]> = { a: [], b: [] };
      for (let round = 0; round < maxRounds; round++) {
        const order: Array<"a" | "b"> = round % 2 === 0 ? ["a", "b"] : ["b", "a"];
        for (const s of order) res[s].push(runSide(s === "a" ? a : b, row, nodeFlags));
        const last = [res.a[res.a.length - 1], res.b[res.b.length - 1]];
        if (last[0] && last[1] && last[0].chosen !== last[1].chosen)
          throw new Error(`${row}: A chose ${last[0].chosen}, B ${last[1].chosen}`);
        if (round + 1 >= minRounds && res.a.length === res.b.length) {
          const r = ratioOf(
            res.a.map((x) => x.cpu),
            res.b.map((x) => x.cpu),
          );
          if (r.high / r.low <= 1.1) break;
        }
      }
      const cpu = ratioCell(
        res.a.map((x) => x.cpu),
        res.b.map((x) => x.cpu),
      );
      const wall = ratioCell(
        res.a.map((x) => x.wall),
        res.b.map((x) => x.wall),
      );
      const gc = (rs: WorkerResult[]) => (rs.reduce((s, x) => s + x.gcCount, 0) / rs.length).toFixed(1);
      out.push([
        row,
        String(res.a.length),
        side(res.a.map((x) => x.cpu)),
        side(res.b.map((x) => x.cpu)),
        cpu.text,
        verdict(cpu.r),
        wall.text,
        verdict(wall.r),
        `${gc(res.a)} / ${gc(res.b)}`,
      ]);
      console.log(out[out.length - 1].join("  "));
    }
    console.log(
      `\n${table(
        [
          "row",
          "rounds",
          "A CPU ms",
          "B CPU ms",
          "B/A CPU",
          "CPU verdict",
          "B/A wall",
          "wall verdict",
          "GCs in window A / B",
        ],
        out,
      )}\n\nload average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} at the end`,
    );
  } finally {
    cleanup();
  }
}

main();
