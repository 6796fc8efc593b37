import path from "node:path";

/**
 * Where the SQLite database lives. One rule for the app, the Prisma CLI
 * (prisma.config.ts), seeds and CLIs:
 *   - DATABASE_URL (a `file:` URL) wins; a relative path is taken from the
 *     project root (the folder holding package.json, i.e. the cwd of npm scripts);
 *   - otherwise `data/schedscope.db` under the project root.
 * scripts/lib/env.mjs mirrors this in plain JS for the start/test scripts.
 */
export const DEFAULT_DATABASE_FILE = path.join("data", "schedscope.db");

export function databaseFilePath(
  url: string | undefined = process.env.DATABASE_URL,
  root: string = process.cwd(),
): string {
  if (!url || url.trim() === "") return path.resolve(root, DEFAULT_DATABASE_FILE);
  const trimmed = url.trim();
  if (!trimmed.startsWith("file:")) {
    throw new Error(`DATABASE_URL must be a SQLite file: URL (got "${trimmed}")`);
  }
  let p = trimmed.slice("file:".length);
  const q = p.indexOf("?");
  if (q >= 0) p = p.slice(0, q);
  if (p.startsWith("//")) p = p.slice(2); // file:///abs/path
  if (p === ":memory:") return p;
  return path.resolve(root, p);
}

/** Absolute `file:` URL for the database (what the better-sqlite3 adapter expects). */
export function resolveDatabaseUrl(
  url: string | undefined = process.env.DATABASE_URL,
  root: string = process.cwd(),
): string {
  return `file:${databaseFilePath(url, root)}`;
}
