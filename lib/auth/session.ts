/**
 * Who is asking: the signed-in user of this request (better-auth session
 * from the signed cookie, read from the database every time, so a removed
 * user or a changed role takes effect on the next request on any instance),
 * or the actor a script or test runs as (`runAs`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import "server-only";
import { getAuth } from "@/lib/auth/auth";
import { mayPerform, roleForAction } from "@/lib/core/action-registry";
import { apiError } from "@/lib/core/errors";
import { atLeast, isRole, type Role } from "@/lib/core/roles";
import { prisma } from "@/lib/db";
import type { Db } from "@/lib/db/client";

export interface Actor {
  /** User.id; null for a script acting without a user (e.g. import) */
  userId: string | null;
  name: string;
  role: Role;
}

const actorStore = new AsyncLocalStorage<Actor>();

/** Run `fn` as `actor` (CLIs, tests): mutate() and requireRole() see this actor. */
export function runAs<T>(actor: Actor, fn: () => T): T {
  return actorStore.run(actor, fn);
}

/** The actor of these request headers, or null (no, expired or tampered cookie; unknown role). */
export async function actorFromHeaders(headers: Headers, db: Db = prisma): Promise<Actor | null> {
  const auth = await getAuth(db);
  const session = await auth.api.getSession({ headers }).catch(() => null);
  if (!session) return null;
  const user = session.user as { id: string; name: string; username?: string | null; role?: unknown };
  // a role that is not one of ours grants nothing
  if (!isRole(user.role)) return null;
  return { userId: user.id, name: user.username ?? user.name, role: user.role };
}

/** The current actor: runAs() first, else the request's session; null outside both. */
export async function currentActor(): Promise<Actor | null> {
  const a = actorStore.getStore();
  if (a) return a;
  let h: Headers;
  try {
    const { headers } = await import("next/headers");
    h = new Headers(await headers());
  } catch {
    return null; // not in a request
  }
  return actorFromHeaders(h);
}

export type Refusal = { status: 401 | 403; message: string };

/** Why `actor` may not perform `action`, or null when it may. Messages name the rule, never a secret. */
export function refusalFor(actor: Actor | null, action: string): Refusal | null {
  if (!actor) return { status: 401, message: "Sign in to do this (your session is missing or has expired)." };
  if (mayPerform(actor.role, action)) return null;
  return {
    status: 403,
    message: `Not allowed: ${action} needs the ${roleForAction(action)} role or higher; you are signed in as ${actor.name} (${actor.role}).`,
  };
}

/**
 * For route handlers: the actor when signed in with at least `needed`,
 * else a JSON 401/403 Response to return as is (before any other work).
 */
export async function requireRole(request: Request, needed: Role): Promise<Actor | Response> {
  const actor = actorStore.getStore() ?? (await actorFromHeaders(request.headers));
  if (!actor) return apiError(401, "sign in first (no valid session)");
  if (!atLeast(actor.role, needed)) return apiError(403, `needs the ${needed} role or higher (you are ${actor.role})`);
  return actor;
}
