/**
 * npm run bench: engine time per request at 100 … 50,000 hosts for 1 and 50
 * instances (9 filters, every Zed weigher), beside the Nova reference's time
 * for the same scenario where it runs in reasonable time, and the database
 * snapshot load at 10,000 hosts.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { schedule } from "../lib/scheduler/engine";
import { bigCloud, bigNumaCloud } from "./big-cloud";
import { benchCapacity } from "./capacity";
import { benchSnapshot } from "./snapshot";

const REFERENCE = path.resolve(__dirname, "../../shared/nova-reference/nova_reference.py");
const PYTHON = "/usr/bin/python3";
const REFERENCE_MAX_HOSTS = Number(process.env.BENCH_REFERENCE_MAX_HOSTS ?? 10000);
// Nova's reference spends ~0.3 ms per host and instance: beyond this it takes minutes.
const REFERENCE_MAX_WORK = Number(process.env.BENCH_REFERENCE_MAX_WORK ?? 50000);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function engineMs(
  hosts: number,
  instances: number,
  cloud = bigCloud,
): { ms: number; chosen: string; survivors: number } {
  const runs: number[] = [];
  let chosen = "";
  let survivors = 0;
  // Median of many runs: the first ones pay for JIT compilation.
  const reps = hosts >= 50000 ? 7 : hosts >= 10000 ? 21 : 41;
  const sc = cloud(hosts, instances); // not mutated: host states are built per run
  for (let r = 0; r < reps; r++) {
    const run = schedule(sc);
    if (run.error && run.error.name !== "NoValidHost") throw new Error(run.error.message);
    runs.push(run.engineMs);
    chosen = run.selections[0]?.host.host ?? run.error?.name ?? "";
    survivors = run.traces[0]?.weighed.hosts.length ?? 0;
  }
  return { ms: median(runs), chosen, survivors };
}

function referenceMs(hosts: number, instances: number, dir: string): number | null {
  if (
    !existsSync(PYTHON) ||
    !existsSync(REFERENCE) ||
    hosts > REFERENCE_MAX_HOSTS ||
    hosts * instances > REFERENCE_MAX_WORK
  )
    return null;
  const file = path.join(dir, `bench-${hosts}-${instances}.json`);
  writeFileSync(file, JSON.stringify(bigCloud(hosts, instances)));
  try {
    const out = execFileSync(PYTHON, [REFERENCE, "--brief", file], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      timeout: 600_000,
    });
    const res = JSON.parse(out);
    if (res.error && res.error !== "NoValidHost") return null;
    return res.timing.engine_ms;
  } catch {
    return null;
  }
}

function fmt(n: number | null, digits = 2): string {
  return n === null ? "—" : n.toFixed(digits);
}

/** NUMA/PCI at 10,000 hosts (pinned CPUs, 1 GiB pages, a GPU) beside the plain case. */
function benchNuma() {
  console.log("\nNUMA/PCI at 10,000 hosts (2 cells each, pinned + 1 GiB pages + GPU flavor; +2 filters)");
  for (const instances of [1, 50]) {
    const plain = engineMs(10000, instances);
    const numa = engineMs(10000, instances, bigNumaCloud);
    console.log(
      `instances ${instances}: plain ${fmt(plain.ms, 3)} ms (${plain.survivors} survivors), ` +
        `NUMA/PCI ${fmt(numa.ms, 3)} ms (${numa.survivors} survivors, chose ${numa.chosen}): ` +
        `${(numa.ms / plain.ms).toFixed(2)}× the plain request`,
    );
  }
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "schedscope-bench-"));
  const rows: string[][] = [];
  console.log("Schedscope engine benchmark (median engine_ms; 9 filters, 10 weighers)\n");
  const header = ["hosts", "instances", "survivors", "engine ms", "nova ref ms", "speed-up"];
  for (const hosts of [100, 1000, 10000, 50000]) {
    for (const instances of [1, 50]) {
      const e = engineMs(hosts, instances);
      const ref = referenceMs(hosts, instances, dir);
      rows.push([
        String(hosts),
        String(instances),
        String(e.survivors),
        fmt(e.ms, 3),
        fmt(ref, 1),
        ref === null ? "—" : `${Math.round(ref / e.ms)}×`,
      ]);
      console.log(rows[rows.length - 1].join("\t"));
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padStart(widths[i])).join(" | ")} |`;
  console.log(`\n${line(header)}`);
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
  benchNuma();
  const mem = process.memoryUsage();
  console.log(`\nheap used ${(mem.heapUsed / 1048576).toFixed(0)} MB, rss ${(mem.rss / 1048576).toFixed(0)} MB`);
  benchCapacity(await benchSnapshot());
  rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
