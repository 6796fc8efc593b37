// The real OpenStack of ../shared/real-cloud for the tests that sync from it,
// boot on it and read its scheduler log. `npm test` starts it where it is not
// running (root only: its daemons and its apt install need root) and stops it
// afterwards only if it started it, so a developer's running cloud stays up.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT, UserError, exists, log } from "./env.mjs";

export const REAL_CLOUD_DIR = process.env.REAL_CLOUD_DIR ?? path.resolve(ROOT, "..", "shared", "real-cloud");
export const REAL_CLOUD_STATE = process.env.REAL_CLOUD_STATE ?? "/var/tmp/real-cloud";
/** Our hosts: every size differs, so no two hosts tie in a weigher. */
export const REAL_CLOUD_HOSTS = process.env.REAL_CLOUD_HOSTS ?? path.join(ROOT, "e2e", "real-cloud", "hosts.conf");

/** What the tests read to reach the cloud (clouds.yaml, its log, its scripts). */
export function realCloudEnv() {
  return {
    REAL_CLOUD_DIR,
    REAL_CLOUD_STATE,
    REAL_CLOUD_HOSTS,
    OS_CLIENT_CONFIG_FILE: path.join(REAL_CLOUD_STATE, "clouds.yaml"),
  };
}

function scriptEnv() {
  return { ...process.env, ...realCloudEnv(), DEBIAN_FRONTEND: "noninteractive" };
}

/**
 * Every process start.sh recorded is up: status.sh exits 0 and says "N up,
 * 0 down" with N > 0 (after stop.sh it records nothing, and exits 0 too).
 */
export function realCloudRunning() {
  const status = path.join(REAL_CLOUD_DIR, "status.sh");
  if (!exists(status)) return false;
  const r = spawnSync("bash", [status], { env: scriptEnv(), encoding: "utf8" });
  const up = /(\d+) up, 0 down/.exec(r.stdout ?? "");
  return r.status === 0 && up !== null && Number(up[1]) > 0;
}

/** Run the named scripts one after another in one child, so they go on while the caller's event loop is busy. */
function runScripts(names, logFile) {
  const name = names.join(" && ");
  const command = names.map((n) => `bash "${path.join(REAL_CLOUD_DIR, n)}"`).join(" && ");
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, "a");
    const child = spawn("bash", ["-c", command], {
      env: scriptEnv(),
      stdio: ["ignore", out, out],
    });
    child.on("error", (err) => reject(new UserError(`real cloud: ${name}: ${err.message}`)));
    child.on("close", (code) => {
      fs.closeSync(out);
      if (code === 0) resolve();
      else {
        const tail = fs.readFileSync(logFile, "utf8").split("\n").slice(-15).join("\n");
        reject(new UserError(`real cloud: ${name} exited ${code} (log ${logFile}):\n${tail}`));
      }
    });
  });
}

/**
 * Start the real cloud unless every one of its processes already runs.
 * Resolves to { started, stop() }: stop() stops it only when this call started it.
 * setup.sh (packages, configs, MariaDB data directory) is idempotent and runs
 * first on every start, so a fresh machine needs nothing done by hand.
 */
export async function ensureRealCloud(logDir) {
  if (!exists(path.join(REAL_CLOUD_DIR, "start.sh"))) {
    throw new UserError(
      `the real cloud's scripts are missing: ${REAL_CLOUD_DIR} (../shared/real-cloud beside the project)`,
    );
  }
  if (realCloudRunning()) {
    log(`real cloud already running (${REAL_CLOUD_STATE}): using it`);
    return { started: false, stop: () => {} };
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    throw new UserError(
      `the real cloud is not running and starting it needs root: run \`sudo REAL_CLOUD_HOSTS=${REAL_CLOUD_HOSTS} ${REAL_CLOUD_DIR}/setup.sh && sudo REAL_CLOUD_HOSTS=${REAL_CLOUD_HOSTS} ${REAL_CLOUD_DIR}/start.sh\``,
    );
  }
  const logFile = path.join(logDir, "real-cloud.log");
  const t0 = Date.now();
  log(`starting the real cloud (${REAL_CLOUD_DIR}, hosts ${path.relative(ROOT, REAL_CLOUD_HOSTS)}; log ${logFile})`);
  await runScripts(["setup.sh", "start.sh"], logFile);
  log(`real cloud up in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return {
    started: true,
    stop: () => {
      log("stopping the real cloud this run started");
      spawnSync("bash", [path.join(REAL_CLOUD_DIR, "stop.sh")], { env: scriptEnv(), stdio: "ignore" });
    },
  };
}
