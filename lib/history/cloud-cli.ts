/**
 * npm run -s cloud -- history | diff A B | predictions [SNAPSHOT]
 *
 * The cloud's history from the command line, JSON lines on stdout; errors
 * as `error: ...` on stderr (exit 1; a usage error exits 2). The database
 * is DATABASE_URL (default data/schedscope.db), migrated when behind.
 */
import { createPrismaClient } from "@/lib/db/client";
import { migrateDatabaseAt } from "@/lib/db/open";
import { CliUsageError, HISTORY_COMMANDS, HISTORY_USAGE } from "./cli";
import { SnapshotNotFoundError } from "./store";

const USAGE = `usage: npm run -s cloud -- COMMAND
${HISTORY_USAGE}
database: DATABASE_URL (default data/schedscope.db).`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === "--help" || cmd === "-h") {
    process.stdout.write(`${USAGE}\n`);
    return cmd ? 0 : 2;
  }
  if (!Object.hasOwn(HISTORY_COMMANDS, cmd)) throw new CliUsageError(`unknown command "${cmd}"`);
  const mig = await migrateDatabaseAt();
  if (mig.applied.length) process.stderr.write(`database ${mig.label}: applied ${mig.applied.join(", ")}\n`);
  const prisma = createPrismaClient(mig.url);
  try {
    const out = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
    return await HISTORY_COMMANDS[cmd as keyof typeof HISTORY_COMMANDS](prisma, rest, out);
  } finally {
    await prisma.$disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof CliUsageError) {
      process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    if (err instanceof SnapshotNotFoundError) {
      process.stderr.write(`error: ${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
