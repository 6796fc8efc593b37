/**
 * The cloud's history: every import (a bundle, a sync, a scenario file)
 * records a snapshot of the cloud as it exported right after the write, in
 * the import's own transaction.
 *
 * Storage is content-addressed: the export is cut into records (each host,
 * aggregate, server group, flavor, image, each run of instances on one host,
 * and the rest), each stored once in HistoryRecord under its digest; a
 * snapshot (HistorySnapshot) is the manifest of its records' digests. A day
 * on which 1 % of the hosts changed adds their records and one manifest, not
 * a copy of the cloud. Loading a snapshot reassembles the export exactly
 * (exportCloud's bytes).
 */
import { createHash } from "node:crypto";
import type { PrismaClient, Tx } from "@/lib/db/client";
import { bulkInsert, type ExportedCloud, exportCloud } from "@/lib/cloud/scenario-io";
import { sortKeysDeep, stableStringify } from "@/lib/scenario/json";
import { type AzUsage, usagePerAz } from "./diff";

type Db = PrismaClient | Tx;

export const SNAPSHOT_SOURCES = ["sync", "bundle", "scenario"] as const;
export type SnapshotSource = (typeof SNAPSHOT_SOURCES)[number];

/** What an import says about the snapshot it records. */
export interface SnapshotMeta {
  source: SnapshotSource;
  /** who started it: a user's name, or the OS user running a CLI */
  startedBy: string;
  /** when the cloud was in this state (default: now); an old bundle's collection time */
  at?: Date;
  /** the file or the cloud it came from */
  label?: string;
}

/** The lists of an export that are cut into one record per entry, in the export's order. */
export const LISTS = ["hosts", "aggregates", "server_groups", "flavors", "images"] as const;
type ListKey = (typeof LISTS)[number];

export type Manifest = { top: string; instances: string[] } & Record<ListKey, string[]>;

export interface SnapshotCounts {
  hosts: number;
  aggregates: number;
  serverGroups: number;
  flavors: number;
  images: number;
  instances: number;
}

export interface SnapshotRow {
  id: number;
  takenAt: Date;
  recordedAt: Date;
  source: string;
  startedBy: string;
  label: string | null;
  profileName: string | null;
  counts: SnapshotCounts;
  digest: string;
  bytes: number;
  addedBytes: number;
  /** usage per availability zone at that moment (the page's chart over time) */
  usage: AzUsage[];
}

/** At most this many instances per record (instances on no host come in such runs). */
const INSTANCES_PER_RECORD = 256;
/** Digests per IN (...) query: well under both databases' bind limits. */
const DIGESTS_PER_QUERY = 5000;

function digestOf(kind: string, json: string): string {
  // 132 bits of sha256: a collision among a history's records is not a practical concern
  return createHash("sha256").update(kind).update("\n").update(json).digest("base64url").slice(0, 22);
}

/** Compact JSON with sorted keys: the form records are stored and digested in. */
function compact(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value));
}

/** The export cut into records: the manifest, and every record by digest. */
export function splitExport(doc: ExportedCloud): {
  manifest: Manifest;
  records: Map<string, { kind: string; json: string }>;
} {
  const records = new Map<string, { kind: string; json: string }>();
  const put = (kind: string, value: unknown) => {
    const json = compact(value);
    const digest = digestOf(kind, json);
    records.set(digest, { kind, json });
    return digest;
  };
  const d = doc as unknown as Record<string, unknown>;
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d))
    if (!(LISTS as readonly string[]).includes(k) && k !== "instances") rest[k] = v;
  const manifest = { top: put("top", rest) } as Manifest;
  for (const key of LISTS) manifest[key] = ((d[key] as unknown[] | undefined) ?? []).map((e) => put(key, e));
  // instances: runs of consecutive entries on one host, so a host's change touches its own run only
  const hostOf = new Map<string, string>();
  for (const h of doc.hosts) for (const u of h.instances ?? []) hostOf.set(u, `${h.name}/${h.node ?? ""}`);
  manifest.instances = [];
  let run: unknown[] = [];
  let runHost: string | undefined;
  for (const i of doc.instances ?? []) {
    const host = hostOf.get(String(i.uuid)) ?? "";
    if (run.length && (host !== runHost || run.length >= INSTANCES_PER_RECORD)) {
      manifest.instances.push(put("instances", run));
      run = [];
    }
    runHost = host;
    run.push(i);
  }
  if (run.length) manifest.instances.push(put("instances", run));
  if (doc.instances === undefined) (manifest as { noInstances?: true }).noInstances = true;
  return { manifest, records };
}

