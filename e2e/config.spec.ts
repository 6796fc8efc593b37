import { expect, test, type Locator, type Page } from "@playwright/test";
import { execute, queryAll } from "./db";
import { acceptNextDialog, expectFieldError, form, uid } from "./ui-helpers";

const configOf = (name: string) => {
  const rows = queryAll<{ config: string }>(`SELECT config FROM "SchedulerProfile" WHERE name = ?`, name);
  return rows.length ? (JSON.parse(rows[0].config) as Record<string, unknown>) : null;
};
const activeProfile = () => queryAll<{ name: string }>(`SELECT name FROM "SchedulerProfile" WHERE active = 1`)[0]?.name;

/** The visible order of an ordered list (its items' code names). */
async function order(list: Locator): Promise<string[]> {
  return list.getByRole("listitem").locator("code").allTextContents();
}

function profileRow(page: Page, name: string): Locator {
  return page
    .getByRole("table", { name: /Profiles/ })
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: `Edit profile ${name}`, exact: true }) });
}

/** Creates a profile copied from another and returns its editor. */
async function createProfile(page: Page, name: string, copyFrom: string): Promise<Locator> {
  await page.goto("/config");
  const f = form(page, "Create profile");
  await f.getByLabel("Name", { exact: true }).fill(name);
  await f.getByLabel("Start from").selectOption({ label: `a copy of ${copyFrom}` });
  await f.getByRole("button", { name: "Create profile" }).click();
  await expect(page).toHaveURL(new RegExp(`profile=${name}`));
  await expect(page.getByRole("heading", { level: 2, name: new RegExp(`Profile ${name}`) })).toBeVisible();
  return form(page, `Edit profile ${name}`);
}

