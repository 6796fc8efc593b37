/**
 * The audit trail and the version check, as the mutation wrapper runs them
 * inside each write's transaction:
 *   1. targetsOf(): which entities an action touches (from its name and data);
 *   2. snapshot them before the write;
 *   3. claimVersion(): when the form sent the version it was opened at, move
 *      it forward only if it is still that version (one atomic conditional
 *      UPDATE; a stale form gets a VersionConflict and nothing is written);
 *   4. after the write, snapshot again, raise the version of what changed,
 *      and write one AuditEntry per changed entity (who, when, before, after).
 * Trial runs (schedule.run, run.rerun) are stored but change no entity of
 * the cloud: they get no audit entry.
 */
import { actionSpec } from "@/lib/core/action-registry";
import type { Tx } from "@/lib/db/client";
import { wholeNumber } from "@/lib/core/input-limits";
import type { Actor } from "@/lib/auth/session";
import type { EntityKind } from "@/lib/core/action-registry";
import { bumpVersion, type EntityRef, type EntityState, loadEntity } from "./entities";

export interface Target {
  kind: EntityKind;
  ref: EntityRef;
}

type Data = Record<string, unknown>;

/**
 * The entities the action touches that exist before it (the primary one
 * first). A run's commit and an instance's move touch hosts only their own
 * domain can name: they hand their targets to mutate() themselves.
 */
export async function targetsOf(tx: Tx, action: string, d: Data): Promise<Target[]> {
  const { entity: kind, target } = actionSpec(action);
  if (!kind) return [];
  if (target === "run" || target === "move")
    throw new Error(`${action}: its targets are the action's own (mutate's targets option)`);
  if (target === "host" && typeof d.host === "string") return [{ kind, ref: { name: d.host } }];
  // an import names the profile it creates or replaces
  if (target === "name" && typeof d.name === "string") {
    const ref = { name: d.name };
    return (await loadEntity(tx, kind, ref)) ? [{ kind, ref }] : [];
  }
  if (target === "id" && typeof d.id === "number") return [{ kind, ref: { id: d.id } }];
  return [];
}

/** A created entity, found from what the action returned (its name or uuid). */
export function createdTarget(action: string, result: unknown): Target | null {
  const { entity: kind, creates } = actionSpec(action);
  if (!kind || !creates || !result || typeof result !== "object") return null;
  const r = result as Data;
  if (typeof r.id === "number") return { kind, ref: { id: r.id } };
  if (typeof r.uuid === "string") return { kind, ref: { uuid: r.uuid } };
  if (typeof r.name === "string") return { kind, ref: { name: r.name } };
  return null;
}

export async function snapshot(tx: Tx, targets: Target[]): Promise<(EntityState | null)[]> {
  const out: (EntityState | null)[] = [];
  for (const t of targets) out.push(await loadEntity(tx, t.kind, t.ref));
  return out;
}

export interface ConflictField {
  field: string;
  yours: string;
  theirs: string;
}

export interface Conflict {
  message: string;
  by: string;
  /** ISO time of their change */
  at: string;
  fields: ConflictField[];
}

export class VersionConflict extends Error {
  constructor(readonly conflict: Conflict) {
    super(conflict.message);
  }
}

/** The version a form was opened at (hidden field "version"), or null when it sent none. */
export function expectedVersion(input: unknown): number | null | "bad" {
  if (!input || typeof input !== "object") return null;
  const v = (input as Data).version;
  if (v === undefined || v === null || v === "") return null;
  return wholeNumber(typeof v === "number" ? v : String(v), 1) ?? "bad";
}

const show = (v: unknown) =>
  v === undefined ? "(not set)" : v === null ? "(empty)" : typeof v === "string" ? v : JSON.stringify(v);

/** The fields the form sent beside what is stored now (key/value rows: the one key). */
function conflictFields(current: EntityState, d: Data): ConflictField[] {
  const maps = ["metadata", "extra_specs", "properties"] as const;
  if (typeof d.key === "string" && "value" in d) {
    const map = maps.map((m) => current.value[m]).find((m) => m && typeof m === "object") as Data | undefined;
    const key = d.key.trim();
    return [{ field: key, yours: show(d.value), theirs: show(map?.[key]) }];
  }
  const out: ConflictField[] = [];
  for (const [f, v] of Object.entries(d)) {
    if (f === "id" || !(f in current.value)) continue;
    out.push({ field: f, yours: show(v), theirs: show(current.value[f]) });
  }
  return out;
}

