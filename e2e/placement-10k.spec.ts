// A 10,000-host cloud on Nova's Placement path with max_placement_results
// 1,000: the page shows that Placement returned 1,000 hosts, that the other
// 9,000 were never considered by the filters, and why, host by host.
//
// The shared e2e database holds the demo cloud every other spec relies on, so
// this spec imports its own cloud (the scenario CLI, the app's import path)
// into a scratch database and serves the same build from it with `next
// start` on a second port, once for the whole file.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { E2E_PASSWORD, ROOT, signIn } from "./auth";
import { BEYOND_THE_LIMIT, placementCloud } from "./fixtures/placement-cloud";

const USER = "e2e_p10k_operator";

let dir = "";
let server: ChildProcess | null = null;
let baseURL = "";
let page: Page;

function tsx(args: string[], env: NodeJS.ProcessEnv, input = ""): void {
  const r = spawnSync(path.join(ROOT, "node_modules", ".bin", "tsx"), args, {
    cwd: ROOT,
    env,
    input,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`tsx ${args.join(" ")}: ${r.stdout}${r.stderr}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, proc: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (proc.exitCode !== null) throw new Error(`next start exited with ${proc.exitCode}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

async function startCloud(browser: Browser): Promise<void> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-e2e-p10k-"));
  const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, "p10k.db")}` };
  const file = path.join(dir, "p10k.json");
  fs.writeFileSync(file, JSON.stringify(placementCloud()));
  tsx(["lib/scenario/cli.ts", "import", file, "--profile", "placement-10k"], env);
  tsx(["lib/auth/users-cli.ts", "add", USER, "--role", "operator"], env, `${E2E_PASSWORD}\n`);
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  server = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: ROOT,
      env: { ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  await waitForServer(`${baseURL}/sign-in`, server);
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  page = await context.newPage();
  await signIn(page, USER);
}

async function schedule(flavor: string): Promise<void> {
  await page.goto("/schedule");
  // the imported scenario's config is the active profile: Placement path, max_placement_results 1000
  await expect(page.getByLabel("Scheduler profile").locator("option:checked")).toHaveText("placement-10k (active)");
  await page.getByLabel("Flavor").selectOption(flavor);
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("link", { name: /^Open run #\d+$/ })).toBeVisible({ timeout: 30_000 });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }, info) => {
  info.setTimeout(120_000);
  await startCloud(browser);
});

test.afterAll(async () => {
  await page?.context().close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("Placement returns 1,000 of 10,000 hosts: the other 9,000 were never considered, and the page says why", async () => {
  test.setTimeout(60_000);
  await schedule("m1.large");
  await expect(page.getByRole("status").filter({ hasText: /Run #\d+: placed on cmp-\d+/ })).toBeVisible();

  // the funnel's first stage is Placement: 10,000 in, 1,000 out, and the reason for the 9,000
  const placementRow = page
    .getByRole("table", { name: "Funnel, instance 1" })
    .getByRole("row", { name: /^Placement\b/ });
  await expect(placementRow.getByRole("cell")).toHaveText([
    "10,000",
    "1,000",
    "9,000",
    "matched, but not among the first 1,000 allocation candidates (max_placement_results = 1000): never considered by the filters × 9,000",
  ]);

  // the Placement panel says it in one sentence, with the counts
  const panel = page.getByRole("region", { name: "Placement (allocation candidates)" });
  await expect(panel.getByRole("note", { name: "Placement summary" })).toHaveText(
    "Placement returned 1,000 of 10,000 hosts (max_placement_results = 1000): 9,000 hosts that matched the request were never considered by the filters and weighers, because they were not among the first 1,000 allocation candidates.",
  );
  await expect(panel.getByRole("definition").nth(3)).toHaveText("9,000");
  await expect(panel.getByRole("table", { name: "Placement query" }).getByRole("row", { name: /^limit/ })).toHaveText(
    "limit1000",
  );

  // one of those hosts, looked up by name: removed by Placement, and why
  await page.getByLabel("Why not host…").fill(BEYOND_THE_LIMIT);
  await expect(page.getByRole("region", { name: "Host fates" })).toContainText(
    `${BEYOND_THE_LIMIT}: removed by Placement — matched, but not among the first 1,000 allocation candidates (max_placement_results = 1000)`,
  );
});

test("hosts that would pass sit beyond the first 1,000: NoValidHost names them and says to raise max_placement_results", async () => {
  test.setTimeout(60_000);
  // gpu.large needs the gpu aggregate, whose hosts are all beyond the first 1,000 candidates
  await schedule("gpu.large");
  await expect(page.getByRole("heading", { name: "No valid host" })).toBeVisible();
  await expect(
    page.getByText(/^0\/10,000 hosts available: 9,000 not among the first 1,000 allocation candidates, /),
  ).toBeVisible();
  await expect(page.getByRole("list", { name: "What to change" })).toContainText(
    "9,000 hosts matched Placement but were never considered (beyond max_placement_results): raise max_placement_results in the profile.",
  );
});
