/**
 * The one wrapper every write goes through (server actions, and anything
 * else that mutates the cloud): authorize → validate with a shared zod
 * schema → write in one transaction → revalidate the pages that show it.
 * Bad input comes back as field errors naming the field and the rule, and
 * nothing is written.
 *
 * Authorization happens here, first: the signed-in user (or the runAs()
 * actor of a script) must hold the action's role (lib/core/roles.ts) before
 * the input is even parsed. Inside the transaction the audit trail and the
 * version check run around the write (lib/audit/trail.ts): a form opened at
 * an older version is refused with who changed it and when.
 */
import "server-only";
import type { Tx } from "@/lib/db/client";
import { ACTIONS, type ActionName } from "@/lib/core/action-registry";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { prisma } from "@/lib/db";
import { bumpCloudRevision } from "@/lib/cloud/revision";
import { type FieldErrors, NOT_A_FORM, zodFieldErrors } from "@/lib/core/errors";
import { type Actor, currentActor, refusalFor } from "@/lib/auth/session";
import {
  type Conflict,
  claimVersion,
  createdTarget,
  expectedVersion,
  recordChanges,
  snapshot,
  type Target,
  targetsOf,
  VersionConflict,
} from "@/lib/audit/trail";

export type ActionResult<T = unknown> =
  | { ok: true; data: T; message?: string }
  | { ok: false; formError?: string; fieldErrors: FieldErrors; conflict?: Conflict };

/** Thrown inside a mutation to reject with a message on a field. */
export class MutationError extends Error {
  constructor(
    readonly field: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** `row`, or the rejection of a change to a `what` that no longer exists (deleted meanwhile). */
export function existing<T>(row: T | null, what: string): T {
  if (!row) throw new MutationError(null, `this ${what} no longer exists (deleted meanwhile?)`);
  return row;
}

/** The input without the form's `version` (the wrapper's business, not the action schema's). */
function withoutVersion(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input) || !("version" in input)) return input;
  const { version: _version, ...rest } = input as Record<string, unknown>;
  return rest;
}

/** The actor allowed to perform `action`, or the refusal to return (nothing else runs). */
async function authorize(action: ActionName): Promise<{ actor: Actor } | { refused: string }> {
  const actor = await currentActor();
  const refusal = refusalFor(actor, action);
  return refusal || !actor ? { refused: refusal?.message ?? "Sign in first." } : { actor };
}

/** The write between its audit snapshots, with the version claim of a form. */
async function auditedWrite<D, T>(
  tx: Tx,
  actor: Actor,
  action: ActionName,
  input: unknown,
  data: D,
  write: (tx: Tx, data: D) => Promise<T>,
  ownTargets?: (tx: Tx, data: D) => Promise<Target[]>,
): Promise<T> {
  const d = data as Record<string, unknown>;
  const targets = ownTargets ? await ownTargets(tx, data) : await targetsOf(tx, action, d);
  const before = await snapshot(tx, targets);
  const expected = expectedVersion(input);
  if (expected === "bad") throw new MutationError("version", "version: must be a whole number >= 1");
  if (expected === null && needsVersion(action, targets, before)) {
    // without it a second save would silently overwrite the first
    throw new MutationError(
      "version",
      "version: is required (the version of the record when your form was opened); reload the page and try again",
    );
  }
  const claimed = expected !== null && targets.length > 0 && before[0] !== null;
  if (claimed) await claimVersion(tx, targets[0], before[0]!, expected, d);
  const result = await write(tx, data);
  await recordChanges(tx, actor, action, targets, before, createdTarget(action, result), claimed);
  return result;
}

/**
 * Whether the action changes an existing record a form was opened at (edit,
 * delete, activation), which must say the version it saw. Creations,
 * imports by name and commits of a run (checked against the hosts' state
 * instead) have none to send.
 */
function needsVersion(action: ActionName, targets: Target[], before: unknown[]): boolean {
  if (targets.length === 0 || before[0] === null || before[0] === undefined) return false;
  return ACTIONS[action].versioned;
}

