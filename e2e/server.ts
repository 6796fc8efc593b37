// Helpers of the specs that run their own `next start` on a copy of the e2e database.
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { e2eDatabaseFile } from "./db";

/** A TCP port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Rows of `sql` on the SQLite file `dbFile`, read-only. */
export function queryFile<T>(dbFile: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/**
 * `next start` on a copy of the e2e database (in `tmp`), for specs whose
 * writes (imports replace the cloud) must not reach the other specs' cloud.
 */
export async function serveCopy(
  tmp: string,
  name: string,
): Promise<{ dbFile: string; base: string; server: ChildProcess }> {
  const dbFile = path.join(tmp, `${name}.db`);
  const source = new Database(e2eDatabaseFile(), { readonly: true, fileMustExist: true });
  await source.backup(dbFile);
  source.close();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const root = path.resolve(__dirname, "..");
  const server = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    { cwd: root, env: { ...process.env, DATABASE_URL: `file:${dbFile}` }, stdio: "ignore" },
  );
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/sign-in`)).ok) return { dbFile, base, server };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  server.kill("SIGTERM");
  throw new Error(`the ${name} test server did not start on ${base}`);
}
