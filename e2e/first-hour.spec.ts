// An operator's first hour: each result checked against a re-run, destructive
// changes confirmed and reported, Nova's own verdict on extra specs, errors in
// operator words, readable charts, a viewer told why, and a skip link.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { storageStateFile } from "./auth";
import { queryAll } from "./db";
import { createAggregate, firstHostToEnable, form, uid } from "./ui-helpers";

async function scheduleSmall(page: Page): Promise<void> {
  await page.goto("/schedule");
  await page.getByLabel("Flavor").selectOption("m1.small");
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /Run #\d+/ })).toBeVisible({ timeout: 20_000 });
}

async function newAggregate(page: Page): Promise<string> {
  const name = `e2e-hour-${uid()}`;
  await createAggregate(page, name);
  return name;
}

test("1. build_failure_weight_multiplier: the winner holds upwards from its flip, as a re-run confirms", async ({
  page,
}) => {
  await scheduleSmall(page);
  const table = page.getByRole("table", { name: "Weight sensitivity" });
  await expect(table).toBeVisible({ timeout: 20_000 });
  const row = table.getByRole("row", { name: /build_failure_weight_multiplier/ });
  // a larger multiplier only weighs failed builds down more: never a flip above
  await expect(row.getByRole("cell").nth(2)).toContainText(/… \+∞$/);
  const now = Number(((await row.getByRole("cell").first().textContent()) ?? "").replace(/,/g, ""));
  const f = page.getByRole("form", { name: "Try a multiplier" });
  await f.getByLabel("Multiplier").selectOption("build_failure_weight_multiplier");
  await f.getByLabel("Value").fill(String(now * 10));
  await f.getByRole("button", { name: "Re-run with this value" }).click();
  await expect(page.getByRole("status", { name: "Re-run with the multiplier" })).toContainText("still wins");
  // the sensitivity and what-if controls are styled like the rest of the forms
  const border = await f.getByLabel("Value").evaluate((el) => getComputedStyle(el).borderTopLeftRadius);
  expect(border).not.toBe("0px");
});

test("2. what-if Apply asks first; cancelling changes nothing, confirming reports and offers the re-run", async ({
  page,
}) => {
  await scheduleSmall(page);
  const host = await firstHostToEnable(page);
  expect(host).not.toBe("");
  const apply = page.getByRole("button", { name: `Apply: enable the compute service on ${host}` });
  const disabled = () =>
    queryAll<{ d: number }>(`SELECT serviceDisabled AS d FROM "ComputeHost" WHERE name = ?`, host)[0].d;

  let question = "";
  page.once("dialog", (d) => {
    question = d.message();
    void d.dismiss();
  });
  await apply.click();
  await expect.poll(() => question).toContain(`enable the compute service on ${host}`);
  expect(disabled()).toBe(1);
  await expect(page.getByRole("status", { name: "Applied change" })).toHaveCount(0);

  page.once("dialog", (d) => void d.accept());
  await apply.click();
  await expect(page.getByRole("status", { name: "Applied change" })).toContainText(
    `Applied to the cloud: enable the compute service on ${host}`,
  );
  expect(disabled()).toBe(0);
  await expect(page.getByRole("button", { name: "Re-run the request" })).toBeVisible();
});

test("4. a typo in an extra spec is refused in Nova's words; an aggregate allocation ratio says Nova ignores it", async ({
  page,
}) => {
  await page.goto("/flavors");
  await page.locator('main a[href^="/flavors/"]').first().click();
  const add = form(page, "Add extra spec");
  await add.getByLabel("New key").fill("hw:cpu_polcy");
  await add.getByLabel("New value").fill("shared");
  await expect(add).toContainText(
    "Validation failed; extra spec 'hw:cpu_polcy' does not appear to be a valid extra spec.",
  );
  await add.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByLabel("Value of hw:cpu_polcy")).toHaveCount(0);

  await newAggregate(page);
  const meta = form(page, "Add metadata");
  await meta.getByLabel("New key").fill("cpu_allocation_ratio");
  await meta.getByLabel("New value").fill("abc");
  await expect(meta).toContainText("Nova no longer reads allocation ratios from aggregates");
});

