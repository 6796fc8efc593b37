#!/usr/bin/env node
// prisma/schema.prisma is the one schema. This writes its PostgreSQL twin,
// prisma/postgresql/schema.prisma (provider swapped, client generated to
// lib/generated/prisma-pg), which `prisma generate` and `migrate diff` read.
// Run by scripts/lib/setup.mjs before generating; never edit the output.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const PG_SCHEMA = path.join(ROOT, "prisma", "postgresql", "schema.prisma");

export function postgresSchema(text) {
  const swapped = text
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace(/output(\s*)=\s*"\.\.\/lib\/generated\/prisma"/, 'output$1= "../../lib/generated/prisma-pg"');
  if (swapped === text || !swapped.includes('"postgresql"') || !swapped.includes("prisma-pg"))
    throw new Error("prisma/schema.prisma: could not swap the provider/output for PostgreSQL");
  return `// GENERATED from prisma/schema.prisma by scripts/pg-schema.mjs: do not edit.\n${swapped}`;
}

export function writePostgresSchema() {
  const out = postgresSchema(fs.readFileSync(path.join(ROOT, "prisma", "schema.prisma"), "utf8"));
  fs.mkdirSync(path.dirname(PG_SCHEMA), { recursive: true });
  if (!fs.existsSync(PG_SCHEMA) || fs.readFileSync(PG_SCHEMA, "utf8") !== out) fs.writeFileSync(PG_SCHEMA, out);
  return PG_SCHEMA;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${path.relative(ROOT, writePostgresSchema())}\n`);
}
