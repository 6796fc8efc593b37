import { expect, test, type Page } from "@playwright/test";
import { queryAll } from "./db";
import { acceptNextDialog, addPair, expectFieldError, form, pairForm, uid } from "./ui-helpers";

const flavorCount = () => queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "Flavor"`)[0].n;
const specsOf = (name: string) =>
  queryAll<{ key: string; value: string }>(
    `SELECT s.key AS key, s.value AS value FROM "FlavorExtraSpec" s JOIN "Flavor" f ON f.id = s.flavorId WHERE f.name = ? ORDER BY s.key`,
    name,
  );

async function createFlavor(page: Page, name: string) {
  await page.goto("/flavors");
  const f = form(page, "Create flavor");
  await f.getByLabel("Name", { exact: true }).fill(name);
  await f.getByLabel("vCPUs").fill("4");
  await f.getByLabel("RAM (MB)").fill("8192");
  await f.getByRole("button", { name: "Create flavor" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test.describe("Flavors", () => {
  test("lists flavors with sizes and extra specs", async ({ page }) => {
    const flavors = queryAll<{ name: string }>(`SELECT name FROM "Flavor" ORDER BY name`);
    await page.goto("/flavors");
    const table = page.getByRole("table", { name: /Flavors/ });
    for (const f of flavors.filter((f) => !f.name.startsWith("e2e"))) {
      await expect(table.getByRole("link", { name: f.name, exact: true })).toBeVisible();
    }
    await expect(table.getByRole("columnheader", { name: "Extra specs" })).toBeVisible();
  });

  test("create rejects bad sizes and a duplicate name, writing nothing", async ({ page }) => {
    const existing = queryAll<{ name: string }>(`SELECT name FROM "Flavor" ORDER BY id LIMIT 1`)[0].name;
    const before = flavorCount();
    await page.goto("/flavors");
    const f = form(page, "Create flavor");
    await f.getByLabel("Name", { exact: true }).fill(`e2e-bad-${uid()}`);
    await f.getByLabel("vCPUs").fill("0");
    await f.getByLabel("RAM (MB)").fill("lots");
    await f.getByRole("button", { name: "Create flavor" }).click();
    await expectFieldError(f.getByLabel("vCPUs"), "vcpus: must be a whole number >= 1, got 0");
    await expectFieldError(f.getByLabel("RAM (MB)"), 'memory_mb: must be a whole number >= 1, got "lots"');
    await expect(f.getByRole("alert")).toContainText("Not saved");
    expect(flavorCount()).toBe(before);

    await f.getByLabel("Name", { exact: true }).fill(existing);
    await f.getByLabel("vCPUs").fill("1");
    await f.getByLabel("RAM (MB)").fill("512");
    await f.getByRole("button", { name: "Create flavor" }).click();
    await expectFieldError(f.getByLabel("Name", { exact: true }), `a flavor named "${existing}" already exists`);
    expect(flavorCount()).toBe(before);
  });

  test("the extra-spec editor explains values live and rejects malformed ones", async ({ page }) => {
    const name = `e2e.specs.${uid()}`;
    await createFlavor(page, name);
    const { add, key, value, submit } = pairForm(page, "Add extra spec");

    // live meaning of the operator syntax
    await key.fill("capabilities:hypervisor_type");
    await value.fill("s== QEMU");
    await expect(add.getByText("ComputeCapabilitiesFilter")).toBeVisible();
    await expect(add.getByText("s== QEMU: string equal to QEMU")).toBeVisible();
    await value.fill(">= 2");
    await expect(add.getByText(">= 2: a number greater than or equal to 2")).toBeVisible();
    await value.fill("<or> kvm <or> qemu");
    await expect(add.getByText('one of "kvm", "qemu"')).toBeVisible();

    // an operator without an operand: nova-api stores it, so the editor warns instead of refusing
    await value.fill("s==");
    await expect(add.getByText(/nova-api stores it, but s== needs an operand/)).toBeVisible();
    await expect(value).not.toHaveAttribute("aria-invalid", "true");
    // a numeric operator with a non-number: the same
    await key.fill("capabilities:vcpus");
    await value.fill(">= many");
    await expect(add.getByText(/>= compares numbers, but "many" is not a number/)).toBeVisible();

    // trait: values are required|forbidden, in Nova's words
    await key.fill("trait:HW_CPU_X86_AVX2");
    await value.fill("yes");
    await submit.click();
    await expectFieldError(value, "Validation failed; 'yes' is not one of: required, forbidden.");
    expect(specsOf(name)).toEqual([]);
    // and a trait name Nova does not know is not an extra spec at all
    await key.fill("trait:avx2");
    await value.fill("required");
    await submit.click();
    await expectFieldError(key, "Validation failed; extra spec 'trait:avx2' does not appear to be a valid extra spec.");
    expect(specsOf(name)).toEqual([]);

    // good ones are added
    await addPair(add, "trait:HW_CPU_X86_AVX2", "required");
    await addPair(add, "capabilities:hypervisor_type", "s== QEMU");
    expect(specsOf(name)).toEqual([
      { key: "capabilities:hypervisor_type", value: "s== QEMU" },
      { key: "trait:HW_CPU_X86_AVX2", value: "required" },
    ]);

    // changed in place; a change Nova refuses is refused and the old value stays
    const traitRow = form(page, "Edit trait:HW_CPU_X86_AVX2");
    await traitRow.getByLabel("Value of trait:HW_CPU_X86_AVX2").fill("sometimes");
    await traitRow.getByRole("button", { name: "Save trait:HW_CPU_X86_AVX2" }).click();
    await expectFieldError(traitRow.getByLabel("Value of trait:HW_CPU_X86_AVX2"), "'sometimes' is not one of");
    expect(specsOf(name)).toContainEqual({ key: "trait:HW_CPU_X86_AVX2", value: "required" });
    const row = form(page, "Edit capabilities:hypervisor_type");
    await row.getByLabel("Value of capabilities:hypervisor_type").fill("<in> QE");
    await row.getByRole("button", { name: "Save capabilities:hypervisor_type" }).click();
    await expect(page.getByText("Saved capabilities:hypervisor_type.")).toBeVisible();
    expect(specsOf(name)).toContainEqual({ key: "capabilities:hypervisor_type", value: "<in> QE" });

    // removed
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Remove trait:HW_CPU_X86_AVX2" }).click();
    await expect(page.getByLabel("Value of trait:HW_CPU_X86_AVX2")).toHaveCount(0);
    await page.reload();
    await expect(page.getByLabel("Value of capabilities:hypervisor_type")).toHaveValue("<in> QE");
    expect(specsOf(name)).toEqual([{ key: "capabilities:hypervisor_type", value: "<in> QE" }]);
  });

  test("edit sizes, rename and delete", async ({ page }) => {
    const name = `e2e.edit.${uid()}`;
    await createFlavor(page, name);
    const edit = form(page, "Edit flavor");
    await edit.getByLabel("vCPUs").fill("-2");
    await edit.getByRole("button", { name: "Save flavor" }).click();
    await expectFieldError(edit.getByLabel("vCPUs"), "vcpus: must be a whole number >= 1");
    expect(queryAll(`SELECT vcpus FROM "Flavor" WHERE name = ?`, name)).toEqual([{ vcpus: 4 }]);
    await edit.getByLabel("vCPUs").fill("6");
    await edit.getByLabel("Ephemeral disk (GB)").fill("10");
    await edit.getByRole("button", { name: "Save flavor" }).click();
    await expect(edit.getByText("Flavor saved.")).toBeVisible();
    expect(queryAll(`SELECT vcpus, ephemeralGb FROM "Flavor" WHERE name = ?`, name)).toEqual([
      { vcpus: 6, ephemeralGb: 10 },
    ]);

    const renamed = `${name}-r`;
    await edit.getByLabel("Name", { exact: true }).fill(renamed);
    await edit.getByRole("button", { name: "Save flavor" }).click();
    await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();

    acceptNextDialog(page);
    await page.getByRole("button", { name: "Delete flavor" }).click();
    await expect(page).toHaveURL(/\/flavors\?deleted=/);
    await expect(page.getByRole("link", { name: renamed, exact: true })).toHaveCount(0);
    expect(queryAll(`SELECT id FROM "Flavor" WHERE name IN (?, ?)`, name, renamed)).toEqual([]);
  });
});
