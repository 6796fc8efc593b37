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
import { requestFromDb } from "@/lib/cloud/import-export";
import type { PrismaClient } from "@/lib/db-client";
import { prepareRun } from "./schedule";

/** Flavors are scheduled in name order until this much time has gone. */
const BUDGET_MS = 1500;

/** Returns how many flavors were scheduled and in how long (ms). */
export async function primeServer(db: PrismaClient): Promise<{ flavors: number; ms: number }> {
  const t0 = performance.now();
  const flavors = await db.flavor.findMany({ orderBy: { name: "asc" }, select: { name: true } });
  let done = 0;
  for (const { name } of flavors) {
    if (performance.now() - t0 > BUDGET_MS) break;
    await prepareRun(db, await requestFromDb(db, { flavor: name }));
    done++;
  }
  return { flavors: done, ms: performance.now() - t0 };
}
