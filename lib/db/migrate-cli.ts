/**
 * `tsx lib/db/migrate-cli.ts`: apply the migrations to DATABASE_URL (SQLite
 * file or PostgreSQL database). npm start uses it for PostgreSQL, whose
 * migrations Prisma's CLI cannot apply here (it has no PostgreSQL engine
 * offline).
 */
import { migrateDatabaseAt } from "@/lib/db/open";

migrateDatabaseAt()
  .then((r) => {
    if (r.applied.length) process.stdout.write(`${r.label}: applied ${r.applied.join(", ")}\n`);
  })
  .catch((err: unknown) => {
    process.stderr.write(`error: migrating the database failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
