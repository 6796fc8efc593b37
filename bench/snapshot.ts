/**
 * The database side of a scheduling request at scale: seed 10,000 hosts into
 * a real SQLite file (real migrations), then time the one read transaction
 * that loads the engine's snapshot, and a full request on it.
 */
import { seedDemoCloud } from "../lib/cloud/seed-demo";
import { loadCloudSnapshot } from "../lib/cloud/snapshot";
import { schedule } from "../lib/scheduler/engine";
import type { CloudScenario } from "../lib/cloud/snapshot";
import { createTestDatabase } from "../lib/testing/test-db";

/** Returns the snapshot (the demo cloud as the engine reads it) for the benchmarks that follow. */
export async function benchSnapshot(hosts = 10000): Promise<CloudScenario> {
  const db = await createTestDatabase();
  try {
    const t0 = performance.now();
    await seedDemoCloud(db.prisma, { hosts });
    const seedMs = performance.now() - t0;
    const loads: number[] = [];
    let scenario = await loadCloudSnapshot(db.prisma);
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      scenario = await loadCloudSnapshot(db.prisma);
      loads.push(performance.now() - t);
    }
    loads.sort((a, b) => a - b);
    const flavor = { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 40 };
    const run = schedule({ ...scenario, request: { flavor, num_instances: 1 } });
    console.log(
      `\ndatabase at ${scenario.hosts.length} hosts: seed ${(seedMs / 1000).toFixed(1)} s, ` +
        `snapshot load median ${loads[2].toFixed(0)} ms (min ${loads[0].toFixed(0)}), ` +
        `engine on it ${run.engineMs.toFixed(1)} ms (${run.selections[0]?.host.host ?? run.error?.name})`,
    );
    return scenario;
  } finally {
    await db.cleanup();
  }
}
