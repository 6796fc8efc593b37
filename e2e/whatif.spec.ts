// What would let a host pass: a verified proposal, applied to the cloud, and the host passing on re-run.
import { expect, test } from "@playwright/test";
import { queryAll } from "./db";

test("a disabled host: the proposal enables its service, and the re-run lets it pass", async ({ page }) => {
  // a disabled (but up) host that nothing else keeps out of an m1.small boot
  const candidates = queryAll<{ name: string }>(
    `SELECT name FROM "ComputeHost" WHERE serviceDisabled = 1 AND serviceUp = 1 AND forcedDown = 0 ORDER BY name`,
  ).map((r) => r.name);
  expect(candidates.length).toBeGreaterThan(0);

  await page.goto("/schedule");
  await page.getByLabel("Flavor").selectOption("m1.small");
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /Run #\d+/ })).toBeVisible({ timeout: 20_000 });

  const form = page.getByRole("form", { name: "What would let a host pass" });
  let host = "";
  let region = page.getByRole("region", { name: /^Changes for / });
  for (const name of candidates) {
    await form.getByLabel("Rejected host").fill(name);
    await form.getByRole("button", { name: "Find changes" }).click();
    region = page.getByRole("region", { name: `Changes for ${name}` });
    await expect(region).toBeVisible({ timeout: 20_000 });
    if (await region.getByRole("button", { name: `Apply: enable the compute service on ${name}` }).count()) {
      host = name;
      break;
    }
  }
  expect(host, "a disabled host with a verified proposal").not.toBe("");
  await expect(region).toContainText(`${host} fell out at Placement: compute service disabled`);

  page.once("dialog", (d) => void d.accept());
  await region.getByRole("button", { name: `Apply: enable the compute service on ${host}` }).click();
  await expect(page.getByRole("status", { name: "Applied change" })).toContainText(
    `Applied to the cloud: enable the compute service on ${host}`,
  );
  expect(queryAll<{ d: number }>(`SELECT serviceDisabled AS d FROM "ComputeHost" WHERE name = ?`, host)[0].d).toBe(0);

  await page.getByRole("button", { name: "Re-run the request" }).click();
  await expect(page.getByRole("status", { name: "Re-run outcome" })).toContainText(`${host} passes every filter`, {
    timeout: 20_000,
  });
});
