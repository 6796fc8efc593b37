/**
 * Sign-in by name and password, with a per-name lockout kept in the
 * database (SignInThrottle): every instance counts the same failures, and
 * unknown names are counted like known ones so neither the message nor the
 * lockout tells whether a name exists.
 */
import type { PrismaClient } from "@/lib/db-client";
import { getAuth } from "@/lib/auth/auth";

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
  | { ok: false; message: string; fieldErrors?: Record<string, string[]> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function throttleKey(name: string): string {
  return name.trim().toLowerCase().slice(0, 64);
}

export function lockMessage(until: Date, now: Date): string {
  const secs = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return `Too many failed sign-ins for this name: try again in ${secs} s.`;
}

async function recordFailure(db: PrismaClient, key: string, now: Date): Promise<void> {
  const row = await db.signInThrottle.findUnique({ where: { name: key } });
  const fresh = !row || now.getTime() - row.firstAt.getTime() > WINDOW_MS;
  const failures = fresh ? 1 : row.failures + 1;
  const over = failures - MAX_FAILURES;
  const lockedUntil = over >= 0 ? new Date(now.getTime() + Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** over)) : null;
  await db.signInThrottle.upsert({
    where: { name: key },
    create: { name: key, failures, firstAt: now, lockedUntil },
    update: fresh ? { failures, firstAt: now, lockedUntil } : { failures, lockedUntil },
  });
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
  const fieldErrors: Record<string, string[]> = {};
  if (!name) fieldErrors.name = ["name: is required"];
  if (!password) fieldErrors.password = ["password: is required"];
  if (Object.keys(fieldErrors).length) return { ok: false, message: "Enter your name and password.", fieldErrors };

  const key = throttleKey(name);
  const t = await db.signInThrottle.findUnique({ where: { name: key } });
  if (t?.lockedUntil && t.lockedUntil > now()) {
    await sleep(FAILURE_DELAY_MS);
    return { ok: false, message: lockMessage(t.lockedUntil, now()) };
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
    await recordFailure(db, key, now());
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
