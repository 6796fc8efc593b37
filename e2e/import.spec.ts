/**
 * Loading your own cloud: upload a bundle on /import, read the preview,
 * confirm, see the hosts; export a profile as nova.conf and import it back.
 * Importing replaces the whole cloud, so these tests run against their own
 * server on a copy of the e2e database: the other specs' cloud is untouched.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { effectiveConfig } from "../lib/openstack/nova-conf";
import { queryFile, serveCopy } from "./server";

const FIXTURES = path.resolve(__dirname, "..", "lib", "openstack", "fixtures");

let tmp: string;
let dbFile: string;
let server: ChildProcess | undefined;
let base: string;

function query<T>(sql: string, ...params: unknown[]): T[] {
  return queryFile<T>(dbFile, sql, ...params);
}

const hostCount = () => query<{ n: number }>(`SELECT count(*) AS n FROM "ComputeHost"`)[0].n;
/** Service hosts: the nodes of one Ironic service host count once, as the import preview counts hosts. */
const serviceHostCount = () =>
  query<{ n: number }>(`SELECT count(DISTINCT COALESCE("serviceHost", name)) AS n FROM "ComputeHost"`)[0].n;

/** A bundle directory of fixtures/ as the .tar.gz collect-openstack.sh writes. */
function tarball(fixture: string): string {
  const out = path.join(tmp, `${fixture}.tar.gz`);
  execFileSync("tar", ["-czf", out, "-C", FIXTURES, fixture]);
  return out;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-import-e2e-"));
  ({ dbFile, base, server } = await serveCopy(tmp, "import"));
});

