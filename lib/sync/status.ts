/** What the page and the header show of syncs: the one running, the recent ones, the newest success. */
import type { Db } from "@/lib/db/client";
import { currentLease } from "./lock";

export interface SyncRunView {
  id: number;
  connectionName: string;
  startedBy: string;
  startedAt: string;
  finishedAt: string | null;
  status: string;
  progress: Record<string, unknown> | null;
  error: { message: string; kind: string; details: string[] } | null;
  result: Record<string, unknown> | null;
}

const json = (s: string | null) => {
  if (!s) return null;
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
};

export async function syncStatus(db: Db, limit = 10) {
  const [lease, rows, newest] = await Promise.all([
    currentLease(db),
    db.syncRun.findMany({ orderBy: { id: "desc" }, take: limit }),
    db.syncRun.findFirst({
      where: { status: "succeeded" },
      orderBy: { startedAt: "desc" },
      select: { startedAt: true },
    }),
  ]);
  const runs: SyncRunView[] = rows.map((r) => ({
    id: r.id,
    connectionName: r.connectionName,
    startedBy: r.startedBy,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    // a "running" row whose lease is gone was cut off (process ended)
    status: r.status === "running" && !lease ? "interrupted" : r.status,
    progress: json(r.progress),
    error: json(r.error),
    result: json(r.result),
  }));
  return { running: lease ? { label: lease.label } : null, runs, newestAt: newest?.startedAt.toISOString() ?? null };
}

export type SyncStatus = Awaited<ReturnType<typeof syncStatus>>;