/** The export again, from a manifest and its records' JSON. */
export function joinRecords(manifest: Manifest, json: (digest: string) => string): ExportedCloud {
  const out = JSON.parse(json(manifest.top)) as Record<string, unknown>;
  for (const key of LISTS) out[key] = manifest[key].map((d) => JSON.parse(json(d)));
  if (!(manifest as { noInstances?: true }).noInstances)
    out.instances = manifest.instances.flatMap((d) => JSON.parse(json(d)) as unknown[]);
  return out as unknown as ExportedCloud;
}

export function countsOf(doc: ExportedCloud): SnapshotCounts {
  return {
    hosts: doc.hosts.length,
    aggregates: doc.aggregates?.length ?? 0,
    serverGroups: doc.server_groups?.length ?? 0,
    flavors: doc.flavors?.length ?? 0,
    images: doc.images?.length ?? 0,
    instances: doc.hosts.reduce((n, h) => n + (h.instances?.length ?? 0), 0) + unhosted(doc),
  };
}

function unhosted(doc: ExportedCloud): number {
  const placed = new Set(doc.hosts.flatMap((h) => h.instances ?? []));
  return (doc.instances ?? []).filter((i) => !placed.has(String(i.uuid))).length;
}

/** sha256 (hex) of the export's bytes: equal digests, equal clouds. */
export function exportDigest(doc: ExportedCloud): string {
  return createHash("sha256").update(stableStringify(doc)).digest("hex");
}

async function existingDigests(db: Db, digests: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < digests.length; i += DIGESTS_PER_QUERY) {
    const rows = await db.historyRecord.findMany({
      where: { digest: { in: digests.slice(i, i + DIGESTS_PER_QUERY) } },
      select: { digest: true },
    });
    for (const r of rows) found.add(r.digest);
  }
  return found;
}

/**
 * Store `doc` as a snapshot (call inside the import's transaction): the
 * records no snapshot has yet, then the manifest; then the retention rule.
 */
export async function storeSnapshot(
  tx: Db,
  doc: ExportedCloud,
  meta: SnapshotMeta & { profileName?: string | null },
): Promise<SnapshotRow> {
  const { manifest, records } = splitExport(doc);
  const have = await existingDigests(tx, [...records.keys()]);
  const fresh = [...records].filter(([d]) => !have.has(d));
  await bulkInsert(
    tx as Tx,
    "HistoryRecord",
    fresh.map(([digest, r]) => ({ digest, kind: r.kind, json: r.json })),
  );
  const manifestJson = JSON.stringify(manifest);
  const addedBytes = manifestJson.length + fresh.reduce((n, [, r]) => n + r.json.length, 0);
  const counts = countsOf(doc);
  const row = await tx.historySnapshot.create({
    data: {
      takenAt: meta.at ?? new Date(),
      source: meta.source,
      startedBy: meta.startedBy,
      label: meta.label ?? null,
      profileName: meta.profileName ?? null,
      counts: JSON.stringify({ ...counts, usage: [...usagePerAz(doc).values()] }),
      digest: exportDigest(doc),
      bytes: Buffer.byteLength(compact(doc)),
      addedBytes,
      manifest: manifestJson,
    },
  });
  await applyRetention(tx);
  return toRow(row);
}

