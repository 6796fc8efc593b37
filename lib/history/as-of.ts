/**
 * The cloud "as of" an older snapshot, as the engine reads it: that moment's
 * hosts, aggregates and server groups with today's profile (the one named,
 * else the active one), so a trial, a capacity fill or a what-if asks "what
 * would Nova have answered then, with this configuration". Snapshots never
 * change, so the few last loaded are kept in memory.
 *
 * Its revision is the snapshot's id negated: never a live revision, so a run
 * made as of a snapshot is stored with that cloud, and its commit is refused
 * as made on another cloud than today's.
 */
import { ProfileNotFoundError, type LoadedSnapshot, type SnapshotOptions } from "@/lib/cloud/snapshot";
import type { PrismaClient } from "@/lib/db/client";
import { processSingleton } from "@/lib/process-singleton";
import type { ExportedCloud } from "@/lib/cloud/scenario-io";
import { freezeScenario, type ScenarioConfig } from "@/lib/scheduler/scenario";
import { loadSnapshotDoc } from "./store";

const KEEP = 3;
/** Per database client: the last few snapshots asked for (ids are per database). */
const perDb = processSingleton("history-docs", () => new WeakMap<PrismaClient, Map<number, Promise<ExportedCloud>>>());

/** A snapshot's export, from memory when one of the last few asked for. */
export function loadSnapshotDocCached(db: PrismaClient, id: number): Promise<ExportedCloud> {
  let docs = perDb.get(db);
  if (!docs) {
    docs = new Map();
    perDb.set(db, docs);
  }
  const key = id;
  const hit = docs.get(key);
  if (hit) {
    docs.delete(key);
    docs.set(key, hit);
    return hit;
  }
  const p = loadSnapshotDoc(db, id);
  docs.set(key, p);
  p.catch(() => docs.delete(key));
  while (docs.size > KEEP) docs.delete(docs.keys().next().value as number);
  return p;
}

/** Forget the kept snapshots of a database (tests). */
export function clearAsOfCache(db?: PrismaClient): void {
  if (db) perDb.delete(db);
}

export async function loadSnapshotAsOf(
  db: PrismaClient,
  id: number,
  opts: SnapshotOptions = {},
): Promise<LoadedSnapshot> {
  const t0 = performance.now();
  const doc = await loadSnapshotDocCached(db, id);
  const profile =
    opts.profileName !== undefined
      ? await db.schedulerProfile.findUnique({
          where: { name: opts.profileName },
          select: { name: true, config: true },
        })
      : await db.schedulerProfile.findFirst({ where: { active: true }, select: { name: true, config: true } });
  if (opts.profileName !== undefined && !profile) throw new ProfileNotFoundError(opts.profileName);
  const scenario: LoadedSnapshot["scenario"] = {
    hosts: doc.hosts,
    aggregates: doc.aggregates,
    server_groups: doc.server_groups,
  };
  if (profile)
    scenario.config = { ...(JSON.parse(profile.config) as ScenarioConfig), not_simulated: "pass" } as ScenarioConfig;
  // shared by every request that asks for this snapshot: frozen, as the live snapshot is
  freezeScenario(scenario);
  return { scenario, profileName: profile?.name ?? null, revision: -id, loadMs: performance.now() - t0 };
}

/** A snapshot as an "As of" field offers it. */
export interface SnapshotChoice {
  id: number;
  label: string;
}

/** The newest snapshots, for the "As of" fields of the trial and capacity forms. */
export async function snapshotChoices(db: PrismaClient, limit = 50): Promise<SnapshotChoice[]> {
  const rows = await db.historySnapshot.findMany({
    select: { id: true, takenAt: true, source: true },
    orderBy: [{ takenAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map((r) => ({
    id: r.id,
    label: `#${r.id} · ${r.takenAt.toISOString().slice(0, 16).replace("T", " ")} UTC · ${r.source}`,
  }));
}
