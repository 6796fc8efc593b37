/**
 * The engine of another revision beside this one's, in one process, taking
 * turns on the same scenario: on a busy machine, where wall-clock figures
 * swing with the load, this compares like with like. Each request is timed
 * by the process's CPU time (getrusage: user + system, the garbage
 * collector's helper threads included), so time spent waiting for a CPU
 * does not count. (A thread's schedstat is not used: read by the thread
 * itself it lags by up to a scheduler tick.)
 *
 *   node --import tsx bench/ab.ts REV [CASES] [REPS]
 *   CASES: comma-separated HOSTSxINSTANCES, "n" for the NUMA/PCI cloud, "f"
 *          for a frozen scenario (the snapshot as the app keeps it)
 *          (default 10000x1f,10000x1nf,10000x50f,50000x50f)
 */
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { schedule as current } from "../lib/scheduler/engine";
import { freezeScenario, type Scenario } from "../lib/scheduler/scenario";
import { bigCloud, bigNumaCloud } from "../lib/demo/big-cloud";
import { median } from "./median";

type Schedule = typeof current;

const ROOT = path.resolve(__dirname, "..");
const [rev, cases = "10000x1f,10000x1nf,10000x50f,50000x50f", repsArg] = process.argv.slice(2);
if (!rev) {
  console.error("usage: node --import tsx bench/ab.ts REV [CASES] [REPS]");
  process.exit(2);
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const chosen = (run: ReturnType<Schedule>) => run.selections.map((s) => s.host.host).join(" ");

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "schedscope-ab-"));
  try {
    execSync(`git archive ${JSON.stringify(rev)} lib/scheduler | tar -x -C ${JSON.stringify(dir)}`, { cwd: ROOT });
    const other: Schedule = (await import(path.join(dir, "lib/scheduler/engine.ts"))).schedule;
    console.log(
      `${rev} (A) vs this tree (B): process CPU ms per request, median; load average ${os.loadavg()[0].toFixed(1)}`,
    );
    for (const c of cases.split(",")) {
      const numa = c.includes("n");
      const [hosts, instances] = c.replace(/[nf]/g, "").split("x").map(Number);
      const built: Scenario = (numa ? bigNumaCloud : bigCloud)(hosts, instances);
      const sc = c.includes("f") ? freezeScenario(built) : built;
      const reps = Number(repsArg ?? (hosts * instances >= 500000 ? 5 : 21));
      const a: number[] = [];
      const b: number[] = [];
      for (let r = 0; r <= reps; r++) {
        const ra = other(sc, { now: cpuMs });
        const rb = current(sc, { now: cpuMs });
        if (chosen(ra) !== chosen(rb)) throw new Error(`${c}: A and B chose different hosts`);
        // the first request of each is the compile run: not counted
        if (r > 0) {
          a.push(ra.engineMs);
          b.push(rb.engineMs);
        }
      }
      const [ma, mb] = [median(a), median(b)];
      console.log(`${c}: A ${ma.toFixed(2)} ms, B ${mb.toFixed(2)} ms, B/A ${(mb / ma).toFixed(2)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
