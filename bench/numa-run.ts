/**
 * The NUMA/PCI section of npm run bench, and a whole request at 10,000
 * hosts, in a process of their own (the 50,000-host runs before them leave
 * a heap the garbage collector is still sorting out for seconds). Run from
 * one bundle, as the server runs the engine (bench/bundle.ts):
 *
 *   node --import tsx bench/numa-run.ts
 */
import { schedule } from "../lib/scheduler/engine";
import { freezeScenario } from "../lib/scheduler/scenario";
import { bigCloud, bigNumaCloud } from "../lib/demo/big-cloud";
import { median } from "./median";

/**
 * A whole request as the app's server makes it: schedule() on the frozen
 * snapshot it keeps in memory (lib/cloud/snapshot-cache.ts), host states
 * included (the snapshot's own, derived once; a consumed host is copied).
 */
function benchRequest() {
  console.log("\nRequest incl. host states at 10,000 hosts (frozen snapshot, as the app keeps it; warm median)");
  for (const [name, cloud] of [
    ["plain", bigCloud],
    ["NUMA/PCI", bigNumaCloud],
  ] as const) {
    const sc = freezeScenario(cloud(10000, 1));
    const total: number[] = [];
    const engine: number[] = [];
    schedule(sc);
    for (let r = 0; r < 21; r++) {
      const t0 = performance.now();
      const run = schedule(sc);
      total.push(performance.now() - t0);
      engine.push(run.engineMs);
    }
    const t = median(total);
    const e = median(engine);
    console.log(
      `${name}: ${t.toFixed(1)} ms per request, of which engine ${e.toFixed(1)} ms and host states ${(t - e).toFixed(1)} ms`,
    );
  }
}

/** NUMA/PCI at 10,000 hosts (pinned CPUs, 1 GiB pages, a GPU) beside the plain case. */
function benchNuma() {
  console.log(
    "\nNUMA/PCI at 10,000 hosts (2 cells each, pinned + 1 GiB pages + GPU flavor; +2 filters)\n" +
      "the plain and the NUMA/PCI request take turns in one process, as a server's requests do,\n" +
      "so both run on the same compiled code; warm medians after 25 turns each",
  );
  for (const instances of [1, 50]) {
    const sides = [bigCloud, bigNumaCloud].map((cloud) => ({
      sc: freezeScenario(cloud(10000, instances)),
      ms: [] as number[],
      run: null as ReturnType<typeof schedule> | null,
    }));
    const reps = instances > 1 ? 11 : 21;
    for (let r = 0; r < (instances > 1 ? 5 : 25) + reps; r++) {
      for (const side of sides) {
        side.run = schedule(side.sc);
        if (r >= (instances > 1 ? 5 : 25)) side.ms.push(side.run.engineMs);
      }
    }
    const [plain, numa] = sides.map((s) => ({
      ms: median(s.ms),
      survivors: s.run?.traces[0]?.weighed.hosts.length ?? 0,
      chosen: s.run?.selections[0]?.host.host ?? s.run?.error?.name ?? "",
    }));
    console.log(
      `instances ${instances}: plain ${plain.ms.toFixed(3)} ms (${plain.survivors} survivors), ` +
        `NUMA/PCI ${numa.ms.toFixed(3)} ms (${numa.survivors} survivors, chose ${numa.chosen}): ` +
        `${(numa.ms / plain.ms).toFixed(2)}× the plain request`,
    );
  }
}

benchNuma();
benchRequest();
