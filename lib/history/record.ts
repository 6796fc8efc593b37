/**
 * An import that enters history: the cloud is replaced and its snapshot
 * recorded in ONE transaction, so a failed import leaves neither. A bundle
 * given an `at` older than the newest snapshot (collected earlier, imported
 * late) only enters history: it is written, exported as a snapshot, and the
 * cloud as it was is written back, all in that transaction.
 */
import type { PrismaClient, Tx } from "@/lib/db/client";
import { migrateProfileConfig } from "@/lib/scenario/profile-config";
import { exportCloud, type ImportOptions, type ImportSummary, importCloud } from "@/lib/cloud/scenario-io";
import { recordSnapshot, type SnapshotMeta, type SnapshotRow, storeSnapshot } from "./store";

const TIMEOUT = { timeout: 600_000, maxWait: 60_000 };

export async function importWithSnapshot(
  prisma: PrismaClient,
  doc: unknown,
  opts: Omit<ImportOptions, "tx">,
  meta: SnapshotMeta,
  tx?: Tx,
): Promise<ImportSummary & { snapshot: SnapshotRow; historyOnly: boolean }> {
  const work = async (t: Tx) => {
    const newest = await t.historySnapshot.findFirst({ orderBy: [{ takenAt: "desc" }, { id: "desc" }] });
    if (meta.at && newest && meta.at < newest.takenAt) {
      const current = await exportCloud(t);
      const summary = await importCloud(prisma, doc, { ...opts, keepProfiles: true, tx: t });
      const then = await exportCloud(t);
      // the bundle's own nova.conf is that moment's profile; the profiles of today are not touched
      const config = (doc as { config?: Record<string, unknown> }).config;
      if (config !== undefined && !opts.keepProfiles)
        then.config = JSON.parse(JSON.stringify(migrateProfileConfig(config))) as typeof then.config;
      const snapshot = await storeSnapshot(t, then, {
        ...meta,
        profileName: config !== undefined && !opts.keepProfiles ? (opts.profileName ?? null) : newest.profileName,
      });
      await importCloud(prisma, current, { keepProfiles: true, tx: t });
      return { ...summary, snapshot, historyOnly: true };
    }
    const summary = await importCloud(prisma, doc, { ...opts, tx: t });
    const snapshot = await recordSnapshot(t, meta);
    return { ...summary, snapshot, historyOnly: false };
  };
  return tx ? work(tx) : prisma.$transaction(work, TIMEOUT);
}
