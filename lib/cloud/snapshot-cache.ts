/**
 * The engine's snapshot kept in memory per server process. Reading a
 * 10,000-host cloud takes a few hundred ms; checking the cloud's revision
 * (lib/cloud/revision.ts) takes well under one. A request reads the revision
 * and reuses the snapshot loaded at that revision, else loads it again.
 * Every process checks the database's counter, so a write made by another
 * process is never missed.
 *
 * The cached scenario is shared by concurrent requests and deeply frozen:
 * the engine builds its own HostStates from it and never writes back.
 */
import { processSingleton } from "@/lib/process-singleton";
import type { PrismaClient } from "@/lib/db/client";
import { freezeScenario } from "../scheduler/scenario";
import { readCloudRevision } from "./revision";
import { loadSnapshot, type LoadedSnapshot, type SnapshotOptions } from "./snapshot";

export interface CachedSnapshot extends LoadedSnapshot {
  /** true when the snapshot came from memory (loadMs is then the revision check) */
  cached: boolean;
}

/** Per database client: the revision held and its snapshots per profile asked for. */
interface Entry {
  revision: number;
  byProfile: Map<string, LoadedSnapshot>;
}

const entries = processSingleton("snapshots", () => new WeakMap<PrismaClient, Entry>());

// The active profile is asked for with no name.
const keyOf = (opts: SnapshotOptions) => (opts.profileName === undefined ? "" : `=${opts.profileName}`);

/** loadSnapshot, from memory when the cloud has not changed since it was loaded. */
export async function loadSnapshotCached(db: PrismaClient, opts: SnapshotOptions = {}): Promise<CachedSnapshot> {
  const t0 = performance.now();
  const revision = await readCloudRevision(db);
  const entry = entries.get(db);
  const hit = entry?.revision === revision ? entry.byProfile.get(keyOf(opts)) : undefined;
  if (hit) return { ...hit, loadMs: performance.now() - t0, cached: true };
  const snap = await loadSnapshot(db, opts);
  // Shared by every request from now on: frozen, so nothing can change it,
  // and so the engine may keep what it derives from each host (host-state.ts).
  freezeScenario(snap.scenario);
  // Keep only the newest revision (a slower request may finish with an older one).
  let current = entries.get(db);
  if (!current || current.revision < snap.revision) {
    current = { revision: snap.revision, byProfile: new Map() };
    entries.set(db, current);
  }
  if (current.revision === snap.revision) current.byProfile.set(keyOf(opts), snap);
  return { ...snap, loadMs: performance.now() - t0, cached: false };
}

/** Forget every cached snapshot (tests). */
export function clearSnapshotCache(db: PrismaClient): void {
  entries.delete(db);
}
