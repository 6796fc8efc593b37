// The overview's single-host-loss heat map: every host lost in turn, its
// instances evacuated as Nova would; a host running a whole affinity group
// strands its members (their group has no other host).
import { expect, test } from "@playwright/test";
import { queryAll } from "./db";

test.describe("Loss heat map", () => {
  test("shows per zone what losing each host strands", async ({ page }) => {
    test.setTimeout(120_000);
    const g = queryAll<{ host: string; members: number }>(
      `SELECT MIN(h.name) AS host, COUNT(*) AS members FROM "ServerGroup" g JOIN "Instance" i ON i.serverGroupId = g.id
         JOIN "ComputeHost" h ON h.id = i.hostId WHERE g.policy = 'affinity' GROUP BY g.id HAVING COUNT(DISTINCT h.id) = 1 LIMIT 1`,
    )[0];
    const count = queryAll<{ n: number }>(
      `SELECT COUNT(*) AS n FROM "Instance" i JOIN "ComputeHost" h ON h.id = i.hostId WHERE h.name = ?`,
      g.host,
    )[0].n;
    await page.goto("/");
    await page.getByRole("link", { name: "Sweep single-host losses" }).click();
    const cell = page.getByRole("link", { name: new RegExp(`^${g.host}: \\d+ of ${count} instances stranded$`) });
    await expect(cell).toBeVisible({ timeout: 90_000 });
    const label = (await cell.getAttribute("aria-label")) ?? "";
    expect(Number(label.split(": ")[1].split(" ")[0])).toBeGreaterThanOrEqual(g.members);
    // every zone says whether it survives any single-host loss, or names its worst one
    expect(await page.getByRole("heading", { name: /^Zone / }).count()).toBeGreaterThan(0);
    await expect(page.getByText(/Worst single-host loss: .* strands \d+ instance\(s\)\./).first()).toBeVisible();
  });
});
