#!/usr/bin/env node
// `npm test`: the whole suite, from a fresh clone or a warm tree.
//   1. install what is missing, generate the Prisma client, find Chromium
//   2. biome check (format + lint) and tsc --noEmit, one check each
//   3. vitest run (unit + integration + conformance: **/*.test.ts)
//   4. build the app (skipped when sources are unchanged) against a fresh
//      temporary SQLite database (migrated + seeded), then Playwright e2e
//      tests (e2e/*.spec.ts) against `next start` on a free port, and one
//      journey (e2e/postgresql.spec.ts) against a second `next start` serving
//      a PostgreSQL database on the throwaway cluster
//   5. the real OpenStack of ../shared/real-cloud, started (as root) where it
//      is not running, beside steps 2-3, for the tests that sync from it, boot
//      on it and read its logs; stopped at the end if this run started it
// Prints "N passed, M failed[, K skipped]" last; exits non-zero on any failure.
// Env: CHROMIUM_PATH (browser), SKIP_E2E=1 (unit/integration only).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, UserError, bin, childEnv, exists, fail, log, postgresLabel } from "./lib/env.mjs";
import { createPostgresDatabase, ensurePostgres, startPostgres } from "./lib/postgres.mjs";
import { ensurePrometheus } from "./lib/prometheus.mjs";
import { ensureRealCloud, realCloudEnv } from "./lib/real-cloud.mjs";
import { ensureBuild, ensureDependencies, ensurePrismaClient, freePort, migrate, seedIfEmpty } from "./lib/setup.mjs";

const APT_HINT = "apt-get update && apt-get install -y --no-install-recommends chromium";

function chromiumCandidates() {
  return [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
}

function findChromium() {
  if (process.env.CHROMIUM_PATH && !exists(process.env.CHROMIUM_PATH)) {
    throw new UserError(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`);
  }
  const found = chromiumCandidates().find((p) => exists(p));
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    throw new UserError(`Chromium not found for the e2e tests: run \`sudo sh -c '${APT_HINT}'\` or set CHROMIUM_PATH`);
  }
  log(`Chromium not found: installing Debian's chromium (${APT_HINT})`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "chromium"]]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) throw new UserError(`installing Chromium failed (apt-get ${args.join(" ")}); run: ${APT_HINT}`);
  }
  const after = chromiumCandidates().find((p) => exists(p));
  if (!after) throw new UserError(`Chromium still missing after apt-get; run: ${APT_HINT}`);
  return after;
}

// Nova for the filter scheduler; Placement and wsgi-intercept for its in-process Placement path.
const NOVA_PACKAGES = ["python3-nova", "python3-placement", "python3-wsgi-intercept"];
const NOVA_HINT = `apt-get update && apt-get install -y --no-install-recommends ${NOVA_PACKAGES.join(" ")}`;

/**
 * The Nova reference (../shared/nova-reference) runs real Nova code from
 * Debian's python3-nova; the import/export round-trip tests ask it.
 */
function ensureNovaReference() {
  const probe = () =>
    spawnSync("/usr/bin/python3", ["-c", "import nova.scheduler.filters, placement.objects, wsgi_intercept"], {
      stdio: "ignore",
    }).status === 0;
  if (probe()) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot)
    throw new UserError(`the Nova reference needs ${NOVA_PACKAGES.join(", ")}: run \`sudo sh -c '${NOVA_HINT}'\``);
  log(`the Nova reference's packages are missing: installing them (${NOVA_HINT})`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", ...NOVA_PACKAGES]]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0)
      throw new UserError(
        `installing the Nova reference's packages failed (apt-get ${args.join(" ")}); run: ${NOVA_HINT}`,
      );
  }
  if (!probe()) throw new UserError(`Nova/Placement still not importable after apt-get; run: ${NOVA_HINT}`);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** Run a step; returns its exit code (never throws for a test failure). */
function step(name, cmd, args, env) {
  log(name);
  const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: "inherit" });
  if (r.error) {
    process.stderr.write(`error: ${name}: ${r.error.message}\n`);
    return 1;
  }
  return r.status ?? 1;
}