test.describe("Scheduler configuration", () => {
  test("shows the active profile with filters, weighers, options, defaults and meanings", async ({ page }) => {
    const active = activeProfile();
    await page.goto("/config");
    await expect(page.getByRole("heading", { level: 1, name: "Scheduler configuration" })).toBeVisible();
    await expect(profileRow(page, active).getByText("active", { exact: true })).toBeVisible();
    const editor = form(page, `Edit profile ${active}`);
    await expect(editor.getByRole("list", { name: "Enabled filters, in order" })).toBeVisible();
    await expect(editor.getByText("Rejects hosts whose compute service is disabled").first()).toBeVisible();
    const subset = editor.getByLabel("host_subset_size");
    await expect(subset).toHaveAccessibleDescription(/Nova default: 1/);
    await expect(editor.getByLabel("ram_weight_multiplier")).toHaveAccessibleDescription(/RAMWeigher/);
  });

  test("reorder filters with the buttons, the keyboard and drag and drop; save; reload", async ({ page }) => {
    const name = `e2e-order-${uid()}`;
    const editor = await createProfile(page, name, "default");
    const list = editor.getByRole("list", { name: "Enabled filters, in order" });
    const start = await order(list);
    expect(start.length).toBeGreaterThan(3);
    const [a, b, c] = start;

    // Move down button
    await list.getByRole("button", { name: `Move ${a} down` }).click();
    expect(await order(list)).toEqual([b, a, c, ...start.slice(3)]);
    // focus stays on the moved item's button: move it down again with the keyboard
    await expect(list.getByRole("button", { name: `Move ${a} down` })).toBeFocused();
    await page.keyboard.press("Alt+ArrowDown");
    expect(await order(list)).toEqual([b, c, a, ...start.slice(3)]);
    // Alt+ArrowUp on a focused row
    await list.getByRole("listitem", { name: `2. ${c}` }).focus();
    await page.keyboard.press("Alt+ArrowUp");
    expect(await order(list)).toEqual([c, b, a, ...start.slice(3)]);
    // drag the last filter onto the first
    const last = start[start.length - 1];
    await list.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await list
      .getByRole("listitem", { name: new RegExp(`\\. ${last}$`) })
      .dragTo(list.getByRole("listitem", { name: `1. ${c}` }));
    const expected = [last, c, b, a, ...start.slice(3, -1)];
    expect(await order(list)).toEqual(expected);
    // remove one, add one
    await list.getByRole("button", { name: `Remove ${b}` }).click();
    await editor.getByLabel("Add a filter").selectOption("AggregateIoOpsFilter");
    await editor.getByRole("button", { name: "Add filter" }).click();
    const final = [...expected.filter((x) => x !== b), "AggregateIoOpsFilter"];
    expect(await order(list)).toEqual(final);

    await editor.getByRole("button", { name: "Save profile" }).click();
    await expect(editor.getByText(`Profile ${name} saved.`)).toBeVisible();
    expect(configOf(name)?.enabled_filters).toEqual(final);
    await page.reload();
    expect(
      await order(form(page, `Edit profile ${name}`).getByRole("list", { name: "Enabled filters, in order" })),
    ).toEqual(final);
  });

  test("bad multipliers, host_subset_size and unknown names are field errors and nothing is saved", async ({
    page,
  }) => {
    const name = `e2e-bad-${uid()}`;
    const editor = await createProfile(page, name, "default");
    const before = configOf(name);
    await editor.getByLabel("soft_affinity_weight_multiplier", { exact: true }).fill("-1.0");
    await editor.getByLabel("host_subset_size").fill("0");
    await editor.getByLabel("ram_weight_multiplier").fill("high");
    await editor.getByRole("button", { name: "Save profile" }).click();
    await expectFieldError(
      editor.getByLabel("soft_affinity_weight_multiplier", { exact: true }),
      "soft_affinity_weight_multiplier: must be >= 0, got -1.0",
    );
    await expectFieldError(editor.getByLabel("host_subset_size"), "host_subset_size: must be >= 1, got 0");
    await expectFieldError(
      editor.getByLabel("ram_weight_multiplier"),
      'ram_weight_multiplier: must be a number (e.g. -1.0), got "high"',
    );
    await expect(editor.getByRole("alert")).toContainText("Not saved");
    expect(configOf(name)).toEqual(before);

    // fixed: saved, and an emptied option falls back to Nova's default (left out)
    await editor.getByLabel("soft_affinity_weight_multiplier", { exact: true }).fill("0.5");
    await editor.getByLabel("host_subset_size").fill("2");
    await editor.getByLabel("ram_weight_multiplier").fill("");
    await editor.getByRole("button", { name: "Save profile" }).click();
    await expect(editor.getByText(`Profile ${name} saved.`)).toBeVisible();
    const after = configOf(name)!;
    expect(after.soft_affinity_weight_multiplier).toBe(0.5);
    expect(after.host_subset_size).toBe(2);
    expect("ram_weight_multiplier" in after).toBe(false);
  });

  test("weighers as an explicit ordered list; the Placement options of the copied profile are kept", async ({
    page,
  }) => {
    const name = `e2e-w-${uid()}`;
    const editor = await createProfile(page, name, "placement");
    await expect(editor.getByLabel("placement", { exact: true })).toHaveValue("true");
    await editor.getByRole("radio", { name: /these weighers, in order/ }).check();
    const weighers = editor.getByRole("list", { name: "Enabled weighers, in order" });
    await expect(weighers.getByRole("listitem")).toHaveCount(10);
    await weighers.getByRole("button", { name: "Remove CrossCellWeigher" }).click();
    await weighers.getByRole("button", { name: "Move RAMWeigher up" }).click();
    const w = await order(weighers);
    expect(w).not.toContain("CrossCellWeigher");
    await editor.getByRole("button", { name: "Save profile" }).click();
    await expect(editor.getByText(`Profile ${name} saved.`)).toBeVisible();
    const cfg = configOf(name)!;
    expect(cfg.weighers).toEqual(w);
    expect(cfg).toMatchObject({ placement: true, limit_tenants_to_placement_aggregate: true });
    expect(cfg.placement_prefilters).toBeUndefined();
    expect((cfg.pci_alias as { name: string }[]).map((a) => a.name)).toEqual(["a40", "vf", "pf"]);
  });

  test("Placement options, PCI aliases and the Nova release: bad input refused and nothing written, then saved", async ({
    page,
  }) => {
    const name = `e2e-pl-${uid()}`;
    const editor = await createProfile(page, name, "default");
    const before = configOf(name);
    await expect(editor.getByLabel("max_placement_results")).toHaveAccessibleDescription(/Nova default: 1000/);

    // max_placement_results 0 and an alias with a bad product id: refused, nothing written
    // (an alias without vendor id is valid: Zed requires only its name)
    await editor.getByLabel("max_placement_results").fill("0");
    await editor.getByRole("button", { name: "Add PCI alias" }).click();
    await editor.getByLabel("Alias 4 name").fill("t4");
    await editor.getByLabel("Alias 4 product id").fill("1eb");
    await editor.getByRole("button", { name: "Save profile" }).click();
    await expectFieldError(
      editor.getByLabel("max_placement_results"),
      'max_placement_results: must be a whole number >= 1, got "0"',
    );
    await expect(editor.getByRole("alert", { name: "PCI alias errors" })).toContainText(
      "pci_alias[3].product_id: must be 4 hex digits (e.g. 20b5)",
    );
    expect(configOf(name)).toEqual(before);

    // fixed: saved with the release
    await editor.getByLabel("max_placement_results").fill("5");
    await editor.getByLabel("Alias 4 product id").fill("1eb8");
    await editor.getByLabel("Alias 4 vendor id").fill("10de");
    await editor.getByLabel("Alias 4 device type").selectOption("type-PCI");
    await editor.getByLabel("placement", { exact: true }).selectOption("true");
    await editor.getByLabel("nova_release").selectOption("2024.1");
    await editor.getByRole("button", { name: "Save profile" }).click();
    await expect(editor.getByText(`Profile ${name} saved.`)).toBeVisible();
    const cfg = configOf(name)!;
    expect(cfg).toMatchObject({ placement: true, max_placement_results: 5, nova_release: "2024.1" });
    expect(cfg.pci_alias).toContainEqual({
      name: "t4",
      vendor_id: "10de",
      product_id: "1eb8",
      device_type: "type-PCI",
    });

    // removing an alias row removes it from the profile
    await editor.getByRole("button", { name: "Remove alias 4 (t4)" }).click();
    await editor.getByRole("button", { name: "Save profile" }).click();
    await expect(editor.getByText(`Profile ${name} saved.`)).toBeVisible();
    expect((configOf(name)!.pci_alias as { name: string }[]).map((a) => a.name)).toEqual(["a40", "vf", "pf"]);
  });

  test("an out-of-tree filter stored in a profile is shown as not simulated and kept on save", async ({ page }) => {
    const name = `e2e-unknown-${uid()}`;
    await createProfile(page, name, "default");
    // as an imported nova.conf keeps a filter the engine does not simulate
    const stored = configOf(name)!;
    const filters = [...(stored.enabled_filters as string[]), "NoSuchFilter"];
    execute(
      `UPDATE "SchedulerProfile" SET config = ? WHERE name = ?`,
      JSON.stringify({ ...stored, enabled_filters: filters }),
      name,
    );

    await page.reload();
    const editor = form(page, `Edit profile ${name}`);
    const list = editor.getByRole("list", { name: "Enabled filters, in order" });
    await expect(list.getByRole("listitem", { name: /\. NoSuchFilter$/ })).toContainText(
      "not simulated: passes every host",
    );
    await editor.getByRole("button", { name: "Save profile" }).click();
    await expect(editor.getByText(`Profile ${name} saved.`)).toBeVisible();
    expect(configOf(name)!.enabled_filters).toEqual(filters);
  });

  test("create, activate and delete profiles (the original active profile is restored)", async ({ page }) => {
    const original = activeProfile();
    const name = `e2e-act-${uid()}`;
    await createProfile(page, name, original);
    // a duplicate name is refused
    const f = form(page, "Create profile");
    await f.getByLabel("Name", { exact: true }).fill(name);
    await f.getByRole("button", { name: "Create profile" }).click();
    await expectFieldError(f.getByLabel("Name", { exact: true }), `a profile named "${name}" already exists`);

    const profiles = page.getByRole("table", { name: /Profiles/ });
    try {
      await profiles.getByRole("button", { name: `Activate ${name}` }).click();
      await expect(profileRow(page, name).getByText("active", { exact: true })).toBeVisible();
      expect(activeProfile()).toBe(name);
      // the active profile cannot be deleted (no Delete button), the others can
      await expect(profiles.getByRole("button", { name: `Delete ${name}` })).toHaveCount(0);
    } finally {
      await page.goto("/config");
      await page
        .getByRole("table", { name: /Profiles/ })
        .getByRole("button", { name: `Activate ${original}` })
        .click();
      await expect(profileRow(page, original).getByText("active", { exact: true })).toBeVisible();
    }
    expect(activeProfile()).toBe(original);
    acceptNextDialog(page);
    await page
      .getByRole("table", { name: /Profiles/ })
      .getByRole("button", { name: `Delete ${name}` })
      .click();
    await expect(page).toHaveURL(/deleted=/);
    expect(configOf(name)).toBeNull();
  });
});
