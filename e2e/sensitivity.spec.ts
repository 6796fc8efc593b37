// Weight sensitivity beside the weights chart: ranges, and a multiplier that flips the winner.
import { expect, test } from "@playwright/test";

test("a run's weight sensitivity: try a multiplier past its flip point and see the winner change", async ({ page }) => {
  await page.goto("/schedule");
  await page.getByLabel("Flavor").selectOption("m1.small");
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /Run #\d+/ })).toBeVisible({ timeout: 20_000 });

  const table = page.getByRole("table", { name: "Weight sensitivity" });
  await expect(table).toBeVisible({ timeout: 20_000 });
  const ram = table.getByRole("row", { name: /ram_weight_multiplier/ });
  await expect(ram).toBeVisible();

  // the configured value keeps the winner
  const form = page.getByRole("form", { name: "Try a multiplier" });
  await form.getByLabel("Multiplier").selectOption("ram_weight_multiplier");
  await form.getByLabel("Value").fill((await ram.getByRole("cell").first().textContent()) ?? "1");
  await form.getByRole("button", { name: "Re-run with this value" }).click();
  const status = page.getByRole("status", { name: "Re-run with the multiplier" });
  await expect(status).toContainText("still wins");

  // just past a flip point, another host wins
  await ram
    .getByRole("button", { name: /^Try ram_weight_multiplier = / })
    .first()
    .click();
  await expect(status).toContainText("the winner flips to");
});