async function main() {
  const t0 = Date.now();
  const e2e = process.env.SKIP_E2E !== "1";
  ensureDependencies();
  ensurePrismaClient();
  ensureNovaReference();
  // the integration tests that run on both databases need a PostgreSQL server
  ensurePostgres();
  const chromium = e2e ? findChromium() : null;
  // the /metrics tests scrape with a real Prometheus; installed before the
  // real cloud's setup.sh runs apt-get in the background (one dpkg lock)
  ensurePrometheus();

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-test-"));
  const totals = { passed: 0, failed: 0, skipped: 0 };
  let postgres = null;
  let realCloud = null;
  const failedSteps = [];
  // the real cloud starts (about a minute) while Biome and tsc run
  const realCloudStart = ensureRealCloud(tmp).then((rc) => {
    realCloud = rc;
    return rc;
  });
  realCloudStart.catch(() => {});

  try {
    // ---- lint + format (Biome) and types ------------------------------------
    // Each counts as one check: a style slip fails the run like a test would.
    for (const [name, cmd, args] of [
      ["biome check (format + lint)", bin("biome"), ["check", "."]],
      ["tsc --noEmit (types)", bin("tsc"), ["--noEmit"]],
    ]) {
      if (step(name, cmd, args, childEnv({})) === 0) totals.passed += 1;
      else {
        totals.failed += 1;
        failedSteps.push(name.split(" ")[0]);
      }
    }

    // ---- vitest -----------------------------------------------------------
    await realCloudStart;
    const vitestJson = path.join(tmp, "vitest.json");
    // a throwaway PostgreSQL cluster (free port, removed in `finally`)
    log("starting a throwaway PostgreSQL cluster for the integration tests");
    postgres = startPostgres(await freePort());
    const unitEnv = childEnv({
      DATABASE_URL: `file:${path.join(tmp, "unit.db")}`,
      TEST_POSTGRES_URL: postgres.url,
      CI: process.env.CI ?? "",
      ...realCloudEnv(),
    });
    const vitestCode = step(
      "vitest run (unit, integration, conformance)",
      bin("vitest"),
      ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`],
      unitEnv,
    );
    const v = readJson(vitestJson);
    if (v) {
      totals.passed += v.numPassedTests ?? 0;
      totals.failed += v.numFailedTests ?? 0;
      totals.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
      // a suite that fails to load counts as a failure even with 0 failed tests
      if (vitestCode !== 0 && (v.numFailedTests ?? 0) === 0) totals.failed += Math.max(1, v.numFailedTestSuites ?? 0);
    } else if (vitestCode !== 0) {
      totals.failed += 1;
    }
    if (vitestCode !== 0) failedSteps.push("vitest");

    // ---- e2e --------------------------------------------------------------
    if (e2e) {
      const dbFile = path.join(tmp, "e2e.db");
      const dbUrl = `file:${dbFile}`;
      log(`e2e database ${dbFile}: migrate + seed`);
      migrate(dbUrl);
      await seedIfEmpty(dbUrl, dbFile, { fallbackSeed: path.join(ROOT, "e2e", "fixtures", "seed-fixture.ts") });
      ensureBuild(dbUrl);
      // the same build on PostgreSQL: a database on the throwaway cluster, migrated and seeded
      const pgUrl = await createPostgresDatabase(postgres.url, "schedscope_e2e");
      log(`e2e PostgreSQL database ${postgresLabel(pgUrl)}: migrate + seed`);
      migrate(pgUrl);
      await seedIfEmpty(pgUrl, pgUrl);
      const port = await freePort();
      const pgPort = await freePort();
      const pwJson = path.join(tmp, "playwright.json");
      const pwCode = step(
        `playwright e2e (next start on 127.0.0.1:${port}, ${chromium})`,
        bin("playwright"),
        ["test"],
        childEnv({
          DATABASE_URL: dbUrl,
          E2E_PORT: String(port),
          E2E_POSTGRES_URL: pgUrl,
          E2E_PG_PORT: String(pgPort),
          CHROMIUM_PATH: chromium,
          PLAYWRIGHT_JSON_OUTPUT_FILE: pwJson,
          PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
          ...realCloudEnv(),
        }),
      );
      const p = readJson(pwJson);
      if (p?.stats) {
        totals.passed += (p.stats.expected ?? 0) + (p.stats.flaky ?? 0);
        totals.failed += p.stats.unexpected ?? 0;
        totals.skipped += p.stats.skipped ?? 0;
        if (pwCode !== 0 && (p.stats.unexpected ?? 0) === 0) totals.failed += 1;
      } else if (pwCode !== 0) {
        totals.failed += 1;
      }
      if (pwCode !== 0) failedSteps.push("playwright");
    } else {
      log("SKIP_E2E=1: skipping the build and the browser tests");
    }
  } catch (err) {
    failedSteps.push("setup");
    totals.failed += 1;
    const msg = err instanceof UserError || typeof err?.exitCode === "number" ? err.message : err?.stack || err;
    process.stderr.write(`error: ${msg}\n`);
  } finally {
    postgres?.stop();
    await realCloudStart.catch(() => {});
    realCloud?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const secs = ((Date.now() - t0) / 1000).toFixed(0);
  if (failedSteps.length) log(`failed: ${failedSteps.join(", ")} (${secs}s)`);
  else log(`all green (${secs}s)`);
  const line = `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`;
  process.stdout.write(`${line}\n`);
  process.exit(failedSteps.length || totals.failed ? 1 : 0);
}

main().catch((err) => {
  if (err instanceof UserError) fail(err.message);
  process.stderr.write(`error: ${err?.message || err}\n`);
  process.exit(1);
});