/** Export the cloud as it is in `tx` and store it as a snapshot. */
export async function recordSnapshot(tx: Db, meta: SnapshotMeta): Promise<SnapshotRow> {
  const doc = await exportCloud(tx);
  const active = await tx.schedulerProfile.findFirst({ where: { active: true }, select: { name: true } });
  return storeSnapshot(tx, doc, { ...meta, profileName: active?.name ?? null });
}

type RawRow = Omit<SnapshotRow, "counts" | "usage"> & { counts: string };

function toRow(r: RawRow & { manifest?: string; predictions?: string | null }): SnapshotRow {
  const { manifest: _m, predictions: _p, ...rest } = r;
  const { usage = [], ...counts } = JSON.parse(r.counts) as SnapshotCounts & { usage?: AzUsage[] };
  return { ...rest, counts, usage };
}

const LIST_SELECT = {
  id: true,
  takenAt: true,
  recordedAt: true,
  source: true,
  startedBy: true,
  label: true,
  profileName: true,
  counts: true,
  digest: true,
  bytes: true,
  addedBytes: true,
} as const;

/** Newest first (by the time the cloud was in that state, then by id). */
export async function listSnapshots(db: Db, opts: { limit?: number } = {}): Promise<SnapshotRow[]> {
  const rows = await db.historySnapshot.findMany({
    select: LIST_SELECT,
    orderBy: [{ takenAt: "desc" }, { id: "desc" }],
    take: opts.limit,
  });
  return rows.map(toRow);
}

export async function getSnapshot(db: Db, id: number): Promise<SnapshotRow | null> {
  const row = await db.historySnapshot.findUnique({ where: { id }, select: LIST_SELECT });
  return row && toRow(row);
}

/** The snapshot taken just before `id` (null: it is the oldest). */
export async function previousSnapshot(db: Db, id: number): Promise<SnapshotRow | null> {
  const s = await getSnapshot(db, id);
  if (!s) return null;
  const row = await db.historySnapshot.findFirst({
    where: { OR: [{ takenAt: { lt: s.takenAt } }, { takenAt: s.takenAt, id: { lt: id } }] },
    orderBy: [{ takenAt: "desc" }, { id: "desc" }],
    select: LIST_SELECT,
  });
  return row && toRow(row);
}

export class SnapshotNotFoundError extends Error {
  constructor(readonly id: number) {
    super(`snapshot #${id} does not exist (see the history)`);
  }
}

/** The cloud as it was at snapshot `id`: the export of that moment, byte for byte. */
export async function loadSnapshotDoc(db: Db, id: number): Promise<ExportedCloud> {
  const row = await db.historySnapshot.findUnique({ where: { id }, select: { manifest: true } });
  if (!row) throw new SnapshotNotFoundError(id);
  const manifest = JSON.parse(row.manifest) as Manifest;
  const wanted = [manifest.top, ...LISTS.flatMap((k) => manifest[k]), ...manifest.instances];
  const json = new Map<string, string>();
  const unique = [...new Set(wanted)];
  for (let i = 0; i < unique.length; i += DIGESTS_PER_QUERY) {
    const rows = await db.historyRecord.findMany({
      where: { digest: { in: unique.slice(i, i + DIGESTS_PER_QUERY) } },
      select: { digest: true, json: true },
    });
    for (const r of rows) json.set(r.digest, r.json);
  }
  return joinRecords(manifest, (d) => {
    const j = json.get(d);
    if (j === undefined) throw new Error(`snapshot #${id}: record ${d} is missing from the history`);
    return j;
  });
}

// ---------------------------------------------------------------------------
// Retention

export interface RetentionPolicy {
  /** keep at most this many snapshots (the newest) */
  maxSnapshots: number;
  /** drop snapshots older than this many days (null: no age limit) */
  maxAgeDays: number | null;
}

export const DEFAULT_RETENTION: RetentionPolicy = { maxSnapshots: 400, maxAgeDays: null };
const RETENTION_KEY = "history.retention";

