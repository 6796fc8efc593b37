// Every page laid out for a 1,440 px desktop and a 390 px phone: nothing
// wider than the window (a wide table scrolls inside its own box), and the
// navigation and Sign out within reach.
import { expect, type Page, test } from "@playwright/test";

/** The pages a first hour visits: every navigation entry and one record of each kind. */
async function everyPage(page: Page): Promise<string[]> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  const pages = await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link")
    .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  expect(pages.length).toBeGreaterThan(10);
  for (const [list, prefix] of [
    ["/hosts", "/hosts/"],
    ["/aggregates", "/aggregates/"],
    ["/flavors", "/flavors/"],
    ["/images", "/images/"],
    ["/server-groups", "/server-groups/"],
    ["/instances", "/instances/"],
    ["/runs", "/runs/"],
  ] as const) {
    await page.goto(list);
    const hrefs = await page
      .locator(`main a[href^="${prefix}"], main a[href^="${list}?"][href*="edit="]`)
      .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    // a record's own page, or the list with its edit panel open
    const detail = hrefs.find(
      (h) =>
        (h.startsWith(prefix) && !h.includes("?") && h !== "/runs/compare") ||
        (h.startsWith(`${list}?`) && h.includes("edit=")),
    );
    if (detail) pages.push(detail);
  }
  return [...new Set(pages)];
}

async function overflow(page: Page): Promise<{ scroll: number; viewport: number }> {
  return page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
}

test("every page fits 1,440 px and 390 px windows; the navigation and Sign out stay in reach", async ({ page }) => {
  test.setTimeout(240_000);
  // a run, so that /runs has a record to open
  await page.goto("/schedule");
  await page.getByLabel("Flavor").selectOption("m1.small");
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /Run #\d+/ })).toBeVisible({ timeout: 20_000 });

  const pages = await everyPage(page);
  expect(pages.length, pages.join(" ")).toBeGreaterThanOrEqual(13 + 7);
  pages.push("/config?profile=stacking");
  const wide: string[] = [];
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      // charts size themselves after the first paint: the layout once it has settled
      await page.waitForLoadState("networkidle");
      const o = await overflow(page);
      if (o.scroll > o.viewport + 1) wide.push(`${path} at ${width}px: ${o.scroll}px wide`);
    }
  }
  expect(wide).toEqual([]);

  // at 390 px the last navigation link and Sign out are inside the window
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto("/");
  for (const el of [
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }),
    page.getByRole("button", { name: "Sign out" }),
  ]) {
    const box = await el.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  }
});

test("/capacity with a 12-flavor mix stays within 1,440 px", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/capacity");
  const flavors = await page
    .getByLabel("Flavor", { exact: true })
    .locator("option")
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
  expect(flavors.length).toBeGreaterThanOrEqual(12);
  for (let i = 1; i < 12; i++) await page.getByRole("button", { name: "Add a flavor" }).click();
  for (let i = 0; i < 12; i++) {
    await page.getByLabel(`Flavor ${i + 1}`, { exact: true }).selectOption(flavors[i]);
    await page.getByLabel(`Share (%) ${i + 1}`, { exact: true }).fill(i < 4 ? "9" : "8");
  }
  await page.getByLabel("Limit (boots)").fill("300");
  await page.getByRole("button", { name: "Fill", exact: true }).click();
  await expect(page.getByLabel("Instances that fit")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("table", { name: "Boots per availability zone" })).toBeVisible();
  await expect
    .poll(async () => {
      const o = await overflow(page);
      return o.scroll - o.viewport;
    })
    .toBeLessThanOrEqual(1);
});
