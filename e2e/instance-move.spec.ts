// Moving an instance from its page: a resize trialled to the next flavor up
// shows the funnel and the chosen host as a boot trial does, and committing
// it puts the instance on that host with the new flavor; a resize to a
// flavor no host can take ends in NoValidHost with Nova's summary.
import { expect, type Page, test } from "@playwright/test";
import { queryAll } from "./db";
import { firstHostToEnable } from "./ui-helpers";

/** An m1.small instance on an enabled, up host, in no server group, named. */
function smallInstance(offset: number) {
  return queryAll<{ uuid: string; name: string; host: string }>(
    `SELECT i.uuid, i.name, h.name AS host FROM "Instance" i
       JOIN "ComputeHost" h ON h.id = i.hostId JOIN "Flavor" f ON f.id = i.flavorId
      WHERE f.name = 'm1.small' AND i.serverGroupId IS NULL AND i.name IS NOT NULL
        AND h.serviceDisabled = 0 AND h.serviceUp = 1 AND h.forcedDown = 0
      ORDER BY i.id LIMIT 1 OFFSET ?`,
    offset,
  )[0];
}

async function trialResize(page: Page, uuid: string, flavor: string) {
  await page.goto(`/instances/${uuid}`);
  const form = page.getByRole("form", { name: "Trial a move" });
  await form.getByLabel("Move", { exact: true }).selectOption("resize");
  await form.getByLabel("New flavor").selectOption(flavor);
  await form.getByRole("button", { name: "Trial move" }).click();
}

test.describe("Instance moves", () => {
  test("resizes an instance on its page: funnel, chosen host, commit", async ({ page }) => {
    const inst = smallInstance(0);
    await page.goto(`/instances?q=${encodeURIComponent(inst.name)}`);
    await page.getByRole("link", { name: inst.name, exact: true }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: inst.name })).toBeVisible();
    await trialResize(page, inst.uuid, "m1.medium");

    await expect(page.getByRole("list", { name: "Run details" })).toContainText(
      `resize of instance ${inst.uuid} from ${inst.host} to flavor m1.medium`,
      { timeout: 60_000 },
    );
    const funnel = page.getByRole("table", { name: "Funnel, instance 1" });
    await expect(funnel.getByRole("row", { name: /^Placement/ })).toBeVisible();
    await expect(funnel.getByRole("row", { name: /^ComputeFilter/ })).toBeVisible();
    const placement = page.getByRole("list", { name: "Placement", exact: true });
    await expect(placement).toContainText(/chosen host \S+/);
    // "chosen host HOSTchosen; alternates …": the host, then its "chosen" tag
    const host = /chosen host (.+?)chosen/.exec((await placement.textContent()) ?? "")?.[1] ?? "";
    expect(host).not.toBe("");
    expect(host).not.toBe(inst.host);

    // what would let a host the move left out take it: each proposal verified by scheduling the move again
    const proposed = await firstHostToEnable(page);
    expect(proposed, "a disabled host the move could use once enabled").not.toBe("");

    await page.getByRole("button", { name: "Commit move" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Moved" })).toContainText(
      `is now on ${host} with flavor m1.medium (was on ${inst.host})`,
    );
    const details = page.getByRole("region", { name: "Instance details" });
    await expect(details.getByRole("link", { name: host, exact: true })).toBeVisible();
    await expect(details).toContainText("m1.medium");
    const row = queryAll<{ host: string; flavor: string }>(
      `SELECT h.name AS host, f.name AS flavor FROM "Instance" i JOIN "ComputeHost" h ON h.id = i.hostId
         JOIN "Flavor" f ON f.id = i.flavorId WHERE i.uuid = ?`,
      inst.uuid,
    )[0];
    expect(row).toEqual({ host, flavor: "m1.medium" });
    // audited: the instance and both hosts, by the signed-in user
    const audit = queryAll<{ entity: string; entityKey: string }>(
      `SELECT entity, entityKey FROM "AuditEntry" WHERE action = 'instance.move' AND id >= (
         SELECT MAX(id) FROM "AuditEntry" WHERE action = 'instance.move' AND entityKey = ?) ORDER BY id`,
      inst.uuid,
    );
    expect(audit).toEqual([
      { entity: "instance", entityKey: inst.uuid },
      ...[inst.host, host].sort().map((h) => ({ entity: "host", entityKey: h })),
    ]);
  });

  test("a resize no host can take ends in NoValidHost with the summary, laid out for a phone", async ({ page }) => {
    const inst = smallInstance(1);
    await page.setViewportSize({ width: 390, height: 900 });
    await trialResize(page, inst.uuid, "bm.large");
    await expect(page.getByRole("heading", { name: "No valid host" })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(/^0\/\d+ hosts available: /).first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Commit move" })).toHaveCount(0);
    await page.waitForLoadState("networkidle");
    const o = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    }));
    expect(o.scroll).toBeLessThanOrEqual(o.viewport + 1);
  });

  test("a live migration the conductor decides names the checks only the destination compute makes", async ({
    page,
  }) => {
    // a source newer than some host of its cell: the conductor skips older hosts (not in the reference)
    const inst = queryAll<{ uuid: string }>(
      `SELECT i.uuid FROM "Instance" i JOIN "ComputeHost" h ON h.id = i.hostId
        WHERE i.serverGroupId IS NULL AND h.serviceDisabled = 0 AND h.serviceUp = 1
          AND h.hypervisorType = 'QEMU' AND h.hypervisorVersion > (
            SELECT MIN(o.hypervisorVersion) FROM "ComputeHost" o WHERE o.cellId = h.cellId AND o.hypervisorType = 'QEMU')
        ORDER BY i.id LIMIT 1`,
    )[0];
    await page.goto(`/instances/${inst.uuid}`);
    const form = page.getByRole("form", { name: "Trial a move" });
    await form.getByLabel("Move", { exact: true }).selectOption("live-migrate");
    await form.getByRole("button", { name: "Trial move" }).click();
    await expect(page.getByRole("note").filter({ hasText: "the destination compute's own pre-checks" })).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByRole("table", { name: "Funnel, instance 1" })).toBeVisible();
  });

  test("a resize to the instance's own flavor is refused by Nova, in words", async ({ page }) => {
    const inst = smallInstance(2);
    await trialResize(page, inst.uuid, "m1.small");
    await expect(page.getByRole("heading", { name: "The new flavor is the instance's current flavor" })).toBeVisible({
      timeout: 60_000,
    });
  });
});
