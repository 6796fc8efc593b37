// Idempotent project setup steps shared by scripts/start.mjs and scripts/test.mjs.
// Each step checks a stamp first so a warm run costs milliseconds.
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import { ROOT, UserError, bin, childEnv, exists, isPostgresUrl, log, npmCmd, postgresLabel, run } from "./env.mjs";
import { writePostgresSchema } from "../pg-schema.mjs";

const rel = (p) => path.relative(ROOT, p) || ".";

function sha256(...parts) {
  const h = crypto.createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
}

function readOr(file, fallback = "") {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return fallback;
  }
}

// ---------------------------------------------------------------------------
// Configuration checks (cheap; run before any slow work)

export function parsePort(value, fallback = 3000) {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    throw new UserError(`PORT must be a whole number between 1 and 65535 (got "${value}")`);
  }
  return n;
}

function errnoReason(err) {
  switch (err?.code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "read-only file system";
    case "ENOTDIR":
      return "a parent is not a directory";
    case "EISDIR":
      return "it is a directory";
    case "ENOENT":
      return "no such file or directory";
    case "ENOSPC":
      return "no space left on device";
    default:
      return (err && (err.code || err.message)) || String(err);
  }
}

/**
 * mkdir -p without fs.mkdirSync({ recursive: true }), which loops forever in
 * Node 20 when mkdir answers ENOENT under an existing parent (e.g. in /proc).
 */
function mkdirp(dir) {
  const missing = [];
  let d = path.resolve(dir);
  while (!exists(d)) {
    missing.unshift(d);
    const parent = path.dirname(d);
    if (parent === d) break;
    d = parent;
  }
  if (exists(d) && !fs.statSync(d).isDirectory()) throw Object.assign(new Error(d), { code: "ENOTDIR" });
  for (const m of missing) fs.mkdirSync(m);
}

/** Throws a one-line UserError unless the SQLite file can be created/written. */
export function checkDatabaseWritable(file) {
  const hint = "(set DATABASE_URL=file:/a/writable/path.db)";
  const dir = path.dirname(file);
  try {
    mkdirp(dir);
    if (exists(file)) {
      if (fs.statSync(file).isDirectory()) throw Object.assign(new Error("dir"), { code: "EISDIR" });
      fs.closeSync(fs.openSync(file, "r+"));
    }
    // SQLite also needs to create its journal next to the file.
    const probe = path.join(dir, `.schedscope-write-probe-${process.pid}`);
    fs.writeFileSync(probe, "");
    fs.unlinkSync(probe);
  } catch (err) {
    throw new UserError(`cannot write database at ${file}: ${errnoReason(err)} ${hint}`);
  }
}

function tryListen(port, host) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", (err) => resolve(err.code === "EADDRINUSE" || err.code === "EACCES" ? err.code : null));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(null)));
  });
}

function tryConnect(port, host) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    const done = (inUse) => {
      sock.destroy();
      resolve(inUse);
    };
    sock.setTimeout(500, () => done(false));
    sock.once("connect", () => done(true));
    sock.once("error", () => done(false));
  });
}

/** Throws a one-line UserError when something already serves on `port`. */
export async function checkPortFree(port) {
  const msg = `port ${port} is in use: set PORT=... or stop the other server`;
  if (await tryConnect(port, "127.0.0.1")) throw new UserError(msg);
  const code = await tryListen(port, undefined);
  if (code === "EADDRINUSE") throw new UserError(msg);
  if (code === "EACCES") throw new UserError(`port ${port} needs privileges: set PORT to 1024 or above`);
}

