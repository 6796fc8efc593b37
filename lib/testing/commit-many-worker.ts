/**
 * Test helper: one process committing many runs at once (each in its own
 * transaction, all started together), as one of several Schedscope servers.
 *
 *   tsx --conditions=react-server lib/testing/commit-many-worker.ts DATABASE_URL ID,ID,...
 * prints "ready", waits for a line on stdin, commits, prints [{id, ok, message?}] as JSON.
 */
import readline from "node:readline";
import { createPrismaClient } from "@/lib/db-client";
import { commitRun } from "@/lib/runs/commit";

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
        const r = await commitRun(prisma, id);
        return r.ok ? { id, ok: true } : { id, ok: false, message: r.message };
      } catch (e) {
        return { id, ok: false, crashed: true, message: String((e as Error)?.message ?? e) };
      }
    }),
  );
  process.stdout.write(`${JSON.stringify(results)}\n`);
  await prisma.$disconnect();
}

main().catch((e) => {
  process.stdout.write(`${JSON.stringify([{ ok: false, crashed: true, message: String(e?.stack ?? e) }])}\n`);
  process.exit(1);
});
