import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrismaClient, type PrismaClient } from "@/lib/db/client";
import { listMigrations, migrateDatabase } from "@/lib/db/migrate";

export { listMigrations };

export type TestDatabase = {
  /** absolute `file:` URL of the temporary database */
  url: string;
  /** absolute path of the SQLite file */
  file: string;
  prisma: PrismaClient;
  /** disconnects the client and deletes the temporary folder */
  cleanup: () => Promise<void>;
};

/**
 * A fresh SQLite database in a temp folder, migrated with the real
 * prisma/migrations (lib/db/migrate.ts), and a Prisma client bound to it.
 * Always `await cleanup()` (e.g. in afterAll/afterEach).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-db-"));
  const file = path.join(dir, "test.db");
  try {
    // the real prisma/migrations, recorded in _prisma_migrations like `prisma migrate deploy`
    migrateDatabase(`file:${file}`);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = `file:${file}`;
  const prisma = createPrismaClient(url);
  let cleaned = false;
  return {
    url,
    file,
    prisma,
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      await prisma.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The databases an integration test can run on. */
export const PROVIDERS = ["sqlite", "postgresql"] as const;
export type Provider = (typeof PROVIDERS)[number];

/**
 * A fresh database of either kind, migrated with that kind's migrations.
 * PostgreSQL: a new database on the test server (`adminUrl`, from vitest's
 * inject("postgresUrl")), dropped by cleanup().
 */
export async function createTestDatabaseOf(provider: Provider, adminUrl?: string): Promise<TestDatabase> {
  if (provider === "sqlite") return createTestDatabase();
  if (!adminUrl) throw new Error("PostgreSQL test database: no server URL (vitest globalSetup provides postgresUrl)");
  const { default: pg } = await import("pg");
  const { migratePostgres } = await import("@/lib/db/migrate-pg");
  const name = `schedscope_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  await migratePostgres(url);
  const prisma = createPrismaClient(url);
  let cleaned = false;
  return {
    url,
    file: "",
    prisma,
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      await prisma.$disconnect();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
