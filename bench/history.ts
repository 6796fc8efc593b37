/**
 * The cloud's history at scale: the 10,000-host demo cloud seeded (its first
 * snapshot), then days on which 1 % of the hosts change (their RAM in use),
 * each imported as a snapshot. Prints what a snapshot adds beside a full
 * copy, what thirty such days would hold, and the time to record a
 * snapshot, to load one "as of" and to diff two.
 */
import { seedDemoCloud } from "../lib/demo/seed";
import { diffSnapshots } from "../lib/history/diff";
import { importWithSnapshot } from "../lib/history/record";
import { historyBytes, listSnapshots, loadSnapshotDoc } from "../lib/history/store";
import { exportCloud } from "../lib/cloud/scenario-io";
import { createTestDatabaseOf, type Provider } from "../lib/testing/test-db";

const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

export async function benchHistory(hosts = 10000, days = 2, provider: Provider = "sqlite", postgresUrl?: string) {
  const db = await createTestDatabaseOf(provider, postgresUrl);
  try {
    await seedDemoCloud(db.prisma, { hosts });
    const rows: string[] = [];
    let doc = await exportCloud(db.prisma);
    const changed = Math.max(1, Math.round(hosts / 100));
    for (let day = 1; day <= days; day++) {
      for (let i = 0; i < changed; i++) {
        const h = doc.hosts[(i * 97 + day * 13) % doc.hosts.length];
        h.memory_mb_used = (h.memory_mb_used ?? 0) + 1024;
      }
      const t0 = performance.now();
      const r = await importWithSnapshot(
        db.prisma,
        doc,
        { keepProfiles: true },
        {
          source: "scenario",
          startedBy: "(bench)",
        },
      );
      const ms = performance.now() - t0;
      rows.push(
        `  day ${day}: ${changed} hosts changed, import + snapshot ${(ms / 1000).toFixed(1)} s; ` +
          `the snapshot added ${MB(r.snapshot.addedBytes)} of a ${MB(r.snapshot.bytes)} copy ` +
          `(${((100 * r.snapshot.addedBytes) / r.snapshot.bytes).toFixed(2)} %, goal < 10 %)`,
      );
      doc = await exportCloud(db.prisma);
    }
    const snaps = await listSnapshots(db.prisma);
    const held = await historyBytes(db.prisma);
    const perDay = snaps[0].addedBytes;
    const t1 = performance.now();
    const oldest = await loadSnapshotDoc(db.prisma, snaps.at(-1)!.id);
    const loadMs = performance.now() - t1;
    const newest = await loadSnapshotDoc(db.prisma, snaps[0].id);
    const t2 = performance.now();
    const d = diffSnapshots(oldest, newest);
    const diffMs = performance.now() - t2;
    console.log(
      `\nhistory (${provider}, ${hosts} hosts, 1 % of hosts changed a day):\n${rows.join("\n")}\n` +
        `  held: ${MB(held.records + held.manifests)} for ${held.snapshots} snapshots ` +
        `(records ${MB(held.records)}, manifests ${MB(held.manifests)}); thirty days ≈ ` +
        `${MB(snaps.at(-1)!.addedBytes + 29 * perDay)} against ${MB(30 * snaps[0].bytes)} as thirty copies\n` +
        `  load a snapshot "as of" ${(loadMs / 1000).toFixed(2)} s; diff oldest → newest ${diffMs.toFixed(0)} ms ` +
        `(${d.counts.hosts} hosts changed)`,
    );
  } finally {
    await db.cleanup();
  }
}

if (process.argv[1]?.endsWith("history.ts")) {
  const hosts = Number(process.argv[2] ?? 10000);
  benchHistory(hosts).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
