import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { type Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/prisma-pg/client";
import { tagDialect } from "@/lib/db/dialect";
import { databaseFilePath, resolveDatabaseUrl } from "@/lib/db/url";

export type { PrismaClient };

/** The app client's name among the process singletons (tests put their own there). */
export const PRISMA_SINGLETON = "prisma";

/** Which database a URL names (better-auth's adapter and raw SQL need to know). */
export function databaseProvider(url: string | undefined = process.env.DATABASE_URL): "sqlite" | "postgresql" {
  return url && /^postgres(ql)?:/i.test(url.trim()) ? "postgresql" : "sqlite";
}

/**
 * The database argument every lib function that reads or writes takes first:
 * the app's client, a test's or a CLI's own client, or a transaction.
 */
export type Db = PrismaClient;

/** An interactive transaction's client: what every write inside one mutation runs on. */
export type Tx = Prisma.TransactionClient;

/**
 * The one way to get a Prisma client in Schedscope.
 *
 * Prisma 6.19 "client" engine: no native query engine, queries go through a
 * driver adapter chosen by the URL: `postgresql://...` → node-postgres (the
 * client generated from prisma/postgresql/schema.prisma, itself generated
 * from prisma/schema.prisma: same models, same API); otherwise a SQLite
 * `file:` URL (see lib/db/url.ts) → better-sqlite3; default: DATABASE_URL,
 * else data/schedscope.db.
 * Tests, CLIs and the e2e fixtures create their own client here (and
 * `$disconnect()` when done); app code uses `prisma` from lib/db/index.ts. This
 * module is not server-only so that plain Node processes can import it.
 */
export function createPrismaClient(url: string | undefined = process.env.DATABASE_URL): PrismaClient {
  if (databaseProvider(url) === "postgresql") {
    // one schema, two generated clients: the PostgreSQL one has the same API
    // JIT off: compiling the snapshot's 10,000-row JSON query took longer
    // (~0.5 s) than running it; no query of ours gains from it
    const adapter = new PrismaPg({ connectionString: url, options: "-c jit=off" });
    return tagDialect(new PostgresPrismaClient({ adapter }) as unknown as PrismaClient, "postgresql");
  }
  const abs = resolveDatabaseUrl(url);
  const file = databaseFilePath(abs);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  // Several processes may write the file (instances, CLIs): wait up to 15 s
  // for another one's write lock instead of failing with "database is locked".
  const adapter = new PrismaBetterSQLite3({ url: abs, timeout: 15_000 });
  return tagDialect(new PrismaClient({ adapter }), "sqlite");
}
