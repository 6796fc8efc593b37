/**
 * /metrics from memory: computed once per cloud revision, in the
 * background, and kept per server process.
 *
 * A scrape reads the revision (one indexed row); when the cloud changed it
 * starts the recompute and answers at once with the previous body, saying
 * its age and that it is stale. Only the very first scrape of a process,
 * with nothing computed yet, waits (up to FIRST_WAIT_MS) and then answers
 * with what is done so far (flavors are published one by one), marked
 * incomplete. After a sync, call refreshMetrics() to compute before the
 * next scrape asks.
 *
 * The snapshot's part of the body (thousands of series at 10,000 hosts) is
 * rendered once when computed; a scrape renders only the few per-scrape
 * lines (ages) in front of it.
 */
import type { PrismaClient } from "@/lib/db/client";
import { readCloudRevision } from "@/lib/cloud/revision";
import { processSingleton } from "@/lib/process-singleton";
import { exportCloud } from "@/lib/cloud/scenario-io";
import { type CapacityMetrics, computeCapacityMetrics, hostLossByZone, type MetricsCloud } from "./compute";
import { renderScrapeHeader, renderSnapshot } from "./exposition";
import { metricsProviders } from "./providers";
import { type FlavorRunway, flavorRunways, historyDays, runwaySamples } from "./runway";

export const FIRST_WAIT_MS = 5_000;
/** The host-loss sweep's time per snapshot (it is minutes at 10,000 busy hosts); see compute.ts hostLossByZone. */
export const HOST_LOSS_BUDGET_MS = Number(process.env.SCHEDSCOPE_HOST_LOSS_BUDGET_MS ?? 60_000);

export interface Computed {
  revision: number;
  /** When the computation finished (or published this part), ms since the epoch. */
  at: number;
  computeMs: number | null;
  complete: boolean;
  body: string;
  metrics: CapacityMetrics;
  runways: FlavorRunway[];
  historyDays: number;
  cloud: MetricsCloud;
}

interface Entry {
  latest: Computed | null;
  running: { revision: number; promise: Promise<void> } | null;
  lastError: string | null;
}

const entries = processSingleton("metrics-cache", () => new WeakMap<PrismaClient, Entry>());

function entryOf(db: PrismaClient): Entry {
  let e = entries.get(db);
  if (!e) entries.set(db, (e = { latest: null, running: null, lastError: null }));
  return e;
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function compute(db: PrismaClient, entry: Entry, revision: number): Promise<void> {
  const t0 = performance.now();
  const cloud = (await exportCloud(db)) as unknown as MetricsCloud;
  const history = await metricsProviders()
    .snapshotSeries(db)
    .catch(() => []);
  const days = historyDays(history);
  const publish = (metrics: CapacityMetrics, complete: boolean, runways: FlavorRunway[] = []) => {
    // a newer revision already published wins
    if (entry.latest && entry.latest.revision > revision) return;
    entry.latest = {
      revision,
      at: Date.now(),
      computeMs: complete ? performance.now() - t0 : null,
      complete,
      body: renderSnapshot(metrics, runways.length ? runwaySamples(runways) : null),
      metrics,
      runways,
      historyDays: days,
      cloud,
    };
  };
  const hadPrevious = entry.latest !== null;
  const metrics = await computeCapacityMetrics(cloud, {
    // with nothing to serve yet, publish each flavor as it is done
    onFlavor: hadPrevious
      ? undefined
      : (done) =>
          publish(
            { flavors: done, hypervisors: [], stranded: {}, hostLoss: null, computeMs: performance.now() - t0 },
            false,
          ),
    yieldEvery: nextTick,
  });
  const runways = flavorRunways(cloud, metrics, history);
  if (!hadPrevious) publish(metrics, false, runways);
  await nextTick();
  metrics.hostLoss = await hostLossByZone(cloud, metrics.hypervisors, {
    budgetMs: HOST_LOSS_BUDGET_MS,
    pause: nextTick,
  });
  publish(metrics, true, runways);
}

/** Start computing the current revision unless it is computed or under way; resolves when done. */
export async function refreshMetrics(db: PrismaClient): Promise<void> {
  const entry = entryOf(db);
  const revision = await readCloudRevision(db);
  if (entry.latest?.revision === revision && entry.latest.complete) return;
  if (entry.running?.revision === revision) return entry.running.promise;
  const promise = (async () => {
    // one computation at a time per process: wait for the one under way
    while (entry.running && entry.running.revision !== revision) await entry.running.promise.catch(() => undefined);
    try {
      await compute(db, entry, revision);
      entry.lastError = null;
    } catch (e) {
      entry.lastError = (e as Error).message;
      throw e;
    } finally {
      if (entry.running?.revision === revision) entry.running = null;
    }
  })();
  entry.running = { revision, promise };
  return promise;
}

/** The latest computed metrics of this process (the /capacity page's runway reads them too). */
export function latestMetrics(db: PrismaClient): Computed | null {
  return entries.get(db)?.latest ?? null;
}

/** The text a scrape returns. Never waits for a recompute when something was computed before. */
export async function scrapeMetrics(db: PrismaClient, now: () => number = Date.now): Promise<string> {
  const entry = entryOf(db);
  const revision = await readCloudRevision(db);
  const fresh = entry.latest?.revision === revision && entry.latest.complete;
  if (!fresh && entry.running?.revision !== revision) {
    // In the background, once this answer is on its way (the fill runs on this
    // thread, in slices); a failure is kept in lastError, not thrown here.
    if (entry.latest) setTimeout(() => refreshMetrics(db).catch(() => undefined), 20);
    else refreshMetrics(db).catch(() => undefined);
  }
  if (!entry.latest && entry.running) {
    await Promise.race([
      entry.running.promise.catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, FIRST_WAIT_MS)),
    ]);
  }
  const latest = entry.latest;
  const sync = await metricsProviders()
    .syncStats(db)
    .catch(() => null);
  const header = renderScrapeHeader({
    cacheAgeSeconds: latest ? (now() - latest.at) / 1000 : 0,
    stale: !latest || latest.revision !== revision,
    complete: !!latest?.complete,
    revision: latest?.revision ?? revision,
    computeSeconds: latest?.computeMs != null ? latest.computeMs / 1000 : null,
    snapshotAgeSeconds: sync?.lastSnapshotAt ? (now() - sync.lastSnapshotAt.getTime()) / 1000 : null,
    sync,
    historyDays: latest?.historyDays ?? 0,
  });
  return header + (latest?.body ?? "");
}

/** Forget this database's metrics (tests). */
export function clearMetricsCache(db: PrismaClient): void {
  entries.delete(db);
}
