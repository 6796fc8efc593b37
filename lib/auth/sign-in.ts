/**
 * Sign-in by name and password, with a per-name lockout kept in the
 * database (SignInThrottle): every instance counts the same attempts, each
 * counted atomically before its password is checked, and
 * unknown names are counted like known ones so neither the message nor the
 * lockout tells whether a name exists.
 */
import type { PrismaClient } from "@/lib/db/client";
import { getAuth } from "@/lib/auth/auth";
import type { FieldErrors } from "@/lib/core/errors";

export const WRONG_CREDENTIALS = "Wrong name or password.";

/** Failures allowed within WINDOW_MS before the name is locked. */
export const MAX_FAILURES = 5;
const WINDOW_MS = 15 * 60_000;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 15 * 60_000;
/** Every failure answers no sooner than this: slows guessing on one connection. */
export const FAILURE_DELAY_MS = 400;

export type SignInResult =
  | { ok: true; userName: string; setCookie: string | null }
  | { ok: false; message: string; fieldErrors?: FieldErrors };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function throttleKey(name: string): string {
  return name.trim().toLowerCase().slice(0, 64);
}

export function lockMessage(until: Date, now: Date): string {
  const secs = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return `Too many failed sign-ins for this name: try again in ${secs} s.`;
}

type Attempt = { allowed: true; number: number } | { allowed: false; lockedUntil: Date };

/** The lock after `failures` failures in the window (null below MAX_FAILURES). */
function lockAfter(failures: number, now: Date): Date | null {
  const over = failures - MAX_FAILURES;
  return over >= 0 ? new Date(now.getTime() + Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** over)) : null;
}

/**
 * Count this attempt before the password is checked, in one transaction
 * that holds the name's row (the increment takes its row lock): parallel
 * attempts each get their own number, and only the first MAX_FAILURES of a
 * window are checked; the rest are refused as locked, right password or not.
 */
async function countAttempt(db: PrismaClient, key: string, now: Date): Promise<Attempt> {
  for (let tries = 0; ; tries++) {
    try {
      return await db.$transaction(
        async (tx) => {
          const bumped = await tx.signInThrottle.updateMany({
            where: { name: key },
            data: { failures: { increment: 1 } },
          });
          if (bumped.count === 0) {
            await tx.signInThrottle.create({ data: { name: key, failures: 1, firstAt: now } });
            return { allowed: true, number: 1 } as const;
          }
          const row = (await tx.signInThrottle.findUnique({ where: { name: key } }))!;
          if (row.lockedUntil && row.lockedUntil > now) {
            // a locked name: the attempt is refused and not counted (the lock does not grow while it holds)
            await tx.signInThrottle.update({ where: { name: key }, data: { failures: row.failures - 1 } });
            return { allowed: false, lockedUntil: row.lockedUntil } as const;
          }
          if (now.getTime() - row.firstAt.getTime() > WINDOW_MS) {
            await tx.signInThrottle.update({
              where: { name: key },
              data: { failures: 1, firstAt: now, lockedUntil: null },
            });
            return { allowed: true, number: 1 } as const;
          }
          if (row.lockedUntil) {
            // a lock just ended: this attempt is checked, and the others wait out the next, longer lock meanwhile
            await tx.signInThrottle.update({
              where: { name: key },
              data: { lockedUntil: lockAfter(row.failures, now) },
            });
            return { allowed: true, number: row.failures } as const;
          }
          if (row.failures > MAX_FAILURES) {
            // more attempts in flight than failures allowed: lock now, before any of them is answered
            const lockedUntil = lockAfter(MAX_FAILURES, now)!;
            await tx.signInThrottle.update({ where: { name: key }, data: { lockedUntil, failures: row.failures - 1 } });
            return { allowed: false, lockedUntil } as const;
          }
          return { allowed: true, number: row.failures } as const;
          // many attempts at once wait their turn for a connection rather than fail
        },
        { maxWait: 30_000, timeout: 10_000 },
      );
    } catch (e) {
      // two first attempts created the row at once: the loser counts again on the winner's row
      if ((e as { code?: string }).code === "P2002" && tries < 3) continue;
      throw e;
    }
  }
}

/** A failed attempt (already counted): lock the name when it was one too many. */
async function recordFailure(db: PrismaClient, key: string, number: number, now: Date): Promise<void> {
  const lockedUntil = lockAfter(number, now);
  if (lockedUntil) await db.signInThrottle.updateMany({ where: { name: key }, data: { lockedUntil } });
}

/**
 * Check the name and password; on success better-auth creates the Session
 * row and (inside a Next.js server action) sets the signed cookie; the
 * Set-Cookie header is also returned for other callers.
 */
export async function signInWithPassword(
  db: PrismaClient,
  input: { name?: unknown; password?: unknown },
  opts: { headers?: Headers; now?: () => Date } = {},
): Promise<SignInResult> {
  const now = opts.now ?? (() => new Date());
  const name = typeof input.name === "string" ? input.name.trim() : "";
  const password = typeof input.password === "string" ? input.password : "";
  const fieldErrors: FieldErrors = {};
  if (!name) fieldErrors.name = ["name: is required"];
  if (!password) fieldErrors.password = ["password: is required"];
  if (Object.keys(fieldErrors).length) return { ok: false, message: "Enter your name and password.", fieldErrors };

  const key = throttleKey(name);
  const attempt = await countAttempt(db, key, now());
  if (!attempt.allowed) {
    await sleep(FAILURE_DELAY_MS);
    return { ok: false, message: lockMessage(attempt.lockedUntil, now()) };
  }

  const auth = await getAuth(db);
  const started = Date.now();
  try {
    const res = await auth.api.signInUsername({
      body: { username: name, password },
      headers: opts.headers ?? new Headers(),
      returnHeaders: true,
    });
    await db.signInThrottle.deleteMany({ where: { name: key } });
    return { ok: true, userName: res.response.user.username ?? name, setCookie: res.headers.get("set-cookie") };
  } catch {
    // Unknown name, wrong password, malformed name: one answer for all.
    await recordFailure(db, key, attempt.number, now());
    const left = FAILURE_DELAY_MS - (Date.now() - started);
    if (left > 0) await sleep(left);
    return { ok: false, message: WRONG_CREDENTIALS };
  }
}

/** Sign the request's session out (deletes its Session row; the cookie is cleared). */
export async function signOut(db: PrismaClient, headers: Headers): Promise<void> {
  const auth = await getAuth(db);
  await auth.api.signOut({ headers }).catch(() => undefined);
}
