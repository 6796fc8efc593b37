// The demo cloud's default profile schedules through Placement: a vGPU flavor
// lands where a child resource provider has a free VGPU, and a bare-metal
// flavor on a free node of the Ironic service host, never the deployed one.
import { expect, type Page, test } from "@playwright/test";

async function trial(page: Page, flavor: string, image: string): Promise<string> {
  await page.goto("/schedule");
  await page.getByLabel("Flavor").selectOption(flavor);
  const select = page.getByLabel("Image");
  const option = (await select.locator("option").allTextContents()).find((t) => t.startsWith(image));
  expect(option, `an image option ${image}`).toBeTruthy();
  await select.selectOption({ label: option as string });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /Run #\d+: placed on/ })).toBeVisible({ timeout: 20_000 });
  return ((await page.getByRole("list", { name: "Placement", exact: true }).textContent()) ?? "").replace(/\s+/g, " ");
}

test.describe("Placement on the demo cloud", () => {
  test("vgpu.small lands on a host with a VGPU child provider", async ({ page }) => {
    const text = await trial(page, "vgpu.small", "ubuntu-22.04");
    const host = /chosen host\s*(\S+?)\s*chosen/.exec(text)?.[1] ?? "";
    expect(host).not.toBe("");
    await page.goto(`/hosts/${encodeURIComponent(host)}`);
    const children = page.getByRole("region", { name: /Child resource providers/ });
    await expect(children).toBeVisible();
    await expect(children).toContainText("VGPU");
  });

  test("bm.large lands on a free node of the Ironic service host, not the deployed one", async ({ page }) => {
    const text = await trial(page, "bm.large", "ubuntu-22.04-baremetal");
    expect(text).toMatch(/chosen host ironic-a3-01 node bm-a3-00[23]/);
    expect(text).not.toMatch(/node bm-a3-001/);
  });
});
