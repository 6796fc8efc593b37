#!/usr/bin/env node
// `npm start`: install what is missing, generate the Prisma client, migrate,
// seed an empty database, build when sources changed, then `next start`.
// Plain Node on purpose: it runs before node_modules exists.
//   PORT          default 3000
//   DATABASE_URL  default file:data/schedscope.db (relative to the project root),
//                 or postgresql://user:password@host:port/database
//   BIND_HOST     passed to `next start -H` (default: all interfaces). With no
//                 user yet, 127.0.0.1 only: nobody else can reach a server
//                 nobody can sign in to, until the first admin exists.
import {
  databaseFilePath,
  isPostgresUrl,
  postgresLabel,
  UserError,
  bin,
  childEnv,
  fail,
  log,
  start,
} from "./lib/env.mjs";
import {
  checkDatabaseWritable,
  checkPortFree,
  checkPostgresReachable,
  countUsers,
  ensureBuild,
  ensureDependencies,
  ensurePrismaClient,
  migrate,
  parsePort,
  seedIfEmpty,
} from "./lib/setup.mjs";

async function main() {
  const t0 = Date.now();
  // 1. configuration: fail fast, one line, before any slow work
  const port = parsePort(process.env.PORT);
  const postgres = isPostgresUrl();
  // the database: a SQLite file (its path), or a PostgreSQL URL (as given)
  const dbUrl = postgres ? process.env.DATABASE_URL.trim() : `file:${databaseFilePath()}`;
  const target = postgres ? dbUrl : databaseFilePath();
  const label = postgres ? postgresLabel(dbUrl) : target;
  if (!postgres) checkDatabaseWritable(target);
  await checkPortFree(port);

  // 2. setup (each step is skipped when already done)
  ensureDependencies();
  ensurePrismaClient();
  if (postgres) await checkPostgresReachable(dbUrl);
  migrate(dbUrl);
  await seedIfEmpty(dbUrl, target);
  ensureBuild(dbUrl);

  // the build may have taken minutes: check the port again
  await checkPortFree(port);

  // 3. serve
  log(`database ${label}`);
  const users = await countUsers(target);
  let bindHost = process.env.BIND_HOST || null;
  if (users === 0) {
    bindHost = "127.0.0.1";
    log("no user yet: serving on 127.0.0.1 only until the first admin exists. Create one with");
    log("  npm run -s users -- add NAME --role admin      (type the password; it is read from standard input)");
    log("then sign in at the address below; restart npm start to serve on every interface.");
  }
  log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)}s, starting http://${bindHost ?? "localhost"}:${port}`);
  const args = ["start", "-p", String(port)];
  if (bindHost) args.push("-H", bindHost);
  const child = start(bin("next"), args, {
    env: childEnv({ DATABASE_URL: dbUrl, PORT: String(port), NODE_ENV: "production" }),
  });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(sig, () => child.kill(sig));
  }
  child.on("exit", (code, signal) => {
    process.exit(code ?? (signal ? 0 : 1));
  });
}

main().catch((err) => {
  if (err instanceof UserError) fail(err.message);
  process.stderr.write(`error: ${err?.message ? err.message : err}\n`);
  process.exit(typeof err?.exitCode === "number" && err.exitCode > 0 ? err.exitCode : 1);
});
