// A throwaway PostgreSQL cluster for the tests: Debian's postgresql
// (installed with apt-get when missing and root, else a clear message),
// initdb in a temp folder, started on a free port on 127.0.0.1, removed
// afterwards. PostgreSQL refuses to run as root: as root the cluster belongs
// to the `postgres` system user (created by the package) and its commands run
// through `runuser -u postgres`.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, UserError, exists, log } from "./env.mjs";

const APT_HINT = "apt-get update && apt-get install -y --no-install-recommends postgresql";
const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

function findBinDir() {
  const base = "/usr/lib/postgresql";
  if (!exists(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => exists(path.join(base, v, "bin", "initdb")) && exists(path.join(base, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], "bin") : null;
}

/** The folder of initdb / pg_ctl, installing Debian's postgresql when root. */
export function ensurePostgres() {
  const found = findBinDir();
  if (found) return found;
  if (!isRoot())
    throw new UserError(`PostgreSQL is missing for the PostgreSQL integration tests: run \`sudo sh -c '${APT_HINT}'\``);
  log(`PostgreSQL not found: installing Debian's postgresql (${APT_HINT})`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "postgresql"]]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0)
      throw new UserError(`installing PostgreSQL failed (apt-get ${args.join(" ")}); run: ${APT_HINT}`);
  }
  const after = findBinDir();
  if (!after) throw new UserError(`PostgreSQL still missing after apt-get; run: ${APT_HINT}`);
  return after;
}

function ownerOf() {
  if (!isRoot()) return null;
  const r = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  if (r.status !== 0) throw new UserError("running as root but there is no `postgres` user to own the test cluster");
  const g = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

function runAsOwner(owner, cmd, args, opts = {}) {
  const [c, a] = owner ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];
  const r = spawnSync(c, a, { encoding: "utf8", ...opts });
  if (r.status !== 0)
    throw new Error(
      `${path.basename(cmd)} failed (${r.status}): ${(r.stderr || r.stdout || r.error?.message || "").trim()}`,
    );
  return r;
}

/**
 * Start a cluster; returns { url, stop() }. `url` is the superuser URL of the
 * `postgres` database (tests create their own databases from it).
 */
export function startPostgres(port) {
  const bin = ensurePostgres();
  const owner = ownerOf();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-pg-"));
  const data = path.join(dir, "data");
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const stop = () => {
    try {
      if (exists(path.join(data, "postmaster.pid")))
        runAsOwner(owner, path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
    } catch (err) {
      process.stderr.write(`warning: stopping the test PostgreSQL: ${err.message}\n`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    runAsOwner(owner, path.join(bin, "initdb"), [
      "-D",
      data,
      "-U",
      "schedscope",
      "--auth=trust",
      "-E",
      "UTF8",
      "--no-locale",
      "--no-sync",
    ]);
    // fsync off: a test cluster is thrown away, durability buys nothing here
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    runAsOwner(owner, path.join(bin, "pg_ctl"), ["-D", data, "-o", opts, "-l", path.join(dir, "log"), "-w", "start"]);
  } catch (err) {
    stop();
    throw err;
  }
  return { url: `postgresql://schedscope@127.0.0.1:${port}/postgres`, stop };
}

/** A new, empty database `name` on the server of `adminUrl`; returns its URL. */
export async function createPostgresDatabase(adminUrl, name) {
  const require = createRequire(path.join(ROOT, "package.json"));
  const pg = require("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
