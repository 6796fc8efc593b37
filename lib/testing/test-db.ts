import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrismaClient, type PrismaClient } from "@/lib/db-client";
import { listMigrations, migrateDatabase } from "@/lib/db-migrate";

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
 * prisma/migrations (lib/db-migrate.ts), and a Prisma client bound to it.
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
