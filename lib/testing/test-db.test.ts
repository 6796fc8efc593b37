import fs from "node:fs";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, listMigrations, type TestDatabase } from "@/lib/testing/test-db";

describe("createTestDatabase (integration: real migrations, real SQLite)", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("applies every committed migration", () => {
    const migrations = listMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    const db = new Database(t.file, { readonly: true });
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => (r as { name: string }).name);
    const applied = db
      .prepare('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name')
      .all()
      .map((r) => (r as { migration_name: string }).migration_name);
    db.close();
    expect(applied).toEqual(migrations.map((m) => m.name));
    expect(tables).toEqual(expect.arrayContaining(["Cell", "ComputeHost"]));
  });

  it("round-trips a cell and its hosts through the Prisma client", async () => {
    const cell = await t.prisma.cell.create({ data: { name: "cell-it" } });
    await t.prisma.computeHost.create({
      data: {
        name: "it-host-1",
        hypervisorHostname: "it-host-1",
        position: 0,
        cellId: cell.id,
        vcpus: 8,
        memoryMb: 16384,
        localGb: 100,
      },
    });
    const hosts = await t.prisma.computeHost.findMany({ include: { cell: true } });
    expect(hosts).toHaveLength(1);
    expect(hosts[0]).toMatchObject({ name: "it-host-1", vcpus: 8, cell: { name: "cell-it" } });
  });

  it("enforces the unique host name from the schema", async () => {
    const cell = await t.prisma.cell.findFirstOrThrow();
    await expect(
      t.prisma.computeHost.create({
        data: {
          name: "it-host-1",
          hypervisorHostname: "dup",
          position: 1,
          cellId: cell.id,
          vcpus: 1,
          memoryMb: 1,
          localGb: 1,
        },
      }),
    ).rejects.toThrow();
  });

  it("removes the database on cleanup", async () => {
    const other = await createTestDatabase();
    expect(fs.existsSync(other.file)).toBe(true);
    await other.cleanup();
    expect(fs.existsSync(other.file)).toBe(false);
  });
});
