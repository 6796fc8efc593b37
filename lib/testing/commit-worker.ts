/**
 * Test helper: commit runs from ANOTHER PROCESS (its own database connection),
 * as a second Schedscope server or a script would. better-sqlite3 is
 * synchronous, so two connections in one thread cannot wait for each
 * other's lock; real concurrency needs two processes.
 *
 *   tsx --conditions=react-server lib/testing/commit-worker.ts DATABASE_URL ID[,ID...]
 * (the condition lets it import the server-only modules outside Next.js)
 * prints "ready", waits for a line on stdin, commits every run at once (each
 * in its own transaction), prints [{id, ...commitRun's result}] as JSON.
 */
import readline from "node:readline";
import { createPrismaClient } from "@/lib/db/client";
import { commitRun } from "@/lib/runs/commit";

const crashed = (e: unknown) => ({ ok: false, crashed: true, message: String((e as Error)?.stack ?? e) });

async function main() {
  const [url, ids] = process.argv.slice(2);
  const prisma = createPrismaClient(url);
  await prisma.$connect();
  await prisma.$queryRawUnsafe("SELECT 1");
  process.stdout.write("ready\n");
  const rl = readline.createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => rl.once("line", () => resolve()));
  rl.close();
  const results = await Promise.all(
    ids.split(",").map(async (s) => {
      const id = Number(s);
      try {
        return { id, ...(await commitRun(prisma, id)) };
      } catch (e) {
        return { id, ...crashed(e) };
      }
    }),
  );
  process.stdout.write(`${JSON.stringify(results)}\n`);
  await prisma.$disconnect();
}

main().catch((e) => {
  process.stdout.write(`${JSON.stringify([crashed(e)])}\n`);
  process.exit(1);
});
