import { expect, test } from "@playwright/test";
import { queryAll } from "./db";
import { acceptNextDialog, expectFieldError, form, uid } from "./ui-helpers";

const propsOf = (uuid: string) =>
  queryAll<{ key: string; value: string; json: number }>(
    `SELECT p.key AS key, p.value AS value, p.json AS json FROM "ImageProperty" p JOIN "Image" i ON i.id = p.imageId WHERE i.uuid = ? ORDER BY p.key`,
    uuid,
  );

test.describe("Images", () => {
  test("lists images with their properties", async ({ page }) => {
    const images = queryAll<{ name: string | null; uuid: string }>(
      `SELECT name, uuid FROM "Image" ORDER BY id LIMIT 5`,
    );
    await page.goto("/images");
    const table = page.getByRole("table", { name: /Images/ });
    for (const im of images) await expect(table.getByText(im.uuid)).toBeVisible();
  });

  test("create, edit properties in place, reject bad input, delete", async ({ page }) => {
    const name = `e2e-image-${uid()}`;
    const before = queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "Image"`)[0].n;
    await page.goto("/images");
    const create = form(page, "Create image");
    // a malformed uuid is refused
    await create.getByLabel("Name").fill(name);
    await create.getByLabel("Image ID (UUID)").fill("not-a-uuid");
    await create.getByRole("button", { name: "Create image" }).click();
    await expectFieldError(create.getByLabel("Image ID (UUID)"), /uuid: must be a UUID/);
    expect(queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "Image"`)[0].n).toBe(before);
    // empty uuid: generated
    await create.getByLabel("Image ID (UUID)").fill("");
    await create.getByRole("button", { name: "Create image" }).click();
    await expect(create.getByText("Image created.")).toBeVisible();
    const uuid = queryAll<{ uuid: string }>(`SELECT uuid FROM "Image" WHERE name = ?`, name)[0].uuid;

    await page.getByRole("link", { name: `Edit ${name}` }).click();
    await expect(page.getByRole("heading", { name: `Edit image ${name}` })).toBeVisible();
    const add = form(page, "Add property");
    await add.getByLabel("New key").fill("hw_architecture");
    await expect(add.getByText("ImagePropertiesFilter")).toBeVisible();
    await add.getByLabel("New value").fill("x86_64");
    await add.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByLabel("Value of hw_architecture")).toHaveValue("x86_64");

    // JSON values must be a number, a boolean or a list
    await add.getByLabel("New key").fill("hw_cpu_cores");
    await add.getByLabel("New value").fill("four");
    await add.getByLabel("JSON").check();
    await add.getByRole("button", { name: "Add", exact: true }).click();
    await expectFieldError(add.getByLabel("New value"), /must be valid JSON/);
    expect(propsOf(uuid)).toEqual([{ key: "hw_architecture", value: "x86_64", json: 0 }]);
    await add.getByLabel("New value").fill("4");
    await add.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByLabel("Value of hw_cpu_cores")).toHaveValue("4");

    // change in place, then remove
    const row = form(page, "Edit hw_architecture");
    await row.getByLabel("Value of hw_architecture").fill("aarch64");
    await row.getByRole("button", { name: "Save hw_architecture" }).click();
    await expect(page.getByText("Saved hw_architecture.")).toBeVisible();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Remove hw_cpu_cores" }).click();
    await expect(page.getByLabel("Value of hw_cpu_cores")).toHaveCount(0);
    await page.reload();
    await expect(page.getByLabel("Value of hw_architecture")).toHaveValue("aarch64");
    expect(propsOf(uuid)).toEqual([{ key: "hw_architecture", value: "aarch64", json: 0 }]);

    // rename
    const edit = form(page, "Edit image");
    await edit.getByLabel("Name").fill(`${name}-r`);
    await edit.getByRole("button", { name: "Save image" }).click();
    await expect(edit.getByText("Image saved.")).toBeVisible();
    expect(queryAll(`SELECT name FROM "Image" WHERE uuid = ?`, uuid)).toEqual([{ name: `${name}-r` }]);

    // delete
    acceptNextDialog(page);
    await page.getByRole("button", { name: "Delete image" }).click();
    await expect(page).toHaveURL(/\/images\?deleted=/);
    expect(queryAll(`SELECT id FROM "Image" WHERE uuid = ?`, uuid)).toEqual([]);
  });
});
