/**
 * Parsed results of recent runs, kept in memory: the API route pages through
 * them (weighed table, why-not list, host search) without parsing tens of MB
 * of stored JSON on every request. A run's result never changes once stored,
 * so entries never go stale; the least recently used one is dropped first.
 * On globalThis so that every route bundle of the server shares one cache.
 */
import { processSingleton } from "@/lib/process-singleton";
import "server-only";
import type { PrismaClient } from "@/lib/db/client";
import type { ScheduleResult } from "@/lib/scheduler/result";
import type { ScenarioRequest } from "@/lib/scheduler/scenario";
import { getRunText } from "./queries";
import { buildFateIndex, type FateIndex } from "./view";

export interface CachedRun {
  result: ScheduleResult;
  request?: ScenarioRequest;
  fates?: FateIndex;
  /** rough size: hosts × instances */
  weight: number;
}

/** Hosts × instances kept at most (a 10,000-host run of 5 instances is 50,000). */
const BUDGET = 200_000;

const cache = processSingleton("run-cache", () => new Map<number, CachedRun>());

function weightOf(result: ScheduleResult): number {
  return (
    result.requests.reduce((s, r) => s + r.weighed.length + r.funnel.reduce((t, f) => t + (f.in - f.out), 0), 0) + 1
  );
}

export function rememberRun(id: number, result: ScheduleResult, request?: ScenarioRequest): CachedRun {
  const entry: CachedRun = { result, request, weight: weightOf(result) };
  cache.delete(id);
  cache.set(id, entry);
  let total = 0;
  for (const e of cache.values()) total += e.weight;
  for (const [k, e] of cache) {
    if (total <= BUDGET || cache.size <= 1) break;
    cache.delete(k);
    total -= e.weight;
  }
  return entry;
}

/** The run's parsed result (from memory, else from the database), or null when there is no such run. */
export async function loadRun(db: PrismaClient, id: number): Promise<CachedRun | null> {
  const hit = cache.get(id);
  if (hit) {
    cache.delete(id);
    cache.set(id, hit);
    return hit;
  }
  const [text, req] = await Promise.all([getRunText(db, id, "result"), getRunText(db, id, "request")]);
  if (text === null) return null;
  return rememberRun(id, JSON.parse(text) as ScheduleResult, req ? (JSON.parse(req) as ScenarioRequest) : undefined);
}

export function fatesOf(entry: CachedRun): FateIndex {
  return (entry.fates ??= buildFateIndex(entry.result));
}
