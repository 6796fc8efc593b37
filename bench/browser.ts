/**
 * npm run bench:browser: click to result on /schedule, in Chromium, on a
 * warm production server, at 1,000 and 10,000 hosts.
 *
 * For each size: a scratch SQLite database (migrated, `npm run seed -- --hosts
 * N`), the built app (`next build`, skipped when up to date) served by
 * `next start`, Debian's Chromium driven by Playwright (flags as in
 * playwright.config.ts). After two warm-up clicks (the first one loads the
 * snapshot into the server's memory), each flavor is scheduled five times;
 * a click is timed in the page, from the click to the frame after the
 * result's heading ("Run #N") is in the document ("click to result": the
 * chosen host, alternates, funnel and weights tables are rendered with it),
 * and to the frame after its charts are drawn (they are drawn once the text
 * has painted). Also printed: when the server action's answer had arrived
 * (resource timing) and the action's own total as the page shows it.
 * Prints the medians.
 *
 *   npm run bench:browser [-- --hosts 1000,10000] [--flavors m1.large,gpu.large] [--clicks 5]
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { childEnv, npmCmd, run } from "../scripts/lib/env.mjs";
import { ensureBuild, freePort, migrate } from "../scripts/lib/setup.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { median } from "./median";

const ROOT = path.resolve(__dirname, "..");
const CHROMIUM = CHROMIUM_PATH ?? "/usr/bin/chromium";
const GOALS: Record<number, number> = { 1000: 100, 10000: 300 };

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const BENCH_USER = "bench_operator";
const BENCH_PASSWORD = "bench-password-123";

async function waitForServer(url: string, server: ReturnType<typeof spawn>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within 150 s`);
}

/**
 * Runs in the page (a string: tsx's helpers must not leak into it): click
 * Schedule, resolve in the frame after a new "Run #N" heading appears.
 */
const TIMED_CLICK = `(async () => {
  const heading = () =>
    [...document.querySelectorAll("h2")].map((h) => h.textContent || "").find((t) => /^Run #\\d+/.test(t));
  const before = heading();
  const button = [...document.querySelectorAll("button")].find((b) => (b.textContent || "").trim() === "Schedule");
  if (!button) throw new Error("no Schedule button");
  const t0 = performance.now();
  const shown = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      const h = heading();
      if (h && h !== before) {
        obs.disconnect();
        requestAnimationFrame(() => resolve(h));
      }
    });
    obs.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  button.click();
  const run = await shown;
  const ms = performance.now() - t0;
  // the charts are drawn after the result's text has painted: time them too
  const pending = () => document.querySelector(".sc-result [data-chart-pending]");
  if (pending()) {
    await new Promise((resolve) => {
      const obs = new MutationObserver(() => {
        if (!pending()) {
          obs.disconnect();
          resolve(null);
        }
      });
      obs.observe(document.body, { subtree: true, childList: true });
    });
  }
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const chartsMs = performance.now() - t0;
  // the server action's answer: the first fetch of this page's URL after the click
  // (a server action posts to the page; later fetches are the views' own queries)
  const answer = performance
    .getEntriesByType("resource")
    .find((e) => e.initiatorType === "fetch" && e.startTime >= t0 && e.name === location.href);
  const responseMs = answer ? answer.responseEnd - t0 : null;
  const bytes = answer ? answer.encodedBodySize : null;
  performance.clearResourceTimings();
  const status = (document.querySelector('[role="status"]') || {}).textContent || "";
  // the engine's own time, as the result shows it ("engine 3.12 ms")
  const engineText = [...document.querySelectorAll(".sc-result li")]
    .map((li) => li.textContent || "")
    .find((t) => /^engine /.test(t));
  const engine = engineText ? /engine ([\\d.]+) (ms|s)/.exec(engineText) : null;
  const engineMs = engine ? Number(engine[1]) * (engine[2] === "s" ? 1000 : 1) : null;
  return { ms, chartsMs, run, status, responseMs, bytes, engineMs };
})()`;

/** One click on Schedule: ms from the click to the result on screen, and the server action's own total. */
async function timedClick(page: Page): Promise<{
  ms: number;
  chartsMs: number;
  run: string;
  serverMs: number | null;
  responseMs: number | null;
  bytes: number | null;
  engineMs: number | null;
}> {
  // ready for the next click: the button says "Schedule" again and is enabled
  await page.getByRole("button", { name: "Schedule", exact: true }).waitFor({ timeout: 120_000 });
  await page.waitForFunction(
    `[...document.querySelectorAll("button")].some((b) => (b.textContent || "").trim() === "Schedule" && !b.disabled)`,
    undefined,
    { timeout: 120_000 },
  );
  const out = (await page.evaluate(TIMED_CLICK)) as {
    ms: number;
    chartsMs: number;
    run: string;
    status: string;
    responseMs: number | null;
    bytes: number | null;
    engineMs: number | null;
  };
  // the status line says the server action's own total once the action has settled
  const status = page.getByRole("status").filter({ hasText: / in \d+ ms/ });
  await status.waitFor({ timeout: 120_000 });
  const m = / in (\d+) ms/.exec((await status.textContent()) ?? "");
  return {
    ms: out.ms,
    chartsMs: out.chartsMs,
    run: out.run,
    serverMs: m ? Number(m[1]) : null,
    responseMs: out.responseMs,
    bytes: out.bytes,
    engineMs: out.engineMs,
  };
}

