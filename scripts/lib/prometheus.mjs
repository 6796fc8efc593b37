// A throwaway Prometheus for the tests: Debian's `prometheus` package
// (installed with apt-get when missing and root, else a clear message),
// started on a free port on 127.0.0.1 with a temporary config that scrapes
// our server's /metrics with a bearer scrape token, and its data in a temp
// folder removed by stop(). promtool (same package) checks exposition text.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const APT_HINT = "apt-get update && apt-get install -y --no-install-recommends prometheus";
const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;
const BINARIES = { prometheus: "/usr/bin/prometheus", promtool: "/usr/bin/promtool" };

/** Paths of prometheus and promtool, installing Debian's prometheus when root. */
export function ensurePrometheus() {
  const found = () => fs.existsSync(BINARIES.prometheus) && fs.existsSync(BINARIES.promtool);
  if (found()) return { ...BINARIES };
  if (!isRoot()) throw new Error(`Prometheus is missing for the /metrics tests: run \`sudo sh -c '${APT_HINT}'\``);
  process.stderr.write(`[schedscope] Prometheus not found: installing Debian's prometheus (${APT_HINT})\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "prometheus"]]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) throw new Error(`installing Prometheus failed (apt-get ${args.join(" ")}); run: ${APT_HINT}`);
  }
  // the package starts a system service on :9090; the tests run their own
  spawnSync("systemctl", ["stop", "prometheus"], { stdio: "ignore" });
  if (!found()) throw new Error(`Prometheus still missing after apt-get; run: ${APT_HINT}`);
  return { ...BINARIES };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** `promtool check metrics` on exposition text: { ok, output } (lint problems are printed by promtool). */
export function checkMetrics(text) {
  const { promtool } = ensurePrometheus();
  const r = spawnSync(promtool, ["check", "metrics"], { input: text, encoding: "utf8" });
  return { ok: r.status === 0, output: `${r.stdout ?? ""}${r.stderr ?? ""}`.trim() };
}

/**
 * Start Prometheus scraping `target` (host:port) at `metricsPath` every
 * `intervalSeconds` with `token` as its bearer token. Resolves once its
 * HTTP API answers; { url, stop(), logs() }.
 */
export async function startPrometheus({ target, token, metricsPath = "/metrics", intervalSeconds = 1 }) {
  const { prometheus } = ensurePrometheus();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-prometheus-"));
  const port = await freePort();
  const tokenFile = path.join(dir, "token");
  fs.writeFileSync(tokenFile, token, { mode: 0o600 });
  const config = [
    "global:",
    `  scrape_interval: ${intervalSeconds}s`,
    `  scrape_timeout: ${intervalSeconds}s`,
    "scrape_configs:",
    "  - job_name: schedscope",
    `    metrics_path: ${metricsPath}`,
    "    authorization:",
    "      type: Bearer",
    `      credentials_file: ${tokenFile}`,
    "    static_configs:",
    `      - targets: ["${target}"]`,
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "prometheus.yml"), config);
  let log = "";
  const child = spawn(
    prometheus,
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--web.enable-lifecycle",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout.on("data", (d) => {
    log += d;
  });
  child.stderr.on("data", (d) => {
    log += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      stop();
      throw new Error(`prometheus exited (${child.exitCode}):\n${log.slice(-2000)}`);
    }
    try {
      const r = await fetch(`${url}/-/ready`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`prometheus did not become ready in 30 s:\n${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, stop, logs: () => log };
}

/** An instant query through the HTTP API (/api/v1/query): the result vector. */
export async function query(url, promql) {
  const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = await r.json();
  if (body.status !== "success") throw new Error(`${promql}: ${body.errorType}: ${body.error}`);
  return body.data.result;
}

/** Prometheus' view of its scrape targets: [{ health, lastError, scrapeUrl }]. */
export async function targets(url) {
  const r = await fetch(`${url}/api/v1/targets`);
  const body = await r.json();
  return body.data.activeTargets.map((t) => ({ health: t.health, lastError: t.lastError, scrapeUrl: t.scrapeUrl }));
}
