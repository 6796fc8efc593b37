/**
 * The cloud each scheduling call of a log is replayed on: the newest
 * snapshot of the cloud's history taken before the call (what Nova saw
 * then, as closely as Schedscope knows it), or the current cloud where no
 * snapshot is that old or no history is kept.
 */
import type { PrismaClient } from "@/lib/db/client";
import { loadSnapshotAsOf } from "@/lib/history/as-of";
import { listSnapshots } from "@/lib/history/store";
import type { CloudAsOf } from "./explain";
import type { SchedulingCall } from "./types";

type Cloud = ReturnType<CloudAsOf>;

/** Whole clouds loaded for one log at most: a log spread over months replays its oldest calls on the current cloud. */
export const MAX_SNAPSHOTS = 8;

/** The snapshot in force at `time`: the newest taken at or before it (ascending `taken`), or null. */
export function snapshotInForce<T extends { takenAt: Date }>(ascending: T[], time: number): T | null {
  let found: T | null = null;
  for (const s of ascending) {
    if (s.takenAt.getTime() > time) break;
    found = s;
  }
  return found;
}

export async function historyCloudAsOf(
  db: PrismaClient,
  calls: SchedulingCall[],
  current: NonNullable<Cloud>,
  profileName?: string,
): Promise<CloudAsOf> {
  const snapshots = (await listSnapshots(db)).reverse();
  if (!snapshots.length) return () => current;
  const needed = new Map<number, (typeof snapshots)[number]>();
  for (const call of calls) {
    const s = Number.isFinite(call.started) ? snapshotInForce(snapshots, call.started) : null;
    if (s) needed.set(s.id, s);
  }
  const clouds = new Map<number, NonNullable<Cloud>>();
  const newest = [...needed.values()].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime()).slice(0, MAX_SNAPSHOTS);
  for (const s of newest) {
    const loaded = await loadSnapshotAsOf(db, s.id, profileName !== undefined ? { profileName } : {});
    clouds.set(s.id, {
      scenario: loaded.scenario,
      label: `the cloud as of snapshot #${s.id} (${s.takenAt.toISOString()})${loaded.profileName ? `, profile ${loaded.profileName}` : ""}`,
    });
  }
  return (time) => {
    const s = Number.isFinite(time) ? snapshotInForce(snapshots, time) : null;
    return (s && clouds.get(s.id)) || current;
  };
}
