/**
 * Scheduled sync: AppSetting "sync.schedule" = {connectionId, minutes}
 * (minutes 0: off, the default). Each server process checks once a minute;
 * the one-sync lease makes sure only one instance syncs, and a sync starts
 * only when the connection's newest sync started `minutes` ago or more.
 */
import type { Db } from "@/lib/db/client";
import { connectionSettings } from "./connections";
import { currentLease } from "./lock";
import { runSync } from "./run";

const KEY = "sync.schedule";

export interface SyncSchedule {
  connectionId: number;
  minutes: number;
}

export async function readSchedule(db: Db): Promise<SyncSchedule | null> {
  const row = await db.appSetting.findUnique({ where: { key: KEY } });
  if (!row) return null;
  try {
    const v = JSON.parse(row.value) as SyncSchedule;
    return Number.isInteger(v.connectionId) && Number.isInteger(v.minutes) ? v : null;
  } catch {
    return null;
  }
}

export async function writeSchedule(db: Db, s: SyncSchedule): Promise<void> {
  await db.appSetting.upsert({
    where: { key: KEY },
    create: { key: KEY, value: JSON.stringify(s) },
    update: { value: JSON.stringify(s) },
  });
}

/** One check: start the scheduled sync when it is due. Returns what it did, for logs and tests. */
export async function tick(db: Db, now = new Date()): Promise<"off" | "not due" | "busy" | "synced" | "failed"> {
  const s = await readSchedule(db);
  if (!s || s.minutes <= 0) return "off";
  const conn = await db.cloudConnection.findUnique({ where: { id: s.connectionId } });
  if (!conn) return "off";
  const last = await db.syncRun.findFirst({ where: { connectionId: conn.id }, orderBy: { startedAt: "desc" } });
  if (last && now.getTime() - last.startedAt.getTime() < s.minutes * 60_000) return "not due";
  if (await currentLease(db)) return "busy";
  try {
    await runSync(db, {
      connectionName: conn.name,
      connectionId: conn.id,
      settings: await connectionSettings(db, conn),
      actor: { userId: null, userName: "(scheduled sync)", role: "admin" },
      startedBy: "schedule",
    });
    return "synced";
  } catch {
    // recorded on its SyncRun (or another instance holds the lease): the page shows it
    return "failed";
  }
}

let timer: NodeJS.Timeout | null = null;

/** Started once per server process (instrumentation.ts). */
export function startSyncScheduler(db: Db, everyMs = 60_000): void {
  if (timer) return;
  let running = false;
  timer = setInterval(() => {
    if (running) return;
    running = true;
    tick(db)
      .catch(() => "failed")
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref?.();
}