/** "10:42" (UTC, the server's clock) */
function hhmm(at: Date): string {
  return at.toISOString().slice(11, 16);
}

/**
 * Moves the primary entity from `expected` to the next version, atomically,
 * or throws VersionConflict naming who changed it and when.
 */
export async function claimVersion(
  tx: Tx,
  target: Target,
  before: EntityState,
  expected: number,
  d: Data,
): Promise<void> {
  const ok = await conditionalBump(tx, target.kind, before.id, expected);
  if (ok) return;
  const last = await tx.auditEntry.findFirst({
    where: { entity: target.kind, entityId: before.id },
    orderBy: [{ at: "desc" }, { id: "desc" }],
  });
  const current = (await loadEntity(tx, target.kind, { id: before.id })) ?? before;
  const by = last?.userName ?? "someone else";
  const at = last?.at ?? new Date();
  throw new VersionConflict({
    message: `Not saved: this ${target.kind.replace("_", " ")} was changed by ${by} at ${hhmm(at)} since you opened it. Nothing was overwritten; reload to see their change, then apply yours again.`,
    by,
    at: at.toISOString(),
    fields: conflictFields(current, d),
  });
}

async function conditionalBump(tx: Tx, kind: EntityKind, id: number, expected: number): Promise<boolean> {
  const where = { id, version: expected };
  const data = { version: { increment: 1 } };
  let n: { count: number };
  switch (kind) {
    case "aggregate":
      n = await tx.aggregate.updateMany({ where, data });
      break;
    case "flavor":
      n = await tx.flavor.updateMany({ where, data });
      break;
    case "image":
      n = await tx.image.updateMany({ where, data });
      break;
    case "server_group":
      n = await tx.serverGroup.updateMany({ where, data });
      break;
    case "instance":
      n = await tx.instance.updateMany({ where, data });
      break;
    case "host":
      n = await tx.computeHost.updateMany({ where, data });
      break;
    case "profile":
      n = await tx.schedulerProfile.updateMany({ where, data });
      break;
    default:
      return true;
  }
  return n.count === 1;
}

const same = (a: EntityState | null, b: EntityState | null) =>
  JSON.stringify(a?.value ?? null) === JSON.stringify(b?.value ?? null);

/**
 * After the write: raise versions of what changed (the claimed one already
 * moved) and record one audit entry per changed entity.
 */
export async function recordChanges(
  tx: Tx,
  actor: Actor,
  action: string,
  targets: Target[],
  before: (EntityState | null)[],
  created: Target | null,
  claimed: boolean,
): Promise<void> {
  const rows: { kind: EntityKind; b: EntityState | null; a: EntityState | null }[] = [];
  for (let i = 0; i < targets.length; i++) {
    const b = before[i];
    const a = b ? await loadEntity(tx, targets[i].kind, { id: b.id }) : null;
    if (b || a) rows.push({ kind: targets[i].kind, b, a });
  }
  if (created && !rows.some((r) => r.kind === created.kind)) {
    const a = await loadEntity(tx, created.kind, created.ref);
    if (a) rows.push({ kind: created.kind, b: null, a });
  }
  for (const [i, r] of rows.entries()) {
    if (same(r.b, r.a)) continue;
    if (r.a && r.b && !(i === 0 && claimed)) await bumpVersion(tx, r.kind, r.a.id);
    await tx.auditEntry.create({
      data: {
        userId: actor.userId,
        userName: actor.name,
        role: actor.role,
        action,
        entity: r.kind,
        entityKey: (r.a ?? r.b)!.key,
        entityId: (r.a ?? r.b)!.id,
        before: r.b ? JSON.stringify(r.b.value) : null,
        after: r.a ? JSON.stringify(r.a.value) : null,
      },
    });
  }
}
