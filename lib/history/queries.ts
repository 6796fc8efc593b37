/**
 * The history's read side for the page and the CLI: a diff between two
 * snapshots, a snapshot's predictions (computed once, then kept on the
 * snapshot), the agreement figure per profile, usage per AZ over time.
 */
import type { PrismaClient } from "@/lib/db/client";
import { diffSnapshots, type SnapshotDiff } from "./diff";
import { predict, type PredictionReport } from "./predictions";
import { getSnapshot, listSnapshots, loadSnapshotDoc, previousSnapshot, SnapshotNotFoundError } from "./store";

export async function diffOf(db: PrismaClient, a: number, b: number): Promise<SnapshotDiff> {
  const [da, dbDoc] = [await loadSnapshotDoc(db, a), await loadSnapshotDoc(db, b)];
  return diffSnapshots(da, dbDoc);
}

/** The predictions of snapshot `id` against the one before it (null: it is the oldest). */
export async function predictionsOf(db: PrismaClient, id: number): Promise<PredictionReport | null> {
  const row = await db.historySnapshot.findUnique({ where: { id }, select: { predictions: true, profileName: true } });
  if (!row) throw new SnapshotNotFoundError(id);
  if (row.predictions) return JSON.parse(row.predictions) as PredictionReport;
  const prev = await previousSnapshot(db, id);
  if (!prev) return null;
  const report = predict(await loadSnapshotDoc(db, prev.id), await loadSnapshotDoc(db, id), {
    snapshot: id,
    previous: prev.id,
    profile: prev.profileName,
  });
  await db.historySnapshot.update({ where: { id }, data: { predictions: JSON.stringify(report) } });
  return report;
}

export interface Agreement {
  profile: string | null;
  agreed: number;
  compared: number;
  snapshots: number;
}

/**
 * Running agreement per profile (the profile active on the previous
 * snapshot) over the newest `limit` snapshots; predictions not yet computed
 * are computed now (and kept).
 */
export async function agreementPerProfile(db: PrismaClient, limit = 30): Promise<Agreement[]> {
  const snaps = await listSnapshots(db, { limit });
  const by = new Map<string, Agreement>();
  for (const s of snaps) {
    const r = await predictionsOf(db, s.id);
    if (!r || r.compared === 0) continue;
    const key = r.profile ?? "";
    const a = by.get(key) ?? { profile: r.profile, agreed: 0, compared: 0, snapshots: 0 };
    a.agreed += r.agreed;
    a.compared += r.compared;
    a.snapshots++;
    by.set(key, a);
  }
  return [...by.values()];
}

/** The agreement per profile from the predictions already computed (the overview: never computes). */
export async function storedAgreement(db: PrismaClient, limit = 30): Promise<Agreement[]> {
  const rows = await db.historySnapshot.findMany({
    where: { predictions: { not: null } },
    select: { predictions: true },
    orderBy: [{ takenAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  const by = new Map<string, Agreement>();
  for (const row of rows) {
    const r = JSON.parse(row.predictions!) as PredictionReport;
    if (r.compared === 0) continue;
    const key = r.profile ?? "";
    const a = by.get(key) ?? { profile: r.profile, agreed: 0, compared: 0, snapshots: 0 };
    a.agreed += r.agreed;
    a.compared += r.compared;
    a.snapshots++;
    by.set(key, a);
  }
  return [...by.values()];
}

export { getSnapshot, listSnapshots };
