/**
 * Sign-in with better-auth: database sessions (Session rows through its
 * Prisma adapter), scrypt password hashes (better-auth's default), cookies
 * signed with a secret every instance shares, sign-in by name (username
 * plugin). Sign-up over HTTP is off: users are added with the users CLI.
 *
 * The secret is BETTER_AUTH_SECRET when set, else one generated once and kept
 * in the database (AppSetting "auth.secret"), so instances behind a load
 * balancer accept each other's cookies without extra configuration.
 */
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { username } from "better-auth/plugins/username";
import type { Db } from "@/lib/db/client";
import { dialectOf } from "@/lib/db/dialect";

const SECRET_KEY = "auth.secret";

/** Sessions last 12 hours, refreshed at most hourly while in use. */
export const SESSION_SECONDS = 12 * 60 * 60;

/** The sign-in cookie's name prefix (better-auth adds ".session_token"). */
export const COOKIE_PREFIX = "schedscope";

export async function authSecret(db: Db): Promise<string> {
  const fromEnv = process.env.BETTER_AUTH_SECRET?.trim();
  if (fromEnv) return fromEnv;
  const row = await db.appSetting.findUnique({ where: { key: SECRET_KEY } });
  if (row) return row.value;
  try {
    await db.appSetting.create({ data: { key: SECRET_KEY, value: randomBytes(32).toString("base64url") } });
  } catch {
    // another instance created it first: use theirs
  }
  return (await db.appSetting.findUniqueOrThrow({ where: { key: SECRET_KEY } })).value;
}

function createAuth(db: Db, secret: string) {
  return betterAuth({
    appName: "Schedscope",
    secret,
    // Never used to build links: sign-in and sign-out are server actions.
    baseURL: process.env.BETTER_AUTH_URL || "http://localhost:3000",
    database: prismaAdapter(db, { provider: dialectOf(db) }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8, maxPasswordLength: 128 },
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "viewer", input: false },
      },
    },
    session: { expiresIn: SESSION_SECONDS, updateAge: 60 * 60 },
    advanced: { cookiePrefix: COOKIE_PREFIX },
    // better-auth's own limiter keeps counts in process memory and only guards its HTTP
    // routes, which Schedscope does not mount; SignInThrottle (database) does the job.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // failed sign-ins are answered, not logged: the log would only tell which names exist
    logger: { disabled: process.env.NODE_ENV === "test", level: "error" },
    plugins: [username(), nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const cache = new WeakMap<object, Promise<Auth>>();

/** The better-auth instance bound to `db` (one per client). */
export function getAuth(db: Db): Promise<Auth> {
  let p = cache.get(db);
  if (!p) {
    p = authSecret(db).then((secret) => createAuth(db, secret));
    p.catch(() => cache.delete(db));
    cache.set(db, p);
  }
  return p;
}
