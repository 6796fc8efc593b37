import path from "node:path";
import { describe, expect, it } from "vitest";
import { databaseFilePath, resolveDatabaseUrl } from "@/lib/db/url";

describe("database URL resolution", () => {
  const root = "/srv/schedscope";

  it("defaults to data/schedscope.db under the project root", () => {
    // (an omitted url means process.env.DATABASE_URL, which npm test sets)
    expect(databaseFilePath("", root)).toBe(path.join(root, "data", "schedscope.db"));
  });

  it("resolves relative file: URLs from the project root and keeps absolute ones", () => {
    expect(databaseFilePath("file:./tmp/x.db", root)).toBe(path.join(root, "tmp", "x.db"));
    expect(databaseFilePath("file:/var/lib/s.db", root)).toBe("/var/lib/s.db");
    expect(databaseFilePath("file:///var/lib/s.db?mode=rwc", root)).toBe("/var/lib/s.db");
    expect(resolveDatabaseUrl("file:db.sqlite", root)).toBe(`file:${path.join(root, "db.sqlite")}`);
  });

  it("rejects non-SQLite URLs", () => {
    expect(() => databaseFilePath("postgres://x", root)).toThrow(/file: URL/);
  });
});
