/**
 * A run's large parts, stored compactly and, in the app, just after the
 * answer is shown:
 *
 *   - the result document as gzipped JSON (SchedulingRun.resultGz; about a
 *     tenth of the text at 10,000 hosts);
 *   - the cloud the engine saw once per cloud revision (CloudSnapshot), not
 *     once per run: the run keeps the revision, its config and its request.
 *
 * insertRun writes the small row first (it gives the run its id); then
 * storeRunDetails writes the rest. Until that is done, this process answers
 * reads of the run from memory (pendingRun); another process waits for it
 * (readRunColumn).
 */
import { processSingleton } from "@/lib/process-singleton";
import { promisify } from "node:util";
import { gunzip as gunzipCb, gzip as gzipCb } from "node:zlib";
import type { PrismaClient } from "@/lib/db/client";
import type { ScheduleResult } from "@/lib/scheduler/result";
import type { Scenario } from "@/lib/scheduler/scenario";
import type { CloudScenario } from "@/lib/cloud/snapshot";

const gzip = promisify(gzipCb);
const gunzip = promisify(gunzipCb);

export interface RunDetails {
  result: ScheduleResult;
  /** hosts, aggregates and server groups at `revision` (no config, no request) */
  cloud: Pick<CloudScenario, "hosts" | "aggregates" | "server_groups">;
  revision: number;
  /** what the engine saw: cloud + config (when a profile gave one) + request */
  scenario: Scenario;
}

const pending = processSingleton("pending-runs", () => new Map<number, RunDetails>());

/** A run of this process whose details are not stored yet. */
export function pendingRun(id: number): RunDetails | undefined {
  return pending.get(id);
}

/** The cloud at a revision, stored once: runs made while it is being stored wait for that one write. */
const cloudWrites = new Map<number, Promise<void>>();

async function storeCloudOnce(db: PrismaClient, d: RunDetails): Promise<void> {
  let write = cloudWrites.get(d.revision);
  if (!write) {
    write = (async () => {
      const known = await db.cloudSnapshot.findUnique({ where: { revision: d.revision }, select: { id: true } });
      if (known) return;
      const data = await gzip(JSON.stringify(d.cloud));
      try {
        await db.cloudSnapshot.create({ data: { revision: d.revision, data } });
      } catch (e) {
        // another process stored this revision meanwhile: the same cloud
        if ((e as { code?: string }).code !== "P2002") throw e;
      }
    })();
    cloudWrites.set(d.revision, write);
    // a failed write is tried again by the next run; a stored one needs no entry
    write.then(
      () => cloudWrites.delete(d.revision),
      () => cloudWrites.delete(d.revision),
    );
  }
  return write;
}

/** Store the run's result and, if no run has yet, the cloud at its revision. */
export async function storeRunDetails(db: PrismaClient, id: number, d: RunDetails): Promise<void> {
  pending.set(id, d);
  try {
    await storeCloudOnce(db, d);
    const resultGz = await gzip(JSON.stringify(d.result));
    await db.schedulingRun.update({ where: { id }, data: { resultGz } });
  } finally {
    pending.delete(id);
  }
}

/** The stores this process has queued (see storeRunDetailsLater). */
let storeQueue: Promise<void> = Promise.resolve();

/**
 * storeRunDetails once `defer` runs it (Next's after(): once the response is
 * sent), answering reads from memory until then. A failure is logged: the run
 * row stays, without its result.
 */
export function storeRunDetailsLater(
  db: PrismaClient,
  id: number,
  d: RunDetails,
  defer: (task: () => Promise<void>) => void,
): void {
  pending.set(id, d);
  defer(() => {
    // one store at a time per process: quick clicks queue their writes
    // instead of serializing and compressing megabytes side by side
    const stored = storeQueue.then(() => storeRunDetails(db, id, d));
    storeQueue = stored.catch((e) => {
      console.error(`run ${id}: storing its result failed:`, e);
    });
    return storeQueue;
  });
}

interface StoredColumns {
  result: string;
  snapshot: string;
  resultGz: Uint8Array | null;
  cloudRevision: number | null;
  config: string;
  request: string;
  profileName: string | null;
}

const WAIT_MS = 100;
const WAIT_TRIES = 100;

/**
 * The stored JSON text of a run's result or snapshot, as the engine produced
 * it (null: no such run). Decompresses and reassembles what storeRunDetails
 * split; waits while another process is still storing it.
 */
export async function readRunColumn(
  db: Pick<PrismaClient, "schedulingRun" | "cloudSnapshot">,
  id: number,
  column: "result" | "snapshot",
): Promise<string | null> {
  for (let attempt = 0; ; attempt++) {
    const mine = pending.get(id);
    if (mine) return JSON.stringify(column === "result" ? mine.result : mine.scenario);
    const r = (await db.schedulingRun.findUnique({
      where: { id },
      select: {
        result: true,
        snapshot: true,
        resultGz: true,
        cloudRevision: true,
        config: true,
        request: true,
        profileName: true,
      },
    })) as StoredColumns | null;
    if (!r) return null;
    if (r.cloudRevision === null) return r[column]; // stored whole, as before
    const text = column === "result" ? await resultText(r) : await snapshotText(db, r);
    if (text !== null) return text;
    if (attempt >= WAIT_TRIES) throw new Error(`run ${id}: its ${column} was never stored`);
    await new Promise((res) => setTimeout(res, WAIT_MS));
  }
}

async function resultText(r: StoredColumns): Promise<string | null> {
  if (r.resultGz) return (await gunzip(r.resultGz)).toString("utf8");
  return r.result !== "null" ? r.result : null;
}

async function snapshotText(db: Pick<PrismaClient, "cloudSnapshot">, r: StoredColumns): Promise<string | null> {
  if (r.snapshot !== "null") return r.snapshot;
  const snap = await db.cloudSnapshot.findUnique({ where: { revision: r.cloudRevision! }, select: { data: true } });
  if (!snap) return null;
  const cloud = JSON.parse((await gunzip(snap.data)).toString("utf8")) as CloudScenario;
  // The key order of the scenario the engine saw: cloud, config (from a profile), request.
  const scenario: Scenario = {
    ...cloud,
    ...(r.profileName !== null ? { config: JSON.parse(r.config) } : {}),
    request: JSON.parse(r.request),
  };
  return JSON.stringify(scenario);
}
