#!/usr/bin/env node
// Runs before the tsx command-line tools (`npm run seed`, `scenario`, `bench`,
// `schedule`): they import the generated Prisma client, which a plain
// `npm install` does not create. Generates it when missing or stale (a warm
// run only hashes the schema); reports on stderr so the tools' stdout stays
// theirs. On failure, says the command to run by hand.
import { fail } from "./lib/env.mjs";
import { ensurePrismaClient } from "./lib/setup.mjs";

try {
  ensurePrismaClient({ say: (message) => process.stderr.write(`[schedscope] ${message}\n`) });
} catch (e) {
  fail(`could not generate the Prisma client (${e.message.split("\n")[0]}); run \`npm run db:generate\` and try again`);
}
