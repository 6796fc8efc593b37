/**
 * npm run -s cloud -- COMMAND [options]: the connected cloud for cron and
 * scripts. Every line on stdout is one JSON object; a command's last line
 * is {"event":"done",...} or {"event":"error",...}; exit 0 on success, 1 on
 * a failure, 2 on a usage error.
 *
 * Commands register in COMMANDS (one entry each, in their own file); the
 * dispatcher opens the database (DATABASE_URL, created and migrated when
 * missing) and hands it over.
 */
import { createPrismaClient } from "@/lib/db/client";
import type { Env } from "@/lib/openstack-api/clouds-yaml";
import { migrateDatabaseAt } from "@/lib/db/open";
import { type CloudCommand, UsageError } from "./command";
import { historyCommands } from "./history";
import { syncCommand } from "./sync";

export const COMMANDS: Record<string, CloudCommand> = {
  sync: syncCommand,
  ...historyCommands,
};

function usage(): string {
  return [
    "usage: npm run -s cloud -- COMMAND [options]   (JSON lines on stdout)",
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}\n      ${c.summary}`),
    "database: DATABASE_URL (default data/schedscope.db), created and migrated when missing.",
  ].join("\n");
}

export function parseArgs(argv: string[], cmd: CloudCommand | undefined) {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") flags.help = true;
    else if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (cmd && !cmd.flags.includes(name)) throw new UsageError(`unknown option --${name}`);
      if (cmd?.booleans?.includes(name)) {
        flags[name] = true;
        continue;
      }
      if (eq > 0) flags[name] = a.slice(eq + 1);
      else {
        const v = argv[i + 1];
        if (v === undefined || v.startsWith("--")) throw new UsageError(`--${name} needs a value`);
        flags[name] = v;
        i++;
      }
    } else positional.push(a);
  }
  return { positional, flags };
}

export async function main(argv: string[], env: Env = process.env): Promise<number> {
  const emit = (event: string, data: Record<string, unknown> = {}) =>
    process.stdout.write(`${JSON.stringify({ event, ...data })}\n`);
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h") {
    process.stderr.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const cmd = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (!cmd) throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(", ")})`);
    const args = parseArgs(rest, cmd);
    if (args.flags.help) {
      process.stderr.write(`usage: npm run -s cloud -- ${cmd.usage}\n  ${cmd.summary}\n`);
      return 0;
    }
    const mig = await migrateDatabaseAt();
    if (mig.applied.length) emit("database", { database: mig.label, applied: mig.applied });
    const prisma = createPrismaClient(mig.url);
    try {
      return await cmd.run(args, { prisma, emit, env });
    } finally {
      await prisma.$disconnect();
    }
  } catch (e) {
    if (e instanceof UsageError) {
      emit("error", { kind: "usage", message: e.message });
      process.stderr.write(`${usage()}\n`);
      return 2;
    }
    emit("error", { kind: "error", message: (e as Error).message ?? String(e) });
    return 1;
  }
}

if (process.argv[1] && /cloud-cli[\\/]index\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`${(e as Error).stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
