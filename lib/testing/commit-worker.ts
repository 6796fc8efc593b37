/**
 * Test helper: commit runs from ANOTHER PROCESS (its own SQLite connection),
 * as a second Schedscope server or a script would. better-sqlite3 is
 * synchronous, so two connections in one thread cannot wait for each
 * other's lock; real concurrency needs two processes.
 *
 *   tsx --conditions=react-server lib/testing/commit-worker.ts DATABASE_URL RUN_ID
 * (the condition lets it import the server-only modules outside Next.js)
 * prints "ready", waits for a line on stdin, commits, prints the result as JSON.
 */
import readline from "node:readline";
import { createPrismaClient } from "@/lib/db-client";
import { commitRun } from "@/lib/runs/commit";

async function main() {
  const [url, id] = process.argv.slice(2);
  const prisma = createPrismaClient(url);
  await prisma.$connect();
  await prisma.$queryRawUnsafe("SELECT 1");
  process.stdout.write("ready\n");
  const rl = readline.createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => rl.once("line", () => resolve()));
  rl.close();
  const r = await commitRun(prisma, Number(id));
  process.stdout.write(`${JSON.stringify(r)}\n`);
  await prisma.$disconnect();
}

main().catch((e) => {
  process.stdout.write(`${JSON.stringify({ ok: false, crashed: true, message: String(e?.stack ?? e) })}\n`);
  process.exit(1);
});
