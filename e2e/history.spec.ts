/**
 * The cloud's history on a copy of the demo database: importing a bundle
 * adds a snapshot beside the seeded one; /history lists both, shows the diff
 * by section and the predictions for the new servers; an unknown snapshot
 * is named, not a 500; the trial form offers "As of" the older snapshot.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { queryFile, serveCopy } from "./server";

const FIXTURES = path.resolve(__dirname, "..", "lib", "openstack", "fixtures");

let tmp: string;
let dbFile: string;
let server: ChildProcess | undefined;
let base: string;

const snapshots = () => queryFile<{ id: number }>(dbFile, `SELECT id FROM "HistorySnapshot" ORDER BY "takenAt", id`);

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-history-e2e-"));
  ({ dbFile, base, server } = await serveCopy(tmp, "history"));
});

test.afterAll(async () => {
  if (server?.pid) server.kill("SIGTERM");
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test("a bundle import is a snapshot; the history shows the diff and the predictions", async ({ page }) => {
  test.setTimeout(180_000);
  const before = snapshots().length;
  expect(before).toBeGreaterThan(0); // the demo seed's snapshot
  // compute nodes: the diff names each node of a service host with several (Ironic) apart
  const demoHosts = queryFile<{ n: number }>(dbFile, `SELECT count(*) AS n FROM "ComputeHost"`)[0].n;

  const bundle = path.join(tmp, "modern.tar.gz");
  execFileSync("tar", ["-czf", bundle, "-C", FIXTURES, "modern"]);
  await page.goto(`${base}/import`);
  await page.getByLabel("OpenStack bundle (.tar.gz, at most 200 MB)").setInputFiles(bundle);
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await page.getByRole("button", { name: "Replace the cloud" }).click({ timeout: 60_000 });
  await expect(page).toHaveURL(/\/hosts$/, { timeout: 60_000 });
  const ids = snapshots().map((s) => s.id);
  expect(ids.length).toBe(before + 1);
  const [older, newest] = ids.slice(-2);

  await page.getByRole("navigation").getByRole("link", { name: "History" }).click();
  await expect(page.getByRole("heading", { name: "History", level: 1 })).toBeVisible();
  const list = page.getByRole("table", { name: "Snapshots" });
  await expect(
    list.getByRole("row", { name: new RegExp(`^#${newest} .* bundle .*\\(upload on /import\\)`) }),
  ).toBeVisible();
  await expect(list.getByRole("row", { name: new RegExp(`^#${older} `) })).toBeVisible();

  // by default: the newest beside the one before it
  await expect(page.getByRole("heading", { name: `Changes from #${older} to #${newest}` })).toBeVisible();
  const hosts = page.getByRole("table", { name: "Host changes" });
  await expect(
    hosts
      .getByRole("row", { name: /^added / })
      .getByRole("cell")
      .first(),
  ).toHaveText("3");
  await expect(hosts.getByRole("row", { name: /^added / })).toContainText("cmp-001");
  await expect(
    hosts
      .getByRole("row", { name: /^removed / })
      .getByRole("cell")
      .first(),
  ).toHaveText(demoHosts.toLocaleString("en-US"));
  await expect(page.getByRole("table", { name: "Usage per availability zone" })).toBeVisible();
  await expect(
    page.getByRole("table", { name: "Instance changes" }).getByRole("row", { name: /^created / }),
  ).toBeVisible();

  // predictions: the bundle's servers beside where Schedscope puts them on the demo cloud
  await expect(page.getByRole("heading", { name: `Predictions for snapshot #${newest}` })).toBeVisible();
  await expect(page.getByLabel("Agreement")).toHaveText(/Agreement: \d+ of \d+ \(\d+ %\)|No server to compare/);

  // any two: the form's choice is the page's address
  await page.getByLabel("From snapshot").selectOption(String(newest));
  await page.getByLabel("To snapshot").selectOption(String(older));
  await page.getByRole("button", { name: "Show the diff" }).click();
  await expect(page).toHaveURL(new RegExp(`a=${newest}&b=${older}`));
  await expect(page.getByRole("heading", { name: `Changes from #${newest} to #${older}` })).toBeVisible();
  await expect(
    page
      .getByRole("table", { name: "Host changes" })
      .getByRole("row", { name: /^removed / })
      .getByRole("cell")
      .first(),
  ).toHaveText("3");
});

test("an unknown snapshot is named; the trial can run as of an older snapshot", async ({ page }) => {
  await page.goto(`${base}/history?a=999999&b=1`);
  await expect(page.getByRole("alert").filter({ hasText: "Snapshot #999999 does not exist" })).toBeVisible();

  const [older] = snapshots().map((s) => s.id);
  await page.goto(`${base}/schedule`);
  const asOf = page.getByLabel("As of");
  await expect(asOf.getByRole("option", { name: new RegExp(`^#${older} `) })).toHaveCount(1);
});
