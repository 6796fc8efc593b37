// Two `npm start` at once on one empty PostgreSQL database: the migrations
// and the seeding of the demo cloud are serialized by one advisory lock
// (the second instance finds the cloud seeded), and both serve. Runs in the
// "postgresql" project, on the throwaway cluster scripts/test.mjs started.
import { type ChildProcess, spawn } from "node:child_process";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { ROOT } from "./auth";
import { freePort } from "./server";

async function sql<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

const DB = "schedscope_two_starts";

test("two npm start at once on one empty PostgreSQL: one seeds, both serve", async () => {
  test.setTimeout(300_000);
  const admin = process.env.E2E_POSTGRES_URL;
  if (!admin) throw new Error("E2E_POSTGRES_URL is not set (scripts/test.mjs sets it)");
  await sql(admin, `DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await sql(admin, `CREATE DATABASE "${DB}"`);
  const u = new URL(admin);
  u.pathname = `/${DB}`;
  const url = u.toString();

  const ports = [await freePort(), await freePort()];
  const outputs = ["", ""];
  const exits: (number | null)[] = [null, null];
  const children: ChildProcess[] = ports.map((port, i) => {
    const child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, PORT: String(port), BIND_HOST: "" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child.stdout?.on("data", (d) => {
      outputs[i] += d;
    });
    child.stderr?.on("data", (d) => {
      outputs[i] += d;
    });
    child.on("exit", (code) => {
      exits[i] = code ?? -1;
    });
    return child;
  });
  try {
    const serving = [false, false];
    for (let t = 0; t < 480 && !serving.every(Boolean); t++) {
      for (const [i, port] of ports.entries()) {
        if (exits[i] !== null) throw new Error(`npm start #${i + 1} exited ${exits[i]}:\n${outputs[i]}`);
        if (serving[i]) continue;
        try {
          serving[i] = (await fetch(`http://127.0.0.1:${port}/sign-in`)).ok;
        } catch {
          // not listening yet
        }
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(serving, outputs.join("\n----\n")).toEqual([true, true]);
    // one demo cloud, seeded once
    const [{ n }] = await sql<{ n: number }>(url, `SELECT count(*)::int AS n FROM "ComputeHost"`);
    expect(n).toBe(200);
    expect(outputs.filter((o) => o.includes("seeding the demo cloud")).length).toBeGreaterThanOrEqual(1);
    expect(outputs.join("\n")).not.toMatch(/Unique constraint failed/);
  } finally {
    for (const c of children) {
      if (c.pid && c.exitCode === null) {
        try {
          process.kill(-c.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
    }
    await new Promise((r) => setTimeout(r, 1000));
    await sql(admin, `DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`).catch(() => undefined);
  }
});
