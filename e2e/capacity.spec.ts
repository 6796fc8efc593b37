// Capacity by filling: the /capacity journey on the demo cloud.
import { expect, test } from "@playwright/test";
import { queryAll } from "./db";

test.describe("Capacity page", () => {
  test("fill m1.large: the count, boots per AZ and why the last boot failed", async ({ page }) => {
    const hosts = queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "ComputeHost"`)[0].n;
    await page.goto("/capacity");
    await expect(page.getByRole("heading", { level: 1, name: "Capacity" })).toBeVisible();
    await page.getByLabel("Flavor", { exact: true }).selectOption("m1.large");
    await page.getByLabel("Scheduler profile").selectOption("default");
    await page.getByRole("button", { name: "Fill", exact: true }).click();

    const count = page.getByLabel("Instances that fit");
    await expect(count).toBeVisible({ timeout: 60_000 });
    const n = Number(((await count.locator("strong").textContent()) ?? "").replace(/,/g, ""));
    expect(n).toBeGreaterThan(0);
    await expect(count).toContainText("× m1.large fit");

    // the progress bar ends full, on the count
    const progress = page.getByRole("progressbar", { name: /Fill progress/ });
    await expect(progress).toHaveAttribute("value", (await progress.getAttribute("max")) ?? "");
    await expect(progress).toHaveAttribute("aria-valuetext", `done: ${n} boots`);

    // a stacked bar per AZ, and the same numbers in a table that sum to the count
    await expect(page.getByRole("figure", { name: "Boots per availability zone" })).toBeVisible();
    await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();
    const table = page.getByRole("table", { name: "Boots per availability zone" });
    const totals = await table.locator("tbody tr td:last-child").allTextContents();
    expect(totals.length).toBeGreaterThanOrEqual(2);
    expect(totals.reduce((s, t) => s + Number(t.replace(/,/g, "")), 0)).toBe(n);

    // why it stopped: NoValidHost for the next boot, every host accounted for
    const stop = page.getByRole("region", { name: "Why the fill stopped" });
    await expect(stop).toContainText(`Boot ${(n + 1).toLocaleString("en-US")} (m1.large) failed: No valid host`);
    await expect(stop).toContainText(`0/${hosts} hosts available`);
    await expect(stop.getByRole("table", { name: "Funnel of the failing boot" })).toContainText("NumInstancesFilter");
  });

  test("bad input is refused with the field and the rule", async ({ page }) => {
    await page.goto("/capacity");
    const limit = page.getByLabel("Limit (boots)");
    for (const [value, message] of [
      ["0", "limit: must be at least 1 boot"],
      ["1000000000", "limit: at most 1,000,000 boots per fill"],
    ] as const) {
      await limit.fill(value);
      await page.getByRole("button", { name: "Fill", exact: true }).click();
      await expect(page.getByRole("alert").filter({ hasText: message })).toBeVisible();
      await expect(limit).toHaveAttribute("aria-invalid", "true");
    }
    await limit.fill("100");

    // proportions that do not sum
    await page.getByRole("button", { name: "Add a flavor" }).click();
    await page.getByLabel("Share (%) 1").fill("50");
    await page.getByLabel("Share (%) 2").fill("30");
    await page.getByRole("button", { name: "Fill", exact: true }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "mix: proportions must sum to 100% (or to 1); they sum to 80" }),
    ).toBeVisible();

    // an empty mix
    await page.getByRole("button", { name: "Clear the mix" }).click();
    await page.getByRole("button", { name: "Fill", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "mix: name at least one flavor to boot" })).toBeVisible();
    await expect(page.getByLabel("Instances that fit")).toHaveCount(0);
  });

  test("today's instance mix fills with every flavor in proportion", async ({ page }) => {
    await page.goto("/capacity");
    await page.getByRole("button", { name: "Use today's instance mix" }).click();
    const shares = await page
      .getByLabel(/^Share \(%\)/)
      .evaluateAll((els) => els.map((e) => Number((e as HTMLInputElement).value)));
    expect(shares.length).toBeGreaterThanOrEqual(2);
    expect(Math.abs(shares.reduce((a, b) => a + b, 0) - 100)).toBeLessThan(1e-6);
    await page.getByLabel("Limit (boots)").fill("200");
    await page.getByRole("button", { name: "Fill", exact: true }).click();
    await expect(page.getByLabel("Instances that fit")).toContainText("200", { timeout: 60_000 });
    await expect(page.getByRole("region", { name: "Why the fill stopped" })).toContainText(
      "the limit of 200 boots was reached",
    );
  });

  test("A/B: the same 300 boots spread under default and packed under stacking", async ({ page }) => {
    await page.goto("/capacity");
    await page.getByLabel("Flavor", { exact: true }).selectOption("m1.large");
    await page.getByLabel("Limit (boots)").fill("300");
    await page.getByLabel("Scheduler profile").selectOption("default");
    await page.getByLabel("Profile B").selectOption("stacking");
    await page.getByRole("button", { name: "Compare" }).click();
    const table = page.getByRole("table", { name: "A/B comparison" });
    await expect(table).toBeVisible({ timeout: 60_000 });
    await expect(table.getByRole("row", { name: /Instances placed/ })).toContainText("300");
    const used = await table
      .getByRole("row", { name: /Hosts used/ })
      .getByRole("cell")
      .allTextContents();
    const [a, b] = used.map((t) => Number(t.replace(/,/g, "")));
    expect(b).toBeLessThan(a);

    // the same profile twice is refused
    await page.getByLabel("Profile B").selectOption("default");
    await page.getByRole("button", { name: "Compare" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "profileB: choose a profile other than A" })).toBeVisible();
  });
});