/** Prisma's unique-constraint error, turned into a message on the field. */
function uniqueViolation(e: unknown): FieldErrors | null {
  const err = e as { code?: string; meta?: { target?: string[] | string } };
  if (err?.code !== "P2002") return null;
  const target = Array.isArray(err.meta?.target) ? err.meta!.target : String(err.meta?.target ?? "name").split(",");
  const field = target[target.length - 1] ?? "name";
  return { [field]: [`${field}: must be unique; another record already uses this value`] };
}

export async function mutate<S extends z.ZodType, T, P = undefined>(
  action: ActionName,
  schema: S,
  input: unknown,
  write: (tx: Tx, data: z.output<S>, prepared: P, actor: Actor) => Promise<T>,
  opts: {
    revalidate?: string[];
    message?: string;
    /** false for writes the scheduler never reads (a stored run): the cached snapshot stays valid */
    changesCloud?: boolean;
    /**
     * Expensive work the write needs (running the scheduler), done after
     * authorization and validation but outside the transaction, so it never
     * holds the write lock; a MutationError here refuses like one in `write`.
     */
    prepare?: (data: z.output<S>) => Promise<P>;
    /**
     * The records the write touches, for its audit entry and version claim,
     * when only the action's domain can name them (a run's commit, a move).
     */
    targets?: (tx: Tx, data: z.output<S>) => Promise<Target[]>;
    /** The transaction's time limit (default 30 s): a whole-cloud import with its history snapshot needs more. */
    timeoutMs?: number;
  } = {},
): Promise<ActionResult<T>> {
  const auth = await authorize(action);
  if ("refused" in auth) return { ok: false, formError: auth.refused, fieldErrors: {} };
  const parsed = schema.safeParse(withoutVersion(input));
  if (!parsed.success) return { ok: false, fieldErrors: zodFieldErrors(parsed.error.issues) };
  try {
    const prepared = (opts.prepare ? await opts.prepare(parsed.data) : undefined) as P;
    const data = await prisma.$transaction(
      async (tx) => {
        const out = await auditedWrite(
          tx,
          auth.actor,
          action,
          input,
          parsed.data,
          (t, d) => write(t, d, prepared, auth.actor),
          opts.targets,
        );
        // In the same transaction: every process's cached snapshot sees the change.
        if (opts.changesCloud !== false) await bumpCloudRevision(tx);
        return out;
      },
      // under load a write waits its turn for a connection / the write lock rather than fail
      { timeout: opts.timeoutMs ?? 30_000, maxWait: 30_000 },
    );
    for (const p of opts.revalidate ?? []) revalidatePath(p);
    return { ok: true, data, message: opts.message };
  } catch (e) {
    if (e instanceof VersionConflict) return { ok: false, formError: e.message, fieldErrors: {}, conflict: e.conflict };
    if (e instanceof MutationError) {
      return e.field
        ? { ok: false, fieldErrors: { [e.field]: [e.message] } }
        : { ok: false, formError: e.message, fieldErrors: {} };
    }
    const unique = uniqueViolation(e);
    if (unique) return { ok: false, fieldErrors: unique };
    const msg = (e as Error).message ?? String(e);
    if (/CHECK constraint failed|violates check constraint/i.test(msg)) {
      return { ok: false, formError: `rejected by a database rule: ${msg.split("\n").pop()}`, fieldErrors: {} };
    }
    throw e;
  }
}

/** FormData → plain object (repeated keys become arrays), for zod. */
export function formToObject(form: unknown): Record<string, unknown> | null {
  // a server action is an endpoint any client can call with any argument
  if (!(form instanceof FormData)) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) {
    if (typeof v !== "string") continue;
    if (Object.hasOwn(out, k)) out[k] = ([] as unknown[]).concat(out[k], v);
    else out[k] = v;
  }
  return out;
}

/** The refusal of a form action called with something other than a form: nothing is read or written. */
export function notAForm(): ActionResult<never> {
  return { ok: false, formError: NOT_A_FORM, fieldErrors: { _form: [NOT_A_FORM] } };
}
