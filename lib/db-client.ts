import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseFilePath, resolveDatabaseUrl } from "@/lib/db-url";

export type { PrismaClient };

/**
 * The database argument every lib function that reads or writes takes first:
 * the app's client, a test's or a CLI's own client, or a transaction.
 */
export type Db = PrismaClient;

/**
 * The one way to get a Prisma client in Schedscope.
 *
 * Prisma 6.19 "client" engine: no native query engine, queries go through the
 * better-sqlite3 driver adapter. `url` is a `file:` URL (see lib/db-url.ts);
 * default: DATABASE_URL, else data/schedscope.db.
 * Tests, CLIs and the e2e fixtures create their own client here (and
 * `$disconnect()` when done); app code uses `prisma` from lib/db.ts. This
 * module is not server-only so that plain Node processes can import it.
 */
export function createPrismaClient(url: string = resolveDatabaseUrl()): PrismaClient {
  const abs = resolveDatabaseUrl(url);
  const file = databaseFilePath(abs);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const adapter = new PrismaBetterSQLite3({ url: abs });
  return new PrismaClient({ adapter });
}
