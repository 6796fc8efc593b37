import { expect, test } from "@playwright/test";
import { queryAll } from "./db";

type HostRecord = { name: string; cell: string; vcpus: number };

test.describe("Hosts page", () => {
  test("lists every seeded compute host in a table", async ({ page }) => {
    const hosts = queryAll<HostRecord>(
      `SELECT h.name AS name, c.name AS cell, h.vcpus AS vcpus
         FROM "ComputeHost" h JOIN "Cell" c ON c.id = h.cellId
        ORDER BY h.position, h.id`,
    );
    expect(hosts.length, "the e2e database must be seeded").toBeGreaterThan(0);

    await page.goto("/hosts");
    await expect(page.getByRole("heading", { level: 1, name: "Hosts" })).toBeVisible();

    const table = page.getByRole("table", { name: "Compute hosts" });
    await expect(table).toBeVisible();
    await expect(table.getByRole("columnheader", { name: /Name/ })).toBeVisible();
    await expect(table.getByRole("columnheader", { name: /vCPUs/ }).first()).toBeVisible();

    // header row + one row per host on this page (the table may be paged), in scenario order
    const rows = table.getByRole("row");
    const count = await rows.count();
    expect(count).toBeGreaterThan(1);
    expect(count).toBeLessThanOrEqual(hosts.length + 1);
    const first = rows.nth(1);
    await expect(first.getByRole("rowheader")).toHaveText(hosts[0].name);
    await expect(first).toContainText(hosts[0].cell);

    for (const h of hosts.slice(0, Math.min(10, count - 1))) {
      await expect(table.getByRole("rowheader", { name: h.name, exact: true })).toBeVisible();
    }
  });

  test("the app shell navigation links to the hosts page", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const label of [
      "Overview",
      "Hosts",
      "Aggregates",
      "Flavors",
      "Images",
      "Server groups",
      "Config",
      "Schedule",
      "Runs",
    ]) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
    }
    await nav.getByRole("link", { name: "Hosts", exact: true }).click();
    await expect(page).toHaveURL(/\/hosts$/);
    await expect(page.getByRole("table", { name: "Compute hosts" })).toBeVisible();
  });

  test("searches, sorts and pages on the server through the URL", async ({ page }) => {
    const total = queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "ComputeHost"`)[0].n;
    const byNameDesc = queryAll<{ name: string }>(
      `SELECT name FROM "ComputeHost" ORDER BY name DESC, position DESC, id DESC LIMIT 2`,
    );
    await page.goto("/hosts");
    const table = page.getByRole("table", { name: "Compute hosts" });

    // sort by name, then descending: the header reflects it (aria-sort) and so does the URL
    await table.getByRole("columnheader", { name: /Name/ }).getByRole("link").click();
    await expect(page).toHaveURL(/sort=name/);
    await expect(table.getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "ascending");
    await table.getByRole("columnheader", { name: /Name/ }).getByRole("link").click();
    await expect(page).toHaveURL(/sort=name&dir=desc/);
    await expect(table.getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "descending");
    await expect(table.getByRole("row").nth(1).getByRole("rowheader")).toHaveText(byNameDesc[0].name);

    // page 2 keeps the sort (the demo cloud has more hosts than one page of 50)
    expect(total).toBeGreaterThan(50);
    await page.getByRole("navigation", { name: "Host pages" }).getByRole("link", { name: "Next →" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page).toHaveURL(/sort=name/);
    await expect(page.getByText(/showing 51–/)).toBeVisible();

    // search narrows the list (server-side, the URL carries q)
    const target = byNameDesc[1].name;
    await page.getByLabel("Search hosts").fill(target);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${target}`));
    await expect(table.getByRole("rowheader", { name: target, exact: true })).toBeVisible();
    await expect(page.getByText(/compute hosts? match/)).toBeVisible();

    // the state filter
    await page.goto("/hosts?state=disabled");
    const disabled = queryAll<{ n: number }>(
      `SELECT COUNT(*) AS n FROM "ComputeHost" WHERE serviceDisabled AND serviceUp AND NOT forcedDown`,
    )[0].n;
    expect(disabled, "the demo cloud has disabled hosts").toBeGreaterThan(0);
    await expect(table.getByRole("row").nth(1)).toContainText("disabled");
    await expect(page.getByText(`${disabled} compute host${disabled === 1 ? "" : "s"} match`)).toBeVisible();
    await expect(table.getByRole("row")).toHaveCount(Math.min(disabled, 50) + 1);
  });

  test("an unknown sort or state in the URL (even an inherited name) shows every host in scenario order", async ({
    page,
  }) => {
    const total = queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "ComputeHost"`)[0].n;
    const first = queryAll<{ name: string }>(`SELECT name FROM "ComputeHost" ORDER BY position, id LIMIT 1`)[0].name;
    for (const query of [
      "sort=constructor",
      "sort=__proto__",
      "sort=toString",
      "state=toString",
      "state=constructor",
      "state=hasOwnProperty&sort=valueOf",
      "sort=nope&state=nope",
    ]) {
      const response = await page.goto(`/hosts?${query}`);
      expect(response?.status(), query).toBe(200);
      const table = page.getByRole("table", { name: "Compute hosts" });
      await expect(table.getByRole("row").nth(1).getByRole("rowheader")).toHaveText(first);
      await expect(page.getByText(new RegExp(`^${total} compute hosts · .*sorted by scenario order`))).toBeVisible();
    }
  });

  test("table density is a UI preference", async ({ page }) => {
    await page.goto("/hosts");
    const density = page.getByRole("group", { name: "Table density" });
    await density.getByRole("button", { name: "Compact" }).click();
    await expect(density.getByRole("button", { name: "Compact" })).toHaveAttribute("aria-pressed", "true");
    await page.reload();
    await expect(
      page.getByRole("group", { name: "Table density" }).getByRole("button", { name: "Compact" }),
    ).toHaveAttribute("aria-pressed", "true");
  });
});
