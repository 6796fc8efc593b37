/**
 * Apply prisma/postgresql/migrations/* to a PostgreSQL database in-process
 * (the `pg` driver), recording them in `_prisma_migrations` as Prisma does,
 * so `prisma migrate deploy` could take over. Each migration runs in its own
 * transaction (PostgreSQL's DDL is transactional). Idempotent.
 */
import path from "node:path";
import pg from "pg";
import { listMigrations } from "@/lib/db/migrate";

export const PG_MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma", "postgresql", "migrations");

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** The advisory lock that serializes setup (migrations, then seeding) across instances starting together. */
const SETUP_LOCK = 727274;

/**
 * `fn` while holding the setup lock on `url`'s server: a second instance
 * waits, then re-checks what the first did (e.g. finds the cloud seeded).
 */
export async function withSetupLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [SETUP_LOCK]);
    return await fn();
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [SETUP_LOCK]).catch(() => undefined);
    await client.end();
  }
}

export async function migratePostgres(url: string, dir: string = PG_MIGRATIONS_DIR): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // one migrator at a time (several instances starting together)
    await client.query("SELECT pg_advisory_lock($1)", [SETUP_LOCK]);
    await client.query(MIGRATIONS_TABLE);
    const done = new Set(
      (
        await client.query<{ migration_name: string }>(
          `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        )
      ).rows.map((r) => r.migration_name),
    );
    const applied: string[] = [];
    for (const m of listMigrations(dir)) {
      if (done.has(m.name)) continue;
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [crypto.randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`PostgreSQL migration ${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(m.name);
    }
    return applied;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [SETUP_LOCK]).catch(() => undefined);
    await client.end();
  }
}