/** A free TCP port on 127.0.0.1 (for test servers). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------
// Dependencies

const INSTALL_STAMP = path.join(ROOT, "node_modules", ".schedscope-install-stamp");
const REQUIRED_FILES = [
  "node_modules/.bin/next",
  "node_modules/.bin/tsx",
  "node_modules/.bin/vitest",
  "node_modules/prisma/build/index.js",
  "node_modules/better-sqlite3/build/Release/better_sqlite3.node",
];

function installHash() {
  return sha256(process.version, readOr(path.join(ROOT, "package.json")), readOr(path.join(ROOT, "package-lock.json")));
}

function installEnv() {
  const extra = {
    // better-sqlite3: compile against the local Node headers instead of
    // letting prebuild-install try to download a binary from GitHub.
    npm_config_build_from_source: "true",
  };
  if (!process.env.npm_config_nodedir && exists("/usr/include/node/node.h")) {
    extra.npm_config_nodedir = "/usr"; // node-gyp: don't download headers
  }
  return childEnv(extra);
}

/** npm ci / npm install when node_modules is missing or package*.json changed. */
export function ensureDependencies() {
  const hash = installHash();
  const missing = REQUIRED_FILES.filter((f) => !exists(path.join(ROOT, f)));
  if (missing.length === 0 && readOr(INSTALL_STAMP).trim() === hash) return false;

  const why = !exists(path.join(ROOT, "node_modules"))
    ? "node_modules is missing"
    : missing.length
      ? `missing ${missing.join(", ")}`
      : "package.json or package-lock.json changed";
  log(`installing dependencies (${why}); the first time takes a few minutes...`);
  // `npm install`, not `npm ci`: npm 11.19 writes lock files without other
  // platforms' optional packages and then `npm ci` rejects them as out of sync.
  // With a lock file present `npm install` still installs the locked versions.
  run(npmCmd(), ["install", "--no-audit", "--no-fund"], { env: installEnv() });
  const still = REQUIRED_FILES.filter((f) => !exists(path.join(ROOT, f)));
  if (still.some((f) => f.includes("better_sqlite3"))) {
    log("building better-sqlite3 from source");
    run(npmCmd(), ["rebuild", "better-sqlite3"], { env: installEnv() });
  }
  const after = REQUIRED_FILES.filter((f) => !exists(path.join(ROOT, f)));
  if (after.length) throw new Error(`dependency install incomplete: missing ${after.join(", ")}`);
  // the hash of what was installed (npm install may have rewritten the lock)
  fs.writeFileSync(INSTALL_STAMP, `${installHash()}\n`);
  return true;
}

// ---------------------------------------------------------------------------
// Prisma

const CLIENT_DIR = path.join(ROOT, "lib", "generated", "prisma");
const CLIENT_STAMP = path.join(CLIENT_DIR, ".schedscope-schema-hash");
const PG_CLIENT_DIR = path.join(ROOT, "lib", "generated", "prisma-pg");

export function prismaArgs(...args) {
  return [path.join(ROOT, "node_modules", "prisma", "build", "index.js"), ...args];
}

/**
 * `prisma generate` when the client is missing or the schema changed:
 * generates lib/generated/prisma when it is missing or older than the schema.
 * `say` reports it (stdout by default; the CLIs pass stderr so that their
 * own output, e.g. `scenario export > file`, stays clean).
 */
export function ensurePrismaClient({ say = log } = {}) {
  const hash = sha256(
    readOr(path.join(ROOT, "prisma", "schema.prisma")),
    readOr(path.join(ROOT, "node_modules", "prisma", "package.json")),
  );
  if (
    exists(path.join(CLIENT_DIR, "client.ts")) &&
    exists(path.join(PG_CLIENT_DIR, "client.ts")) &&
    readOr(CLIENT_STAMP).trim() === hash
  )
    return false;
  say("generating the Prisma clients (SQLite and PostgreSQL)");
  run(process.execPath, prismaArgs("generate"), { quiet: true });
  // the PostgreSQL client, from the same schema with the provider swapped
  run(process.execPath, prismaArgs("generate", "--schema", writePostgresSchema()), { quiet: true });
  fs.writeFileSync(CLIENT_STAMP, `${hash}\n`);
  return true;
}

/**
 * Apply the migrations to `databaseUrl`: `prisma migrate deploy` for a
 * SQLite file (absolute file: URL), lib/db/migrate-cli.ts for PostgreSQL
 * (prisma/postgresql/migrations, applied in-process through `pg`).
 */
export function migrate(databaseUrl) {
  if (isPostgresUrl(databaseUrl)) {
    run(bin("tsx"), ["lib/db/migrate-cli.ts"], { env: childEnv({ DATABASE_URL: databaseUrl }) });
    return;
  }
  run(process.execPath, prismaArgs("migrate", "deploy"), {
    env: childEnv({ DATABASE_URL: databaseUrl }),
    quiet: true,
  });
}

