/**
 * A sync: the cloud's APIs -> a Bundle (lib/openstack-api) -> the bundle
 * import's own prepare and apply (lib/openstack/import.ts), under the
 * one-sync lease, recorded as a SyncRun with its progress. A sync that fails
 * anywhere (unreachable, 401, 403, 5xx, timeout, malformed JSON, a document
 * the converter refuses) writes nothing to the cloud: the previous one stays
 * whole, and the run says what failed.
 */
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { ApiError, type FetchLike } from "@/lib/openstack-api/http";
import { type CollectProgress, collectBundle } from "@/lib/openstack-api/collect";
import type { CloudSettings } from "@/lib/openstack-api/keystone";
import { applyImport, prepareBundle } from "@/lib/openstack/import";
import { predictionsOf } from "@/lib/history/queries";
import { CloudValidationError } from "@/lib/cloud/scenario-io";
import { fetchFor } from "./connections";
import { takeLease } from "./lock";

export interface SyncActor {
  userId: string | null;
  userName: string;
  role: string;
}

export interface SyncProgress {
  step: CollectProgress["step"] | "converting" | "validating" | "writing" | "done";
  done?: number;
  total?: number;
  detail?: string;
}

export interface SyncResult {
  runId: number;
  hosts: number;
  aggregates: number;
  flavors: number;
  images: number;
  serverGroups: number;
  instances: number;
  requests: number;
  seconds: number;
  microversions: { compute: string; placement: string };
  notes: string[];
  warnings: string[];
}

export class SyncFailed extends Error {
  constructor(
    message: string,
    readonly runId: number | null,
    /** what kind of failure, for the page and the CLI */
    readonly kind: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

export interface SyncOptions {
  connectionName: string;
  connectionId?: number | null;
  settings: CloudSettings;
  actor: SyncActor;
  /** who started it, as history records it: a user name, "schedule", "cli:USER" */
  startedBy: string;
  fetch?: FetchLike;
  concurrency?: number;
  timeoutMs?: number;
  onProgress?: (p: SyncProgress) => void;
}

/** Plain words for what failed; never a token, never a password. */
function failureOf(e: unknown): { message: string; kind: string; details: string[] } {
  if (e instanceof ApiError) {
    const hint =
      e.status === 401
        ? " — the credentials were refused"
        : e.status === 403
          ? " — the user lacks the admin role this read needs"
          : "";
    return { message: `${e.message}${hint}; nothing was written, the previous cloud stays`, kind: e.kind, details: [] };
  }
  if (e instanceof CloudValidationError)
    return {
      message: `the cloud's answers do not make a valid cloud (${e.errors.length} problem(s)); nothing was written, the previous cloud stays`,
      kind: "invalid",
      details: e.errors.slice(0, 50),
    };
  return {
    message: `${(e as Error)?.message ?? String(e)}; nothing was written, the previous cloud stays`,
    kind: "error",
    details: [],
  };
}

export async function runSync(db: Db, opts: SyncOptions): Promise<SyncResult> {
  const started = new Date();
  const lease = await takeLease(
    db,
    `"${opts.connectionName}" started by ${opts.startedBy} at ${started.toISOString()}`,
  );
  const heartbeat = setInterval(() => void lease.renew().catch(() => {}), 20_000);
  heartbeat.unref?.();
  let runId: number | null = null;
  let lastWrite = 0;
  let pending: Promise<unknown> = Promise.resolve();
  const report = (p: SyncProgress, force = false) => {
    opts.onProgress?.(p);
    const now = Date.now();
    if (runId === null || (!force && now - lastWrite < 500)) return;
    lastWrite = now;
    const id = runId;
    pending = pending.then(() =>
      db.syncRun.update({ where: { id }, data: { progress: JSON.stringify(p) } }).catch(() => {}),
    );
  };
  try {
    const run = await db.syncRun.create({
      data: {
        connectionId: opts.connectionId ?? null,
        connectionName: opts.connectionName,
        startedBy: opts.startedBy,
        startedAt: started,
        status: "running",
      },
    });
    runId = run.id;
    const collected = await collectBundle({
      fetch: opts.fetch ?? fetchFor(opts.settings),
      settings: opts.settings,
      concurrency: opts.concurrency,
      timeoutMs: opts.timeoutMs,
      progress: (p) => report(p),
    });
    const prepared = prepareBundle(collected.bundle, (stage, detail) =>
      report({ step: stage === "validating" ? "validating" : "converting", detail }, true),
    );
    report({ step: "writing", total: prepared.counts.hosts }, true);
    const digest = createHash("sha256").update(JSON.stringify(collected.bundle.json)).digest("hex");
    const imported = await applyImport(db, prepared, {
      audit: {
        ...opts.actor,
        action: "cloud.sync",
        source: `sync of ${opts.connectionName}`,
        sha256: digest,
        bytes: 0,
      },
      // recorded when written: a snapshot another import took while this sync read stays older than it
      snapshot: { source: "sync", startedBy: opts.startedBy, label: opts.connectionName },
    });
    // where Schedscope would have put each server new since the snapshot before: computed once and kept
    if (imported.snapshot) void predictionsOf(db, imported.snapshot.id).catch(() => {});
    const result: SyncResult = {
      runId,
      ...prepared.counts,
      requests: collected.requests,
      seconds: Math.round((Date.now() - started.getTime()) / 100) / 10,
      microversions: collected.microversions,
      notes: [...collected.notes, ...prepared.neutral.filter((n) => !n.startsWith("no nova.conf"))],
      warnings: prepared.warnings,
    };
    await pending;
    await db.syncRun.update({
      where: { id: runId },
      data: {
        status: "succeeded",
        finishedAt: new Date(),
        progress: JSON.stringify({ step: "done" }),
        result: JSON.stringify(result),
      },
    });
    opts.onProgress?.({ step: "done" });
    return result;
  } catch (e) {
    const f = failureOf(e);
    await pending;
    if (runId !== null)
      await db.syncRun
        .update({
          where: { id: runId },
          data: {
            status: "failed",
            finishedAt: new Date(),
            error: JSON.stringify({ message: f.message, kind: f.kind, details: f.details }),
          },
        })
        .catch(() => {});
    throw new SyncFailed(f.message, runId, f.kind, f.details);
  } finally {
    clearInterval(heartbeat);
    await lease.release().catch(() => {});
  }
}

/** The newest successful sync's time, for the header's age badge (history's snapshots take over when merged). */
export async function newestSyncAt(db: Db): Promise<Date | null> {
  const row = await db.syncRun.findFirst({
    where: { status: "succeeded" },
    orderBy: { startedAt: "desc" },
    select: { startedAt: true },
  });
  return row?.startedAt ?? null;
}