test.afterAll(async () => {
  if (server?.pid) server.kill("SIGTERM");
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function upload(page: Page, file: string) {
  await page.goto(`${base}/import`);
  await page.getByLabel("OpenStack bundle (.tar.gz, at most 200 MB)").setInputFiles(file);
  await page.getByRole("button", { name: "Upload and preview" }).click();
}

function changesRow(page: Page, kind: string) {
  return page.getByRole("table", { name: "Changes by kind" }).getByRole("row", { name: new RegExp(`^${kind}\\b`) });
}

test("upload a bundle, read the preview, confirm, see the hosts", async ({ page }) => {
  test.setTimeout(120_000);
  const before = hostCount();
  await upload(page, tarball("modern"));
  await expect(page.getByRole("heading", { name: "2. What changes" })).toBeVisible({ timeout: 60_000 });
  // the demo cloud's hosts go, the bundle's three come
  await expect(changesRow(page, "hosts").getByRole("cell")).toHaveText(["3", "0", String(serviceHostCount()), "0"]);
  await expect(changesRow(page, "server groups").getByRole("cell").first()).toHaveText("1");
  await expect(page.getByText(/nova.conf becomes the scheduler profile imported-nova-conf \(new\)/)).toBeVisible();
  await expect(page.getByText(/have no row in compute-nodes.json \(cmp-002.cloud.example\)/)).toBeVisible();
  // every option of its nova.conf, kept into which key, ignored (why) or unknown
  const report = page.getByRole("table", { name: "nova.conf, option by option" });
  await expect(report.getByRole("row", { name: /\[filter_scheduler\] use_baremetal_filters .*unknown/ })).toBeVisible();
  await expect(report.getByRole("row", { name: /\[filter_scheduler\] host_subset_size .*kept/ })).toBeVisible();
  expect(hostCount()).toBe(before); // a preview writes nothing

  await page.getByRole("button", { name: "Replace the cloud" }).click();
  await expect(page).toHaveURL(/\/hosts$/, { timeout: 60_000 });
  for (const name of ["cmp-001", "cmp-002", "gpu-001"]) {
    await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
  }
  expect(hostCount()).toBe(3);
  expect(query<{ name: string }>(`SELECT name FROM "SchedulerProfile" WHERE active = 1`)[0].name).toBe(
    "imported-nova-conf",
  );
});

test("an Ironic bundle: its nodes come in under their service host, and a bare-metal flavor lands on a free node", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await upload(page, tarball("ironic"));
  await expect(page.getByRole("heading", { name: "2. What changes" })).toBeVisible({ timeout: 60_000 });
  await expect(changesRow(page, "hosts").getByRole("cell").first()).toHaveText("2");
  await page.getByRole("button", { name: "Replace the cloud" }).click();
  await expect(page).toHaveURL(/\/hosts$/, { timeout: 60_000 });
  expect(query<{ name: string }>(`SELECT name FROM "ComputeHost" ORDER BY position`).map((h) => h.name)).toEqual([
    "gpu-01",
    "ironic-conductor-1",
    "4a7b8c9d-0001-4e2f-9a3b-5c6d7e8f9a02",
    "4a7b8c9d-0001-4e2f-9a3b-5c6d7e8f9a03",
  ]);

  // the vGPU host's page lists its child provider
  await page.goto(`${base}/hosts/gpu-01`);
  await expect(
    page
      .getByRole("table", { name: /Resource providers under gpu-01.cloud.example/ })
      .getByRole("row", { name: /gpu-01.cloud.example_pci_0000_81_00_0 .*VGPU 16 1/ }),
  ).toBeVisible();

  // bm.gold on the default profile (Placement): the free gold node of the Ironic host
  await page.goto(`${base}/schedule`);
  await page.getByLabel("Flavor").selectOption("bm.gold");
  await page.getByLabel("Image").selectOption("");
  await page.getByLabel("Scheduler profile").selectOption("default");
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /Run #\d+/ })).toBeVisible({ timeout: 60_000 });
  // the chosen host, as the result lists it
  await expect(page.getByRole("list", { name: "Placement", exact: true })).toContainText("ironic-conductor-1");
  await expect(page.getByText(/filters only: no Placement/)).toHaveCount(0);
});

test("bad bundles: a clear message each, nothing written", async ({ page }) => {
  test.setTimeout(120_000);
  const before = hostCount();

  // a truncated tarball
  const whole = fs.readFileSync(tarball("modern"));
  const truncated = path.join(tmp, "truncated.tar.gz");
  fs.writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
  await upload(page, truncated);
  const alert = page.getByRole("alert").filter({ hasText: "The bundle was not imported" });
  await expect(alert).toContainText("Nothing was written");
  await expect(alert).toContainText("the upload: is not a complete .tar.gz (truncated or corrupt");

  // a file that is not JSON, and an aggregate naming an unknown host
  await upload(page, tarball("broken"));
  await expect(alert).toContainText("flavor-list.json: is not valid JSON");
  await expect(alert).toContainText('aggregate "gpu-a100" names unknown host "cmp-999"');

  // over 200 MB: refused before anything is sent
  const big = path.join(tmp, "huge.tar.gz");
  fs.closeSync(fs.openSync(big, "w"));
  fs.truncateSync(big, 200 * 1024 * 1024 + 1);
  await upload(page, big);
  await expect(alert).toContainText("huge.tar.gz: is 200.0 MB; a bundle may be at most 200.0 MB");

  expect(hostCount()).toBe(before);
});

test("export the active profile as nova.conf, import it back: the same profile", async ({ page }) => {
  const active = query<{ name: string; config: string }>(
    `SELECT name, config FROM "SchedulerProfile" WHERE active = 1`,
  )[0];
  await page.goto(`${base}/config?profile=${encodeURIComponent(active.name)}`);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export as nova.conf" }).click();
  const file = path.join(tmp, "exported-nova.conf");
  await (await download).saveAs(file);
  expect(fs.readFileSync(file, "utf8")).toContain("[filter_scheduler]");

  const name = `from-nova-conf-${Date.now().toString(36)}`;
  const form = page.getByRole("form", { name: "Import nova.conf" });
  await form.getByLabel("nova.conf file").setInputFiles(file);
  await form.getByLabel("Profile name").fill(name);
  await form.getByRole("button", { name: "Import nova.conf" }).click();
  await expect(page.getByRole("status").filter({ hasText: `nova.conf imported as profile ${name}` })).toBeVisible();
  const imported = query<{ config: string }>(`SELECT config FROM "SchedulerProfile" WHERE name = ?`, name)[0];
  expect(effectiveConfig(JSON.parse(imported.config))).toEqual(effectiveConfig(JSON.parse(active.config)));
});
