/**
 * Both migration folders (prisma/migrations for SQLite,
 * prisma/postgresql/migrations) must build the same database: the same
 * tables and columns (nullable alike), and the same number of CHECK
 * constraints on each table. A migration written for one side only fails
 * here.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabaseOf, type TestDatabase } from "@/lib/testing/test-db";

type Shape = { columns: Record<string, string[]>; checks: Record<string, number> };

// bookkeeping of the migrators, not the app's schema
const IGNORED = new Set(["_prisma_migrations", "sqlite_sequence"]);

async function sqliteShape(t: TestDatabase): Promise<Shape> {
  const tables = await t.prisma.$queryRawUnsafe<{ name: string; sql: string }[]>(
    `SELECT "name", "sql" FROM sqlite_master WHERE "type" = 'table' ORDER BY "name"`,
  );
  const columns: Record<string, string[]> = {};
  const checks: Record<string, number> = {};
  for (const { name, sql } of tables) {
    if (IGNORED.has(name)) continue;
    const cols = await t.prisma.$queryRawUnsafe<{ name: string; notnull: number | bigint; pk: number | bigint }[]>(
      `SELECT "name", "notnull", "pk" FROM pragma_table_info('${name}')`,
    );
    // an INTEGER PRIMARY KEY is NOT NULL in effect even when not declared so
    columns[name] = cols.map((c) => `${c.name}${Number(c.notnull) || Number(c.pk) ? "" : "?"}`).sort();
    checks[name] = (sql.match(/\bCHECK\s*\(/gi) ?? []).length;
  }
  return { columns, checks };
}

async function postgresShape(url: string): Promise<Shape> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const cols = await c.query<{ table_name: string; column_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const columns: Record<string, string[]> = {};
    for (const r of cols.rows) {
      if (IGNORED.has(r.table_name)) continue;
      (columns[r.table_name] ??= []).push(`${r.column_name}${r.is_nullable === "YES" ? "?" : ""}`);
    }
    for (const k of Object.keys(columns)) columns[k].sort();
    const checks: Record<string, number> = Object.fromEntries(Object.keys(columns).map((k) => [k, 0]));
    const cons = await c.query<{ table_name: string; n: string }>(
      `SELECT cl.relname AS table_name, count(*) AS n FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid
        JOIN pg_namespace ns ON ns.oid = cl.relnamespace
       WHERE co.contype = 'c' AND ns.nspname = 'public' GROUP BY cl.relname`,
    );
    for (const r of cons.rows) checks[r.table_name] = Number(r.n);
    return { columns, checks };
  } finally {
    await c.end();
  }
}

describe("SQLite and PostgreSQL migrations build the same schema", () => {
  let sqlite: TestDatabase;
  let postgres: TestDatabase;
  let a: Shape;
  let b: Shape;
  beforeAll(async () => {
    sqlite = await createTestDatabaseOf("sqlite");
    postgres = await createTestDatabaseOf("postgresql", inject("postgresUrl"));
    a = await sqliteShape(sqlite);
    b = await postgresShape(postgres.url);
  });
  afterAll(async () => {
    await sqlite?.cleanup();
    await postgres?.cleanup();
  });

  it("the same tables", () => {
    expect(Object.keys(b.columns).sort()).toEqual(Object.keys(a.columns).sort());
    expect(Object.keys(a.columns)).toContain("ComputeHost");
  });

  it("the same columns in each table, nullable alike", () => {
    expect(b.columns).toEqual(a.columns);
  });

  it("as many CHECK constraints on each table", () => {
    expect(b.checks).toEqual(a.checks);
    expect(a.checks.ComputeHost).toBeGreaterThan(10);
  });
});
