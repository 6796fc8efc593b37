/**
 * What /metrics reads from the parts of Schedscope that keep a cloud in
 * step with the real one (sync) and remember it (snapshot history). Those
 * land separately; until then the defaults below say what exists today:
 * no sync has run and no history is kept, and the series that need them
 * are left out rather than made up.
 *
 * To plug them in, call setMetricsProviders({...}) once per process (e.g.
 * from instrumentation.ts, or from the sync and history modules when they
 * load) with functions reading their tables.
 */
import { processSingleton } from "@/lib/process-singleton";
import type { PrismaClient } from "@/lib/db/client";

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

export const DEFAULT_PROVIDERS: MetricsProviders = {
  // no sync exists yet: nothing to report
  syncStats: async () => null,
  // no snapshot history is kept yet: runway says so instead of forecasting
  snapshotSeries: async () => [],
};

const current = processSingleton("metrics-providers", () => ({ providers: DEFAULT_PROVIDERS }));

export function setMetricsProviders(p: Partial<MetricsProviders>): void {
  current.providers = { ...current.providers, ...p };
}

export function metricsProviders(): MetricsProviders {
  return current.providers;
}
