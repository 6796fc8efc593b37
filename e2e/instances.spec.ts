import { expect, test } from "@playwright/test";
import { queryAll } from "./db";
import { acceptNextDialog, expectFieldError, form, uid } from "./ui-helpers";

const instanceNamed = (name: string) =>
  queryAll<{ uuid: string; host: string | null; flavor: string | null; grp: string | null; projectId: string | null }>(
    `SELECT i.uuid AS uuid, h.name AS host, f.name AS flavor, g.name AS grp, i.projectId AS projectId FROM "Instance" i
       LEFT JOIN "ComputeHost" h ON h.id = i.hostId LEFT JOIN "Flavor" f ON f.id = i.flavorId LEFT JOIN "ServerGroup" g ON g.id = i.serverGroupId
      WHERE i.name = ?`,
    name,
  );

test.describe("Instances", () => {
  test("pages and searches instances", async ({ page }) => {
    const first = queryAll<{ uuid: string; name: string }>(
      `SELECT uuid, name FROM "Instance" WHERE name IS NOT NULL ORDER BY id LIMIT 1`,
    )[0];
    await page.goto("/instances");
    await expect(page.getByRole("heading", { level: 1, name: "Instances" })).toBeVisible();
    await page.getByLabel("Search instances").fill(first.uuid);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${first.uuid}`));
    await expect(
      page.getByRole("table", { name: "Instances" }).getByRole("rowheader", { name: first.name }),
    ).toBeVisible();
  });

  test("create on a host in a new server group, reject an unknown host, edit, delete", async ({ page }) => {
    const id = uid();
    const group = `e2e-sg-i-${id}`;
    const name = `e2e-vm-${id}`;
    const host = queryAll<{ name: string }>(`SELECT name FROM "ComputeHost" ORDER BY position DESC LIMIT 1 OFFSET 5`)[0]
      .name;
    const flavor = queryAll<{ name: string }>(
      `SELECT name FROM "Flavor" WHERE name NOT LIKE 'e2e%' ORDER BY name LIMIT 1`,
    )[0].name;

    await page.goto("/server-groups");
    const sg = form(page, "Create server group");
    await sg.getByLabel("Name", { exact: true }).fill(group);
    await sg.getByLabel("Policy").selectOption("affinity");
    await sg.getByRole("button", { name: "Create server group" }).click();
    await expect(sg.getByText("Server group created.")).toBeVisible();

    await page.goto("/instances");
    const create = form(page, "Create instance");
    await create.getByLabel("Name", { exact: true }).fill(name);
    await create.getByLabel("Host").fill("no-such-host-e2e");
    await create.getByLabel("Flavor").selectOption(flavor);
    await create.getByLabel("Server group").selectOption({ label: `${group} (affinity)` });
    await create.getByRole("button", { name: "Create instance" }).click();
    await expectFieldError(create.getByLabel("Host"), 'host: no compute host is named "no-such-host-e2e"');
    expect(instanceNamed(name)).toEqual([]);

    await create.getByLabel("Host").fill(host);
    await create.getByLabel("Project ID").fill("e2e-project");
    await create.getByRole("button", { name: "Create instance" }).click();
    await expect(create.getByText("Instance created.")).toBeVisible();
    expect(instanceNamed(name)).toMatchObject([{ host, flavor, grp: group, projectId: "e2e-project" }]);

    // it shows as a member of its group
    await page.goto("/server-groups");
    await expect(page.getByRole("row").filter({ hasText: group })).toContainText("1 member");

    // edit: off the host, out of the group
    await page.goto(`/instances?q=${name}`);
    await page.getByRole("link", { name: `Edit ${name}` }).click();
    const edit = form(page, "Edit instance");
    await expect(edit.getByLabel("Host")).toHaveValue(host);
    await edit.getByLabel("Host").fill("");
    await edit.getByLabel("Server group").selectOption("");
    await edit.getByRole("button", { name: "Save instance" }).click();
    await expect(edit.getByText("Instance saved.")).toBeVisible();
    expect(instanceNamed(name)).toMatchObject([{ host: null, grp: null }]);

    acceptNextDialog(page);
    await page.getByRole("button", { name: "Delete instance" }).click();
    await expect(page).toHaveURL(/deleted=/);
    expect(instanceNamed(name)).toEqual([]);

    // tidy up the group
    await page.goto("/server-groups");
    await page.getByRole("link", { name: `Edit ${group}` }).click();
    acceptNextDialog(page);
    await page.getByRole("button", { name: "Delete server group" }).click();
    await expect(page).toHaveURL(/deleted=/);
  });
});
