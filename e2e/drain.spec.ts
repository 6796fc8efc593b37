// Draining a host from its page: where Nova would move each instance, and
// an instance of an affinity group, whose only host is the drained one,
// stranded with the filter that left no host.
import { expect, test } from "@playwright/test";
import { queryAll } from "./db";

test.describe("Host drain", () => {
  test("previews a drain and explains a stranded instance", async ({ page }) => {
    // an affinity group whose members all run on one host
    const g = queryAll<{ host: string; member: string; grp: string; n: number }>(
      `SELECT MIN(h.name) AS host, MIN(i.uuid) AS member, g.name AS grp, COUNT(DISTINCT h.id) AS n
         FROM "ServerGroup" g JOIN "Instance" i ON i.serverGroupId = g.id JOIN "ComputeHost" h ON h.id = i.hostId
        WHERE g.policy = 'affinity' GROUP BY g.id HAVING COUNT(DISTINCT h.id) = 1 LIMIT 1`,
    )[0];
    const count = queryAll<{ n: number }>(
      `SELECT COUNT(*) AS n FROM "Instance" i JOIN "ComputeHost" h ON h.id = i.hostId WHERE h.name = ?`,
      g.host,
    )[0].n;
    await page.goto(`/hosts/${g.host}`);
    await page.getByRole("link", { name: `Preview a drain of ${g.host}` }).click();
    const table = page.getByRole("table", { name: `Drain of ${g.host}` });
    await expect(table).toBeVisible({ timeout: 60_000 });
    await expect(table.getByRole("row")).toHaveCount(count + 1);
    const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: g.member }) });
    await expect(row.getByRole("cell").first()).toHaveText("stranded");
    await expect(row).toContainText(`NoValidHost: 0/`);
    await expect(row).toContainText(`not a host of affinity group ${g.grp} (${g.host})`);
    await expect(page.getByText(/instances would move; [1-9]\d* stranded/)).toBeVisible();
  });
});
