/**
 * The one wrapper every write goes through (server actions, and anything
 * else that mutates the cloud): authorize → validate with a shared zod
 * schema → write in one transaction → revalidate the pages that show it.
 * Bad input comes back as field errors naming the field and the rule, and
 * nothing is written. Authorization will be added here, in one place.
 */
import "server-only";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { prisma } from "@/lib/db";
import { bumpCloudRevision } from "@/lib/cloud/revision";
import type { Prisma } from "@/lib/generated/prisma/client";

export type FieldErrors = Record<string, string[]>;

export type ActionResult<T = unknown> =
  | { ok: true; data: T; message?: string }
  | { ok: false; formError?: string; fieldErrors: FieldErrors };

/** Thrown inside a mutation to reject with a message on a field. */
export class MutationError extends Error {
  constructor(
    readonly field: string | null,
    message: string,
  ) {
    super(message);
  }
}

export type Tx = Prisma.TransactionClient;

/** `row`, or the rejection of a change to a `what` that no longer exists (deleted meanwhile). */
export function existing<T>(row: T | null, what: string): T {
  if (!row) throw new MutationError(null, `this ${what} no longer exists (deleted meanwhile?)`);
  return row;
}

// The hook authorization will use. Today every operator may write.
async function authorize(_action: string): Promise<void> {}

function zodFieldErrors(issues: z.core.$ZodIssue[]): FieldErrors {
  const out: FieldErrors = {};
  for (const i of issues) {
    const key = i.path.map(String).join(".") || "_form";
    (out[key] ??= []).push(i.message);
  }
  return out;
}

/** Prisma's unique-constraint error, turned into a message on the field. */
function uniqueViolation(e: unknown): FieldErrors | null {
  const err = e as { code?: string; meta?: { target?: string[] | string } };
  if (err?.code !== "P2002") return null;
  const target = Array.isArray(err.meta?.target) ? err.meta!.target : String(err.meta?.target ?? "name").split(",");
  const field = target[target.length - 1] ?? "name";
  return { [field]: [`${field}: must be unique; another record already uses this value`] };
}

export async function mutate<S extends z.ZodType, T>(
  action: string,
  schema: S,
  input: unknown,
  write: (tx: Tx, data: z.output<S>) => Promise<T>,
  opts: {
    revalidate?: string[];
    message?: string;
    /** false for writes the scheduler never reads (a stored run): the cached snapshot stays valid */
    changesCloud?: boolean;
  } = {},
): Promise<ActionResult<T>> {
  await authorize(action);
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: zodFieldErrors(parsed.error.issues) };
  try {
    const data = await prisma.$transaction(
      async (tx) => {
        const out = await write(tx, parsed.data);
        // In the same transaction: every process's cached snapshot sees the change.
        if (opts.changesCloud !== false) await bumpCloudRevision(tx);
        return out;
      },
      { timeout: 30_000 },
    );
    for (const p of opts.revalidate ?? []) revalidatePath(p);
    return { ok: true, data, message: opts.message };
  } catch (e) {
    if (e instanceof MutationError) {
      return e.field
        ? { ok: false, fieldErrors: { [e.field]: [e.message] } }
        : { ok: false, formError: e.message, fieldErrors: {} };
    }
    const unique = uniqueViolation(e);
    if (unique) return { ok: false, fieldErrors: unique };
    const msg = (e as Error).message ?? String(e);
    if (/CHECK constraint failed/i.test(msg)) {
      return { ok: false, formError: `rejected by a database rule: ${msg.split("\n").pop()}`, fieldErrors: {} };
    }
    throw e;
  }
}

/** FormData → plain object (repeated keys become arrays), for zod. */
export function formToObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) {
    if (typeof v !== "string") continue;
    if (Object.hasOwn(out, k)) out[k] = ([] as unknown[]).concat(out[k], v);
    else out[k] = v;
  }
  return out;
}
