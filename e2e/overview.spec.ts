// The overview (/): capacity per availability zone, cell and aggregate (charts
// + tables), hosts out of rotation with their reasons, the latest runs.
import { expect, test } from "@playwright/test";
import { queryAll } from "./db";

test.describe("Overview", () => {
  test("shows capacity per zone, cell and aggregate as charts and tables", async ({ page }) => {
    const cells = queryAll<{ name: string }>(`SELECT name FROM "Cell" ORDER BY name`);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }),
    ).toHaveAttribute("aria-current", "page");
    for (const title of ["Capacity by availability zone", "Capacity by cell", "Capacity by aggregate"]) {
      const section = page.getByRole("region", { name: title });
      await expect(section.getByRole("figure")).toHaveCount(3);
      // recharts draws the bars once mounted
      await expect(section.locator(".recharts-bar-rectangle").first()).toBeVisible();
      await expect(section.getByRole("table")).toBeVisible();
    }
    const byCell = page.getByRole("region", { name: "Capacity by cell" }).getByRole("table");
    for (const c of cells) await expect(byCell.getByRole("rowheader", { name: c.name, exact: true })).toBeVisible();
    await expect(byCell.getByRole("columnheader", { name: "vCPU used / total" })).toBeVisible();
  });

  test("lists hosts out of rotation with their reasons, and links the latest runs", async ({ page }) => {
    const disabled = queryAll<{ name: string; disabledReason: string | null }>(
      `SELECT name, disabledReason FROM "ComputeHost" WHERE serviceDisabled AND disabledReason IS NOT NULL AND serviceUp AND NOT forcedDown ORDER BY position LIMIT 1`,
    );
    const runs = queryAll<{ id: number }>(`SELECT id FROM "SchedulingRun" ORDER BY createdAt DESC, id DESC LIMIT 1`);
    await page.goto("/");
    const problems = page.getByRole("region", { name: /Hosts disabled or down/ });
    expect(disabled, "the demo cloud has a disabled host with a reason").toHaveLength(1);
    const row = problems
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name: disabled[0].name, exact: true }) });
    await expect(row).toContainText(disabled[0].disabledReason!);
    await expect(row).toContainText("disabled");
    const latest = page.getByRole("region", { name: "Latest scheduling runs" });
    if (runs.length) {
      await expect(latest.getByRole("link", { name: `#${runs[0].id}` })).toHaveAttribute("href", `/runs/${runs[0].id}`);
    } else {
      await expect(latest.getByText("No scheduling runs yet.")).toBeVisible();
    }
  });
});
