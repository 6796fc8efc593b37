// Shared helpers for the plain-JS project scripts (start, test, prisma).
// Plain Node ESM on purpose: these run before node_modules exists.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DEFAULT_DATABASE_FILE = path.join("data", "schedscope.db");

/** Mirrors lib/db/client.ts databaseProvider(): a postgresql:// (or postgres://) URL names a PostgreSQL database. */
export function isPostgresUrl(url = process.env.DATABASE_URL) {
  return Boolean(url && /^postgres(ql)?:/i.test(url.trim()));
}

/** A PostgreSQL URL as it may be printed (no password, no parameters). */
export function postgresLabel(url) {
  try {
    const u = new URL(url.trim());
    u.password = "";
    u.search = "";
    return u.toString();
  } catch {
    return "postgresql://(unreadable URL)";
  }
}

/** Mirrors lib/db/url.ts: absolute path of the SQLite file for a DATABASE_URL. */
export function databaseFilePath(url = process.env.DATABASE_URL) {
  if (!url || url.trim() === "") return path.resolve(ROOT, DEFAULT_DATABASE_FILE);
  const trimmed = url.trim();
  if (!trimmed.startsWith("file:")) {
    throw new UserError(`DATABASE_URL must be a SQLite file: URL or a postgresql:// URL (got "${trimmed}")`);
  }
  let p = trimmed.slice("file:".length);
  const q = p.indexOf("?");
  if (q >= 0) p = p.slice(0, q);
  if (p.startsWith("//")) p = p.slice(2);
  return path.resolve(ROOT, p);
}

/** A configuration problem: reported as one line, exit 1, no stack. */
export class UserError extends Error {}

export function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

export function log(message) {
  process.stdout.write(`[schedscope] ${message}\n`);
}

/**
 * Environment for every child process: no telemetry, no Prisma engine
 * downloads (the engine variables point at an existing file, which makes the
 * CLI skip its download check; the JS/WASM engine does the real work).
 */
export function childEnv(extra = {}) {
  const placeholder = path.join(ROOT, "package.json");
  return {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    PRISMA_GENERATE_SKIP_AUTOINSTALL: "1",
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || placeholder,
    PRISMA_QUERY_ENGINE_LIBRARY: process.env.PRISMA_QUERY_ENGINE_LIBRARY || placeholder,
    ...extra,
  };
}

/** Run a command, inherit stdio; throws on a non-zero exit. */
export function run(cmd, args, { env = childEnv(), cwd = ROOT, quiet = false } = {}) {
  const res = spawnSync(cmd, args, {
    cwd,
    env,
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    encoding: "utf8",
  });
  if (res.error) throw res.error;
  if (res.status !== 0) {
    const out = quiet ? `\n${res.stdout ?? ""}${res.stderr ?? ""}` : "";
    const err = new Error(`command failed (exit ${res.status}): ${cmd} ${args.join(" ")}${out}`);
    err.exitCode = res.status ?? 1;
    throw err;
  }
  return res;
}

export function bin(name) {
  return path.join(ROOT, "node_modules", ".bin", name);
}

export function npmCmd() {
  return process.platform === "win32" ? "npm.cmd" : "npm";
}

/** Start a long-running child; returns the ChildProcess. */
export function start(cmd, args, { env = childEnv(), cwd = ROOT, stdio = "inherit" } = {}) {
  return spawn(cmd, args, { cwd, env, stdio });
}

export function exists(p) {
  try {
    fs.accessSync(p);
    return true;
  } catch {
    return false;
  }
}
