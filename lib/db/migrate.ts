/**
 * Apply prisma/migrations/* to a SQLite file in-process (better-sqlite3),
 * creating the file when it does not exist. For CLIs, seeds and tests that
 * must work on a fresh database without spawning the Prisma CLI (~1 s).
 *
 * Compatible with `prisma migrate deploy`: applied migrations are recorded in
 * `_prisma_migrations` exactly as Prisma does (same table, sha256 checksum of
 * migration.sql, ISO timestamps), so either tool can take over afterwards.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { databaseFilePath, resolveDatabaseUrl } from "@/lib/db/url";

/** prisma/migrations under the project root (the cwd of npm scripts, as in lib/db/url.ts). */
export const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma", "migrations");

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

export interface MigrateResult {
  file: string;
  applied: string[];
  alreadyApplied: string[];
  /** applied migrations whose migration.sql changed since (checksum differs): the database may not match the schema */
  modified: string[];
}

function isoNow(): string {
  return new Date().toISOString().replace("Z", "+00:00");
}

/** The migration folders, in the order Prisma applies them (by name). */
export function listMigrations(dir: string = MIGRATIONS_DIR): { name: string; sql: string; checksum: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const buf = fs.readFileSync(path.join(dir, name, "migration.sql"));
      return { name, sql: buf.toString("utf8"), checksum: crypto.createHash("sha256").update(buf).digest("hex") };
    });
}

/**
 * Create (if needed) and migrate the database at `url` (a `file:` URL or
 * path; default DATABASE_URL, else data/schedscope.db). Idempotent.
 */
export function migrateDatabase(
  url: string = resolveDatabaseUrl(),
  opts: { migrationsDir?: string } = {},
): MigrateResult {
  const file = databaseFilePath(url.startsWith("file:") ? url : `file:${url}`);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("foreign_keys = ON");
    db.exec(MIGRATIONS_TABLE);
    const rows = db
      .prepare(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`)
      .all() as {
      migration_name: string;
      checksum: string;
      finished_at: string | null;
      rolled_back_at: string | null;
    }[];
    const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed) {
      throw new Error(
        `migration ${failed.migration_name} failed earlier in ${file}; fix the database (or delete it) and retry`,
      );
    }
    const done = new Map(
      rows
        .filter((r) => r.finished_at !== null && r.rolled_back_at === null)
        .map((r) => [r.migration_name, r.checksum]),
    );
    const applied: string[] = [];
    const alreadyApplied: string[] = [];
    const modified: string[] = [];
    const insert = db.prepare(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
    );
    for (const m of listMigrations(opts.migrationsDir)) {
      if (done.has(m.name)) {
        alreadyApplied.push(m.name);
        if (done.get(m.name) !== m.checksum) modified.push(m.name);
        continue;
      }
      const startedAt = isoNow();
      // Prisma's table redefinitions toggle PRAGMA foreign_keys, which is a
      // no-op inside a transaction: run such scripts as Prisma does, bare.
      if (/PRAGMA\s+foreign_keys/i.test(m.sql)) {
        db.exec(m.sql);
        insert.run(crypto.randomUUID(), m.checksum, isoNow(), m.name, startedAt);
      } else {
        db.transaction(() => {
          db.exec(m.sql);
          insert.run(crypto.randomUUID(), m.checksum, isoNow(), m.name, startedAt);
        })();
      }
      applied.push(m.name);
    }
    return { file, applied, alreadyApplied, modified };
  } finally {
    db.close();
  }
}