export async function readRetention(db: Db): Promise<RetentionPolicy> {
  const row = await db.appSetting.findUnique({ where: { key: RETENTION_KEY } });
  return row ? { ...DEFAULT_RETENTION, ...(JSON.parse(row.value) as Partial<RetentionPolicy>) } : DEFAULT_RETENTION;
}

/** The retention rule's fields, each checked: `field: rule (got X)`; empty when valid. */
export function checkRetention(p: Partial<Record<keyof RetentionPolicy, unknown>>): string[] {
  const errors: string[] = [];
  if (p.maxSnapshots !== undefined && !(Number.isInteger(p.maxSnapshots) && Number(p.maxSnapshots) >= 1))
    errors.push(`maxSnapshots: must be a whole number of at least 1 (got ${JSON.stringify(p.maxSnapshots)})`);
  if (
    p.maxAgeDays !== undefined &&
    p.maxAgeDays !== null &&
    !(Number.isInteger(p.maxAgeDays) && Number(p.maxAgeDays) >= 1)
  )
    errors.push(`maxAgeDays: must be a whole number of at least 1, or none (got ${JSON.stringify(p.maxAgeDays)})`);
  return errors;
}

/** Save the rule and apply it at once (what it drops is gone). */
export async function saveRetention(db: Db, p: Partial<RetentionPolicy>): Promise<{ dropped: number }> {
  const errors = checkRetention(p);
  if (errors.length) throw new Error(errors.join("; "));
  const value = JSON.stringify({ ...(await readRetention(db)), ...p });
  await db.appSetting.upsert({
    where: { key: RETENTION_KEY },
    create: { key: RETENTION_KEY, value },
    update: { value },
  });
  return applyRetention(db);
}

/**
 * Drop the snapshots the rule no longer keeps (never the newest one), then
 * the records no remaining snapshot names.
 */
export async function applyRetention(db: Db, now: Date = new Date()): Promise<{ dropped: number }> {
  const policy = await readRetention(db);
  const all = await db.historySnapshot.findMany({
    select: { id: true, takenAt: true },
    orderBy: [{ takenAt: "desc" }, { id: "desc" }],
  });
  const cutoff = policy.maxAgeDays === null ? null : now.getTime() - policy.maxAgeDays * 86_400_000;
  const drop = all
    .filter((s, i) => i > 0 && (i >= policy.maxSnapshots || (cutoff !== null && s.takenAt.getTime() < cutoff)))
    .map((s) => s.id);
  if (drop.length === 0) return { dropped: 0 };
  await db.historySnapshot.deleteMany({ where: { id: { in: drop } } });
  // records still named by a kept manifest stay
  const kept = await db.historySnapshot.findMany({ select: { manifest: true } });
  const live = new Set<string>();
  for (const k of kept) {
    const m = JSON.parse(k.manifest) as Manifest;
    live.add(m.top);
    for (const key of LISTS) for (const d of m[key]) live.add(d);
    for (const d of m.instances) live.add(d);
  }
  const stored = await db.historyRecord.findMany({ select: { digest: true } });
  const dead = stored.map((r) => r.digest).filter((d) => !live.has(d));
  for (let i = 0; i < dead.length; i += DIGESTS_PER_QUERY)
    await db.historyRecord.deleteMany({ where: { digest: { in: dead.slice(i, i + DIGESTS_PER_QUERY) } } });
  return { dropped: drop.length };
}

/** Bytes the history holds: records and manifests (what thirty snapshots really cost). */
export async function historyBytes(db: Db): Promise<{ records: number; manifests: number; snapshots: number }> {
  const snaps = await db.historySnapshot.findMany({ select: { manifest: true } });
  const recs = await db.historyRecord.findMany({ select: { json: true } });
  return {
    records: recs.reduce((n, r) => n + r.json.length, 0),
    manifests: snaps.reduce((n, s) => n + s.manifest.length, 0),
    snapshots: snaps.length,
  };
}
