/**
 * Prime a server process at start (instrumentation.ts): load the cloud's
 * snapshot into the process's cache and schedule the flavors on it, so the
 * operator's first Schedule click finds the snapshot in memory and runs
 * engine code that has already met this cloud's hosts. The warm-up on a
 * synthetic cloud (lib/scheduler/warm-up.ts) compiles the engine, but V8
 * drops part of that code the first time real hosts reach it (their
 * aggregates, metrics, instance lists, host counts); that first time is
 * here, not in a click. Nothing is stored.
 */
import "server-only";
import { requestFromDb } from "@/lib/cloud/scenario-io";
import type { PrismaClient } from "@/lib/db/client";
import { prepareRun } from "./schedule";

/** After the first request (which reads the cloud), flavors are scheduled in name order, round after round, for this long. */
const BUDGET_MS = 1500;

/**
 * Returns how many requests were scheduled and in how long (ms). V8 settles
 * the engine's code over several requests on a cloud (about four at 10,000
 * hosts before a click ran at its warm speed; more where Placement searches
 * provider trees), so the flavors go round again while the budget lasts.
 * The budget starts once the first request has read the cloud into memory,
 * which on a large cloud takes longer than the budget itself. The server
 * waits for this before serving: the budget bounds it (past it, only the
 * request under way finishes), and a flavor that cannot be scheduled is
 * passed over.
 */
export async function primeServer(db: PrismaClient): Promise<{ requests: number; ms: number }> {
  const t0 = performance.now();
  const flavors = await db.flavor.findMany({ orderBy: { name: "asc" }, select: { name: true } });
  let done = 0;
  let loaded: number | null = null;
  for (let i = 0; flavors.length && (loaded === null || performance.now() - loaded < BUDGET_MS); i++) {
    if (i === flavors.length && !done) break; // a whole round and nothing could be scheduled
    try {
      await prepareRun(db, await requestFromDb(db, { flavor: flavors[i % flavors.length].name }));
      done++;
    } catch {
      // (the same flavor fails the same way when a user asks for it, with the message the form shows)
    }
    loaded ??= performance.now();
  }
  return { requests: done, ms: performance.now() - t0 };
}
