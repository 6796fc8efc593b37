// A multi-instance boot into a server group: the request's own instances are
// members of the group, as nova-api adds them before it asks the scheduler.
import { expect, type Page, test } from "@playwright/test";
import { submitServerGroup, uid } from "./ui-helpers";

async function bootIntoGroup(page: Page, group: RegExp, count: number): Promise<string[]> {
  await page.goto("/schedule");
  await page.getByLabel("Flavor").selectOption("m1.large");
  await page.getByLabel("Number of instances").fill(String(count));
  const select = page.getByLabel("Server group");
  const option = (await select.locator("option").allTextContents()).find((t) => group.test(t));
  expect(option, `a server group option matching ${group}`).toBeTruthy();
  await select.selectOption({ label: option as string });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /Run #\d+: placed on/ })).toBeVisible({ timeout: 20_000 });
  const items = page.getByRole("list", { name: "Placement", exact: true }).getByRole("listitem");
  await expect(items).toHaveCount(count);
  const hosts: string[] = [];
  for (const text of await items.allTextContents()) {
    const m = /chosen host\s*(\S+?)\s*chosen/.exec(text.replace(/\s+/g, " "));
    expect(m, `placement text: ${text}`).not.toBeNull();
    hosts.push((m as RegExpExecArray)[1]);
  }
  return hosts;
}

test.describe("Multi-instance boots into a server group", () => {
  test("5 × m1.large into the anti-affinity group web-frontend land on 5 different hosts", async ({ page }) => {
    const hosts = await bootIntoGroup(page, /^web-frontend — anti-affinity/, 5);
    expect(new Set(hosts).size).toBe(5);
    // instance 2's funnel says which earlier instance of this request filled a host
    await page.getByRole("tablist", { name: "Instances" }).getByRole("tab", { name: "Instance 2" }).click();
    const row = page
      .getByRole("table", { name: "Funnel, instance 2" })
      .getByRole("row", { name: /ServerGroupAntiAffinityFilter/ });
    await expect(row).toContainText("already holds instance 1 of this request");
  });

  test("2 × m1.large into a group with max_server_per_host 2: instance 1's host stays open", async ({ page }) => {
    const name = `e2e-pair-${uid()}`;
    const create = await submitServerGroup(page, name, "anti-affinity", "2");
    await expect(create.getByText("Server group created.")).toBeVisible();

    const hosts = await bootIntoGroup(page, new RegExp(`^${name} — anti-affinity`), 2);
    expect(hosts).toHaveLength(2);
    // instance 1's host holds one member of two: it passes for instance 2 and is weighed
    await page.getByRole("tablist", { name: "Instances" }).getByRole("tab", { name: "Instance 2" }).click();
    const weighed = page.getByRole("table", { name: "Weighed hosts, instance 2" });
    await expect(weighed.getByRole("row", { name: new RegExp(`\\b${hosts[0]}\\b`) }).first()).toBeVisible();
  });
});
