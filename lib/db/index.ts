import "server-only";
import { createPrismaClient, PRISMA_SINGLETON, type PrismaClient } from "@/lib/db/client";
import { processSingleton } from "@/lib/process-singleton";

export { createPrismaClient, type Db, type PrismaClient } from "@/lib/db/client";

// One client per process (and one across Next.js dev hot reloads). The
// proxy below too: what is kept per client (the snapshot cache, keyed by it)
// must find the same object from every server entry, the one
// instrumentation.ts primed.
function getPrisma(): PrismaClient {
  return processSingleton(PRISMA_SINGLETON, () => createPrismaClient());
}

/**
 * The app-wide client (server only), created lazily on first use so that
 * importing this module (e.g. during `next build`) never opens the database.
 * lib functions never pick it themselves: app/ code passes it as their first
 * argument (`db`).
 */
export const prisma: PrismaClient = processSingleton(
  "prisma-proxy",
  () =>
    new Proxy({} as PrismaClient, {
      get(_target, prop) {
        const client = getPrisma();
        const value = Reflect.get(client as object, prop);
        return typeof value === "function" ? value.bind(client) : value;
      },
    }),
);
