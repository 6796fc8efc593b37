/**
 * npm run -s users -- add NAME --role ROLE    (password read from standard input)
 *                      list
 *                      set-role NAME ROLE      (or: set-role NAME --role ROLE)
 *                      remove NAME
 *                      token add NAME          (prints a read-only /metrics scrape token once)
 *                      token list
 *                      token revoke NAME
 * Roles: admin, operator, viewer. Uses DATABASE_URL like the app.
 */
import { createPrismaClient } from "@/lib/db/client";
import { addScrapeToken, listScrapeTokens, revokeScrapeToken } from "@/lib/auth/scrape-tokens";
import { addUser, listUsers, removeUser, setRole, UserInputError } from "@/lib/auth/users";

const USAGE = `usage: npm run -s users -- add NAME --role admin|operator|viewer   (password on standard input)
       npm run -s users -- list
       npm run -s users -- set-role NAME ROLE
       npm run -s users -- remove NAME
       npm run -s users -- token add NAME      (a read-only token for Prometheus' scrapes of /metrics, shown once)
       npm run -s users -- token list
       npm run -s users -- token revoke NAME`;

/** The first line of standard input; on a terminal, asked for without echo. */
async function readPassword(): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) {
    process.stderr.write("Password (not shown): ");
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    return new Promise((resolve, reject) => {
      let pw = "";
      const onData = (chunk: string) => {
        for (const ch of chunk) {
          if (ch === "\r" || ch === "\n") {
            stdin.setRawMode(false);
            stdin.pause();
            stdin.off("data", onData);
            process.stderr.write("\n");
            return resolve(pw);
          }
          if (ch === "\u0003") {
            stdin.setRawMode(false);
            return reject(new UserInputError("cancelled"));
          }
          if (ch === "\u007f") pw = pw.slice(0, -1);
          else pw += ch;
        }
      };
      stdin.on("data", onData);
    });
  }
  let text = "";
  for await (const chunk of stdin) text += chunk;
  return text.split(/\r?\n/)[0] ?? "";
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v ?? "";
}

async function tokenCommand(db: ReturnType<typeof createPrismaClient>, args: string[]): Promise<number> {
  const [sub, ...names] = args;
  if (sub === "add" && names.length === 1) {
    const token = await addScrapeToken(db, names[0]);
    process.stderr.write(`added scrape token ${names[0].toLowerCase()}; it is shown once, keep it now:\n`);
    process.stdout.write(`${token}\n`);
    return 0;
  }
  if (sub === "list" && names.length === 0) {
    const rows = await listScrapeTokens(db);
    if (!rows.length) {
      process.stdout.write("no scrape tokens yet: npm run -s users -- token add NAME\n");
      return 0;
    }
    const w = Math.max(4, ...rows.map((r) => r.name.length));
    process.stdout.write(`${"NAME".padEnd(w)}  STATE    CREATED                   LAST USED\n`);
    for (const r of rows)
      process.stdout.write(
        `${r.name.padEnd(w)}  ${(r.revokedAt ? "revoked" : "active").padEnd(7)}  ${r.createdAt.toISOString()}  ${r.lastUsedAt?.toISOString() ?? "never"}\n`,
      );
    return 0;
  }
  if (sub === "revoke" && names.length === 1) {
    await revokeScrapeToken(db, names[0]);
    process.stdout.write(`revoked scrape token ${names[0].toLowerCase()}\n`);
    return 0;
  }
  throw new UserInputError(USAGE);
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const args = [...rest];
  const db = createPrismaClient();
  try {
    switch (cmd) {
      case "add": {
        const role = option(args, "--role");
        if (args.length !== 1 || role === undefined) throw new UserInputError(USAGE);
        const password = await readPassword();
        await addUser(db, args[0], role, password);
        process.stdout.write(`added ${args[0].toLowerCase()} (${role})\n`);
        return 0;
      }
      case "list": {
        const users = await listUsers(db);
        if (!users.length) {
          process.stdout.write("no users yet: npm run -s users -- add NAME --role admin\n");
          return 0;
        }
        const w = Math.max(4, ...users.map((u) => u.name.length));
        process.stdout.write(`${"NAME".padEnd(w)}  ROLE      SESSIONS  CREATED\n`);
        for (const u of users)
          process.stdout.write(
            `${u.name.padEnd(w)}  ${u.role.padEnd(8)}  ${String(u.sessions).padStart(8)}  ${u.createdAt.toISOString()}\n`,
          );
        return 0;
      }
      case "set-role": {
        const flag = option(args, "--role");
        const [name, positional] = args;
        const role = flag ?? positional;
        if (!name || role === undefined || args.length !== (flag === undefined ? 2 : 1))
          throw new UserInputError(USAGE);
        await setRole(db, name, role);
        process.stdout.write(`${name.toLowerCase()} is now ${role}\n`);
        return 0;
      }
      case "remove": {
        if (args.length !== 1) throw new UserInputError(USAGE);
        await removeUser(db, args[0]);
        process.stdout.write(`removed ${args[0].toLowerCase()} (signed out everywhere)\n`);
        return 0;
      }
      case "token":
        return await tokenCommand(db, args);
      default:
        throw new UserInputError(USAGE);
    }
  } finally {
    await db.$disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UserInputError) {
      process.stderr.write(`error: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`error: ${err?.message ?? err}\n`);
    process.exit(1);
  },
);
