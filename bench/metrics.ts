/**
 * /metrics at 10,000 hosts: the demo cloud seeded into a fresh SQLite
 * database, the cache computed as after a sync (every flavor's exact fill,
 * then the host-loss sweep), then scrapes answered from that cache (the
 * revision read, the per-scrape lines, the body). Goals: a scrape < 50 ms,
 * computing the cache < 10 s.
 *
 * Standalone: node --import tsx bench/metrics.ts [HOSTS]
 */
import os from "node:os";
import { seedDemoCloud } from "../lib/demo/seed";
import {
  clearMetricsCache,
  HOST_LOSS_BUDGET_MS,
  latestMetrics,
  refreshMetrics,
  scrapeMetrics,
} from "../lib/metrics/cache";
import { createTestDatabase } from "../lib/testing/test-db";
import { median } from "./median";

export async function benchMetrics(hosts = 10000): Promise<void> {
  const db = await createTestDatabase();
  try {
    const t0 = performance.now();
    await seedDemoCloud(db.prisma, { hosts });
    const seedMs = performance.now() - t0;
    clearMetricsCache(db.prisma);
    const c0 = process.cpuUsage();
    const t1 = performance.now();
    await refreshMetrics(db.prisma);
    const computeMs = performance.now() - t1;
    const cpu = process.cpuUsage(c0);
    const latest = latestMetrics(db.prisma)!;
    const scrapes: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 25; i++) {
      const s = performance.now();
      bytes = (await scrapeMetrics(db.prisma)).length;
      scrapes.push(performance.now() - s);
    }
    const goal = (ok: boolean) => (ok ? "met" : "NOT met");
    const scrape = median(scrapes.slice(5));
    console.log(
      `\n/metrics at ${hosts.toLocaleString("en-US")} hosts (seed ${(seedMs / 1000).toFixed(1)} s; load average ${os.loadavg()[0].toFixed(1)})`,
    );
    console.log("flavor\tfree slots\tfill ms");
    for (const f of latest.metrics.flavors)
      console.log(`${f.flavor}\t${f.count}${f.limitReached ? " (limit)" : ""}\t${f.fillMs.toFixed(0)}`);
    const fillsMs = latest.metrics.flavors.reduce((a, f) => a + f.fillMs, 0);
    const zones = latest.metrics.hostLoss ?? [];
    const checked = zones.reduce((a, z) => a + z.checked, 0);
    const all = zones.reduce((a, z) => a + z.hosts, 0);
    console.log(
      `- computing the cache: ${(computeMs / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU in all; ` +
        `the free slots of every flavor (the exact fills) ${(fillsMs / 1000).toFixed(1)} s (goal < 10 s: ${goal(fillsMs < 10_000)}); ` +
        `the rest: reading the cloud, and the host-loss sweep (budget ${HOST_LOSS_BUDGET_MS / 1000} s: ${checked} of ${all} hosts lost in turn)`,
    );
    console.log(
      `- a scrape from the cache: ${scrape.toFixed(2)} ms median of 20 (${(bytes / 1024).toFixed(0)} KiB) (goal < 50 ms: ${goal(scrape < 50)})`,
    );
  } finally {
    await db.cleanup();
  }
}

if (process.argv[1]?.endsWith("metrics.ts")) {
  benchMetrics(Number(process.argv[2] ?? 10000)).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
