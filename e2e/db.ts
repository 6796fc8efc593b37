// Read the database the e2e server uses, straight through better-sqlite3
// (no Prisma client here: Playwright's loader compiles tests to CommonJS).
import path from "node:path";
import Database from "better-sqlite3";

export function e2eDatabaseFile(): string {
  const url = process.env.DATABASE_URL;
  if (!url) return path.resolve(__dirname, "..", "data", "schedscope.db");
  let p = url.replace(/^file:/, "");
  if (p.startsWith("//")) p = p.slice(2);
  const q = p.indexOf("?");
  if (q >= 0) p = p.slice(0, q);
  return path.resolve(__dirname, "..", p);
}

export function queryAll<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(e2eDatabaseFile(), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** One write (a test setting up a state the UI cannot make); returns the rows changed. */
export function execute(sql: string, ...params: unknown[]): number {
  const db = new Database(e2eDatabaseFile(), { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    return db.prepare(sql).run(...params).changes;
  } finally {
    db.close();
  }
}