async function benchSize(hosts: number, flavors: string[], clicks: number, dir: string) {
  const file = path.join(dir, `bench-${hosts}.db`);
  const url = `file:${file}`;
  const t0 = performance.now();
  migrate(url);
  run(npmCmd(), ["run", "-s", "seed", "--", "--hosts", String(hosts)], {
    env: childEnv({ DATABASE_URL: url }),
    quiet: true,
  });
  console.log(`${hosts} hosts seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  // Every page needs a signed-in user: an operator made with the users CLI.
  const users = spawnSync(
    path.join(ROOT, "node_modules", ".bin", "tsx"),
    ["lib/auth/users-cli.ts", "add", BENCH_USER, "--role", "operator"],
    {
      cwd: ROOT,
      input: `${BENCH_PASSWORD}\n`,
      encoding: "utf8",
      env: childEnv({ DATABASE_URL: url }),
    },
  );
  if (users.status !== 0) throw new Error(`users add ${BENCH_USER}: ${users.stdout}${users.stderr}`);
  ensureBuild(url);
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: url, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" }),
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const rows: Array<{ flavor: string; times: number[]; charts: number[]; answer: number[]; server: number[] }> = [];
  try {
    await waitForServer(`${base}/`, server);
    const page = await browser.newPage();
    await page.goto(`${base}/sign-in`);
    const signIn = page.getByRole("form", { name: "Sign in" });
    await signIn.getByLabel("Name").fill(BENCH_USER);
    await signIn.getByLabel("Password").fill(BENCH_PASSWORD);
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await page.getByText(`Signed in as ${BENCH_USER}`).waitFor();
    await page.goto(`${base}/schedule`);
    for (const flavor of flavors) {
      await page.getByLabel("Flavor").selectOption(flavor);
      const warmUp = [await timedClick(page), await timedClick(page)];
      const times: number[] = [];
      const engine: number[] = [];
      const charts: number[] = [];
      const server: number[] = [];
      const response: number[] = [];
      let bytes = 0;
      for (let i = 0; i < clicks; i++) {
        const t = await timedClick(page);
        times.push(t.ms);
        charts.push(t.chartsMs);
        if (t.serverMs !== null) server.push(t.serverMs);
        if (t.responseMs !== null) response.push(t.responseMs);
        if (t.bytes !== null) bytes = t.bytes;
        if (t.engineMs !== null) engine.push(t.engineMs);
      }
      rows.push({ flavor, times, charts, answer: response, server });
      console.log(
        `  ${flavor}: click to result ${times.map((t) => t.toFixed(0)).join(", ")} ms -> median ${median(times).toFixed(0)} ms` +
          `; charts drawn: median ${median(charts).toFixed(0)} ms` +
          ` (server action: median ${server.length ? median(server).toFixed(0) : "?"} ms;` +
          ` answer received after ${response.length ? median(response).toFixed(0) : "?"} ms, ${(bytes / 1024).toFixed(0)} KiB)`,
      );
      console.log(
        `  ${flavor}: engine ${warmUp.map((t) => t.engineMs?.toFixed(2) ?? "?").join(", ")} ms ` +
          `(server action ${warmUp.map((t) => t.serverMs ?? "?").join(", ")} ms) on the ` +
          `${rows.length === 1 ? "server's first two clicks" : "two warm-up clicks"}, median ${engine.length ? median(engine).toFixed(2) : "?"} ms after`,
      );
    }
  } finally {
    await browser.close();
    server.kill("SIGTERM");
  }
  return rows;
}

async function main() {
  const sizes = arg("hosts", "1000,10000").split(",").map(Number);
  const flavors = arg("flavors", "m1.large,gpu.large").split(",");
  const clicks = Number(arg("clicks", "5"));
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-bench-browser-"));
  console.log(
    `Click to result on /schedule (median of ${clicks} after 2 warm-up clicks; ${os.cpus().length} CPUs, ` +
      `load average ${os.loadavg()[0].toFixed(1)} at start)`,
  );
  const summary: string[] = [];
  try {
    for (const hosts of sizes) {
      const rows = await benchSize(hosts, flavors, clicks, dir);
      for (const r of rows) {
        const med = median(r.times);
        const goal = GOALS[hosts];
        summary.push(
          `| ${hosts.toLocaleString("en-US")} | ${r.flavor} | ${med.toFixed(0)} | ${median(r.charts).toFixed(0)} | ${
            r.answer.length ? median(r.answer).toFixed(0) : "—"
          } | ${r.server.length ? median(r.server).toFixed(0) : "—"} | ${
            goal ? `< ${goal} ms: ${med < goal ? "met" : "NOT met"}` : "—"
          } |`,
        );
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    "\n| hosts | flavor | click to result ms | charts drawn ms | answer received ms | server action ms | goal (click to result) |",
  );
  console.log("| ---: | --- | ---: | ---: | ---: | ---: | --- |");
  for (const s of summary) console.log(s);
  console.log(`\nload average ${os.loadavg()[0].toFixed(1)} at the end`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
