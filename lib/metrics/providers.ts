/**
 * What /metrics reads from the parts of Schedscope that keep a cloud in
 * step with the real one (sync, lib/sync) and remember it (the snapshot
 * history, lib/history): the newest snapshot's age, the syncs' duration and
 * failures, the predictions' agreement, and the allocation per AZ over the
 * snapshots that runway fits its trend to. With no sync and no history the
 * series that need them are left out rather than made up.
 * setMetricsProviders replaces them (the tests feed a known history).
 */
import { processSingleton } from "@/lib/process-singleton";
import type { PrismaClient } from "@/lib/db/client";
import { storedAgreement } from "@/lib/history/queries";
import { listSnapshots } from "@/lib/history/store";

export interface SyncStats {
  /** When the newest snapshot of the real cloud was taken (null: never). */
  lastSnapshotAt: Date | null;
  /** Duration of the last sync, seconds (null: none ran). */
  lastDurationSeconds: number | null;
  /** Syncs that failed since the server started, or in all (a counter: never goes down). */
  failuresTotal: number;
  syncsTotal: number;
  /** Our predictions compared with what Nova then did: how many, and how many agreed. */
  predictions: { compared: number; agreed: number } | null;
}

/** One snapshot's allocation in one AZ (and aggregate, "" for the AZ as a whole). */
export interface AllocationPoint {
  at: Date;
  az: string;
  aggregate: string;
  /** Placement usage per resource class summed over the AZ's (or aggregate's) hosts. */
  allocated: Record<string, number>;
}

export interface MetricsProviders {
  syncStats(db: PrismaClient): Promise<SyncStats | null>;
  /** Allocation per AZ/aggregate per snapshot, oldest first, the last 90 days at least. */
  snapshotSeries(db: PrismaClient): Promise<AllocationPoint[]>;
}

/** Runway fits the last 90 days; a little more lets the window start on a snapshot. */
const SERIES_DAYS = 120;

export const DEFAULT_PROVIDERS: MetricsProviders = {
  async syncStats(db) {
    const [newest, last, syncsTotal, failuresTotal, agreement] = await Promise.all([
      db.historySnapshot.findFirst({ orderBy: [{ takenAt: "desc" }, { id: "desc" }], select: { takenAt: true } }),
      db.syncRun.findFirst({
        where: { finishedAt: { not: null } },
        orderBy: { startedAt: "desc" },
        select: { startedAt: true, finishedAt: true },
      }),
      db.syncRun.count(),
      db.syncRun.count({ where: { status: "failed" } }),
      storedAgreement(db),
    ]);
    if (!newest && syncsTotal === 0) return null;
    const compared = agreement.reduce((n, a) => n + a.compared, 0);
    return {
      lastSnapshotAt: newest?.takenAt ?? null,
      lastDurationSeconds: last?.finishedAt ? (last.finishedAt.getTime() - last.startedAt.getTime()) / 1000 : null,
      syncsTotal,
      failuresTotal,
      predictions: compared ? { compared, agreed: agreement.reduce((n, a) => n + a.agreed, 0) } : null,
    };
  },
  async snapshotSeries(db) {
    const since = Date.now() - SERIES_DAYS * 86_400_000;
    const snapshots = (await listSnapshots(db)).filter((s) => s.takenAt.getTime() >= since).reverse();
    return snapshots.flatMap((s) =>
      s.usage.map((u) => ({
        at: s.takenAt,
        az: u.az,
        aggregate: "",
        allocated: { VCPU: u.vcpus_used, MEMORY_MB: u.memory_mb_used, DISK_GB: u.local_gb_used },
      })),
    );
  },
};

const current = processSingleton("metrics-providers", () => ({ providers: DEFAULT_PROVIDERS }));

export function setMetricsProviders(p: Partial<MetricsProviders>): void {
  current.providers = { ...current.providers, ...p };
}

export function metricsProviders(): MetricsProviders {
  return current.providers;
}