/** Throws a one-line UserError unless the PostgreSQL server answers and lets us in. */
export async function checkPostgresReachable(url) {
  const require = createRequire(path.join(ROOT, "package.json"));
  const pg = require("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (err) {
    throw new UserError(`cannot use the PostgreSQL database ${postgresLabel(url)}: ${err.message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Rows of `table` in the database `target` (a SQLite file path or a
 * postgresql:// URL); 0 when the table does not exist yet.
 */
async function countRows(target, table) {
  const require = createRequire(path.join(ROOT, "package.json"));
  if (isPostgresUrl(target)) {
    const pg = require("pg");
    const client = new pg.Client({ connectionString: target });
    try {
      await client.connect();
      const r = await client.query(`SELECT count(*)::int AS n FROM "${table}"`);
      return r.rows[0].n;
    } catch {
      return 0;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const Database = require("better-sqlite3");
  const db = new Database(target, { fileMustExist: false });
  try {
    return db.prepare(`SELECT count(*) AS n FROM "${table}"`).get().n;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

/** True when the database (SQLite file or postgresql:// URL) has no compute hosts (or no tables yet). */
export async function databaseIsEmpty(target) {
  return (await countRows(target, "ComputeHost")) === 0;
}

/** How many users can sign in (0 when the table does not exist yet). */
export async function countUsers(target) {
  return countRows(target, "User");
}

/**
 * Seed the demo cloud when the database is empty. Uses `npm run seed`
 * (prisma/seed.ts); `fallbackSeed` (a .ts file) is used when that is absent.
 * `target`: the SQLite file, or the postgresql:// URL.
 */
export async function seedIfEmpty(databaseUrl, target, { fallbackSeed } = {}) {
  if (!(await databaseIsEmpty(target))) return "kept";
  const env = childEnv({ DATABASE_URL: databaseUrl });
  if (exists(path.join(ROOT, "prisma", "seed.ts"))) {
    log("seeding the demo cloud (npm run seed)");
    run(npmCmd(), ["run", "-s", "seed"], { env });
    return "seeded";
  }
  if (fallbackSeed) {
    log(`prisma/seed.ts not found: seeding the fixture ${rel(fallbackSeed)}`);
    run(bin("tsx"), [fallbackSeed], { env });
    return "fixture";
  }
  log("prisma/seed.ts not found yet: starting with an empty database");
  return "skipped";
}

// ---------------------------------------------------------------------------
// Next.js build

const NEXT_DIR = path.join(ROOT, ".next");
const BUILD_STAMP = path.join(NEXT_DIR, "schedscope-build-stamp");
const SKIP_DIRS = new Set([
  "node_modules",
  ".next",
  ".git",
  ".ci",
  "data",
  "docs",
  "e2e",
  "bench",
  "scripts",
  "test-results",
  "playwright-report",
  "blob-report",
  "coverage",
]);
const SKIP_FILE = /(\.test\.[cm]?[jt]sx?|\.spec\.[cm]?[jt]sx?|\.md|\.db(-journal|-wal|-shm)?|\.log|\.tsbuildinfo)$/;

function listSources(dir, out) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, ent.name);
    const r = rel(full);
    if (ent.isDirectory()) {
      if (SKIP_DIRS.has(r) || r === path.join("lib", "generated")) continue;
      if (ent.name === "node_modules" || ent.name.startsWith(".")) continue;
      listSources(full, out);
    } else if (ent.isFile()) {
      if (SKIP_FILE.test(ent.name) || ent.name === "next-env.d.ts") continue;
      out.push(full);
    }
  }
  return out;
}

/** Hash of everything that can change the production build. */
export function sourceHash() {
  const h = crypto.createHash("sha256");
  h.update(process.version);
  for (const file of listSources(ROOT, []).sort()) {
    h.update(rel(file));
    h.update("\0");
    h.update(fs.readFileSync(file));
    h.update("\0");
  }
  return h.digest("hex");
}

/** `next build` unless .next was built from exactly these sources. */
export function ensureBuild(databaseUrl) {
  const hash = sourceHash();
  if (exists(path.join(NEXT_DIR, "BUILD_ID")) && readOr(BUILD_STAMP).trim() === hash) {
    log("build is up to date");
    return false;
  }
  log("building the app (next build)");
  try {
    fs.rmSync(BUILD_STAMP, { force: true });
  } catch {}
  run(bin("next"), ["build"], { env: childEnv({ DATABASE_URL: databaseUrl, NODE_ENV: "production" }) });
  fs.writeFileSync(BUILD_STAMP, `${hash}\n`);
  return true;
}
