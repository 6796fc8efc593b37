/**
 * The database side of a scheduling request at scale: seed 10,000 hosts into
 * a real SQLite file or PostgreSQL database (real migrations), then time the one read transaction
 * that loads the engine's snapshot, the revision check that replaces it while
 * the cloud is unchanged, and a full request on it.
 */
import { loadSnapshotCached } from "../lib/cloud/snapshot-cache";
import { seedDemoCloud } from "../lib/demo/seed";
import { type CloudScenario, loadCloudSnapshot } from "../lib/cloud/snapshot";
import { schedule } from "../lib/scheduler/engine";
import { createTestDatabaseOf, type Provider } from "../lib/testing/test-db";
import { median } from "./median";

/** Returns the snapshot (the demo cloud as the engine reads it) for the benchmarks that follow. */
export async function benchSnapshot(
  hosts = 10000,
  provider: Provider = "sqlite",
  postgresUrl?: string,
): Promise<CloudScenario> {
  const db = await createTestDatabaseOf(provider, postgresUrl);
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
    const checks: number[] = [];
    await loadSnapshotCached(db.prisma);
    for (let i = 0; i < 5; i++) checks.push((await loadSnapshotCached(db.prisma)).loadMs);
    const flavor = { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 40 };
    const run = schedule({ ...scenario, request: { flavor, num_instances: 1 } });
    console.log(
      `\n${provider} database at ${scenario.hosts.length} hosts: seed ${(seedMs / 1000).toFixed(1)} s, ` +
        `snapshot load median ${median(loads).toFixed(0)} ms (min ${Math.min(...loads).toFixed(0)}); ` +
        `kept in memory, a request checks the revision instead: median ${median(checks).toFixed(1)} ms; ` +
        `engine on it ${run.engineMs.toFixed(1)} ms (${run.selections[0]?.host.host ?? run.error?.name})`,
    );
    return scenario;
  } finally {
    await db.cleanup();
  }
}