test("5 and 6. metadata: a stale error goes when typing; removing a key asks and says so", async ({ page }) => {
  await newAggregate(page);
  const add = form(page, "Add metadata");
  await add.getByLabel("New key").fill("max_instances_per_host");
  await add.getByLabel("New value").fill("many");
  await add.getByRole("button", { name: "Add", exact: true }).click();
  const status = add.locator("xpath=..").getByRole("alert");
  await expect(status).toBeVisible();
  await add.getByLabel("New key").fill("ssd");
  await add.getByLabel("New value").fill("true");
  await expect(status).toHaveCount(0);
  await add.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByLabel("Value of ssd")).toHaveValue("true");

  let question = "";
  page.once("dialog", (d) => {
    question = d.message();
    void d.dismiss();
  });
  await page.getByRole("button", { name: "Remove ssd" }).click();
  await expect.poll(() => question).toContain("Remove ssd");
  await expect(page.getByLabel("Value of ssd")).toHaveValue("true");
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Remove ssd" }).click();
  await expect(page.getByRole("status", { name: "Removed key" })).toContainText("Removed ssd.");
  await expect(page.getByLabel("Value of ssd")).toHaveCount(0);
});

test("5. errors in operator words: no exception class, reasons read reason then count, one 'no host' message", async ({
  page,
}) => {
  await page.goto("/hosts?q=no-such-host-anywhere");
  await expect(page.getByText(/No host matches/)).toHaveCount(1);

  await page.goto("/capacity");
  await page.getByLabel("Flavor", { exact: true }).selectOption("m1.large");
  await page.getByLabel("Scheduler profile").selectOption("default");
  await page.getByRole("button", { name: "Fill", exact: true }).click();
  const stop = page.getByRole("region", { name: "Why the fill stopped" });
  await expect(stop).toContainText("failed: No valid host", { timeout: 60_000 });
  await expect(stop).not.toContainText("NoValidHost");
  const reasons = await stop
    .getByRole("table", { name: "Funnel of the failing boot" })
    .locator("td:last-child")
    .allTextContents();
  for (const r of reasons.filter(Boolean)) expect(r).toMatch(/: [\d,]+ hosts?(;|$)/);
  expect(reasons.join(" ")).not.toMatch(/\b\d+ \d+ instances already/);
  await expect(page.getByText("Largest flavor that still fits on one host")).toHaveCount(0);
  await expect(page.getByRole("main")).toContainText("no flavor boots here without changing what stopped it");
  await expect(page.getByText(/StopIteration|Error: [A-Z][a-zA-Z]+$/)).toHaveCount(0);
});

test("6. leaving a profile with unsaved edits asks first", async ({ page }) => {
  await page.goto("/config");
  const editor = page.getByRole("form", { name: /^Edit profile / });
  const attempts = editor.getByLabel("max_attempts", { exact: true });
  await attempts.fill(String(Number((await attempts.inputValue()) || "3") + 1));
  let question = "";
  page.once("dialog", (d) => {
    question = d.message();
    void d.dismiss();
  });
  const url = page.url();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Hosts" }).click();
  await expect.poll(() => question).toContain("changes that are not saved");
  expect(page.url()).toBe(url);
});

async function asViewer(browser: Browser) {
  const context = await browser.newContext({ storageState: storageStateFile("viewer") });
  return { context, page: await context.newPage() };
}

test("6. a viewer sees why buttons are disabled, and read-only fields", async ({ browser, page }) => {
  const name = await newAggregate(page);
  const { context, page: viewer } = await asViewer(browser);
  try {
    await viewer.goto(`/aggregates/${encodeURIComponent(name)}`);
    await expect(viewer.getByRole("note")).toContainText("signed in as a viewer");
    const add = form(viewer, "Add metadata");
    await expect(add.getByLabel("New key")).toHaveAttribute("readonly", "");
    const button = add.getByRole("button", { name: "Add", exact: true });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription("needs admin");
    await expect(add.getByText("needs admin")).toBeVisible();
  } finally {
    await context.close();
  }
});

test("7. charts: the scatter's axes have units, compare names the weigher that moved, and a favicon", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/image/);

  await page.goto("/capacity");
  // a small flavor fills hosts down to under 1 GiB of RAM with vCPUs left: stranded capacity
  await page.getByLabel("Flavor", { exact: true }).selectOption("m1.small");
  await page.getByRole("button", { name: "Fill", exact: true }).click();
  const scatter = page.getByRole("figure", { name: "Hosts with stranded capacity" });
  await expect(scatter).toBeVisible({ timeout: 90_000 });
  await expect(scatter).toContainText("free vCPUs per host");
  await expect(scatter).toContainText("free RAM (GiB)");

  await scheduleSmall(page);
  await page.getByLabel("Re-run under release").selectOption("2025.1");
  await page.getByRole("button", { name: "Re-run and compare" }).click();
  const moved = page.getByRole("list", { name: "Weighers that moved" }).first();
  await expect(moved).toBeVisible({ timeout: 30_000 });
  await expect(moved).toContainText("HypervisorVersionWeigher weighs only in B");
});

test("8. the first Tab reaches 'Skip to main content', which moves focus to the page", async ({ page }) => {
  await page.goto("/schedule");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});
