/**
 * Migrate the database a URL names, whichever kind it is, for the CLIs
 * (seed, scenario, users, migrate): a SQLite file with prisma/migrations, a
 * PostgreSQL database with prisma/postgresql/migrations. Idempotent.
 */
import { databaseProvider } from "@/lib/db/client";
import { migratePostgres } from "@/lib/db/migrate-pg";
import { databaseFilePath, resolveDatabaseUrl } from "@/lib/db/url";
import { migrateDatabase } from "@/lib/db/migrate";

export interface MigratedDatabase {
  /** the URL to connect with (a SQLite file: URL made absolute) */
  url: string;
  /** how to name it in messages: the file, or the PostgreSQL URL without its password */
  label: string;
  applied: string[];
  /** migrations changed since they were applied (SQLite only tracks this) */
  modified: string[];
}

/** A PostgreSQL URL as it may be printed: user, host, port and database, never the password. */
export function postgresLabel(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    u.search = "";
    return u.toString();
  } catch {
    return "postgresql://(unreadable URL)";
  }
}

export async function migrateDatabaseAt(url: string | undefined = process.env.DATABASE_URL): Promise<MigratedDatabase> {
  if (databaseProvider(url) === "postgresql") {
    const pgUrl = (url as string).trim();
    return { url: pgUrl, label: postgresLabel(pgUrl), applied: await migratePostgres(pgUrl), modified: [] };
  }
  const abs = resolveDatabaseUrl(url);
  const r = migrateDatabase(abs);
  return { url: abs, label: databaseFilePath(abs), applied: r.applied, modified: r.modified };
}
