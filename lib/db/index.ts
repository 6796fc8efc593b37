import "server-only";
import { createPrismaClient, type PrismaClient } from "@/lib/db/client";

export { createPrismaClient, type Db, type PrismaClient } from "@/lib/db/client";

// One client per process (and one across Next.js dev hot reloads).
// The proxy below too: Next.js bundles this module once per server entry,
// and what is kept per client (the snapshot cache, keyed by it) must find
// the same object from every entry, the one instrumentation.ts primed.
const globalForPrisma = globalThis as unknown as {
  __schedscopePrisma?: PrismaClient;
  __schedscopePrismaProxy?: PrismaClient;
};

function getPrisma(): PrismaClient {
  if (!globalForPrisma.__schedscopePrisma) {
    globalForPrisma.__schedscopePrisma = createPrismaClient();
  }
  return globalForPrisma.__schedscopePrisma;
}

/**
 * The app-wide client (server only), created lazily on first use so that
 * importing this module (e.g. during `next build`) never opens the database.
 * lib functions never pick it themselves: app/ code passes it as their first
 * argument (`db`).
 */
export const prisma: PrismaClient = (globalForPrisma.__schedscopePrismaProxy ??= new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const client = getPrisma();
    const value = Reflect.get(client as object, prop);
    return typeof value === "function" ? value.bind(client) : value;
  },
}));
