import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseFilePath, resolveDatabaseUrl } from "./lib/db/url";

// Prisma 6.19 offline setup (see docs/ and the README): the JS/WASM schema
// engine talks to SQLite through the better-sqlite3 driver adapter, so no
// native engine binary is ever needed or downloaded. Run the CLI through
// `npm run prisma -- ...` (scripts/prisma.mjs sets the engine env vars).
// The schema's `url = env("DATABASE_URL")` must resolve for the CLI to load
// the schema; the adapter below is what actually connects.
process.env.DATABASE_URL = resolveDatabaseUrl();

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: {
    path: path.join("prisma", "migrations"),
    seed: "tsx prisma/seed.ts",
  },
  async adapter() {
    // The adapter opens (and creates) the file even for `migrate diff`, so
    // make sure its folder exists on a fresh checkout.
    const file = databaseFilePath();
    if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
    return new PrismaBetterSQLite3({ url: resolveDatabaseUrl() });
  },
});
