/**
 * Apply prisma/postgresql/migrations/* to a PostgreSQL database in-process
 * (the `pg` driver), recording them in `_prisma_migrations` as Prisma does,
 * so `prisma migrate deploy` could take over. Each migration runs in its own
 * transaction (PostgreSQL's DDL is transactional). Idempotent.
 */
import path from "node:path";
import pg from "pg";
import { listMigrations } from "@/lib/db-migrate";

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

export async function migratePostgres(url: string, dir: string = PG_MIGRATIONS_DIR): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // one migrator at a time (several instances starting together)
    await client.query("SELECT pg_advisory_lock(727274)");
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
    await client.query("SELECT pg_advisory_unlock(727274)").catch(() => undefined);
    await client.end();
  }
}
