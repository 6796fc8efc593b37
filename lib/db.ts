import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseFilePath, resolveDatabaseUrl } from "@/lib/db-url";

export type { PrismaClient };

/** Which database DATABASE_URL names (better-auth's adapter and raw SQL need to know). */
export function databaseProvider(url: string | undefined = process.env.DATABASE_URL): "sqlite" | "postgresql" {
  return url && /^postgres(ql)?:/i.test(url.trim()) ? "postgresql" : "sqlite";
}

/**
 * The one way to get a Prisma client in Schedscope.
 *
 * Prisma 6.19 "client" engine: no native query engine, queries go through the
 * better-sqlite3 driver adapter. `url` is a `file:` URL (see lib/db-url.ts);
 * default: DATABASE_URL, else data/schedscope.db.
 * Tests and CLIs that need their own database call this directly (and
 * `$disconnect()` when done); app code imports `prisma` below.
 */
export function createPrismaClient(url: string = resolveDatabaseUrl()): PrismaClient {
  const abs = resolveDatabaseUrl(url);
  const file = databaseFilePath(abs);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const adapter = new PrismaBetterSQLite3({ url: abs });
  return new PrismaClient({ adapter });
}

// One client per process (and one across Next.js dev hot reloads).
const globalForPrisma = globalThis as unknown as { __schedscopePrisma?: PrismaClient };

function getPrisma(): PrismaClient {
  if (!globalForPrisma.__schedscopePrisma) {
    globalForPrisma.__schedscopePrisma = createPrismaClient();
  }
  return globalForPrisma.__schedscopePrisma;
}

/**
 * The app-wide client, created lazily on first use so that importing this
 * module (e.g. during `next build`) never opens the database.
 */
export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const client = getPrisma();
    const value = Reflect.get(client as object, prop);
    return typeof value === "function" ? value.bind(client) : value;
  },
});
