import { expect, test } from "@playwright/test";
import { queryAll } from "./db";
import { acceptNextDialog, expectFieldError, form, submitServerGroup, uid } from "./ui-helpers";

const groupNamed = (name: string) =>
  queryAll<{ uuid: string; policy: string; rules: string; projectId: string | null }>(
    `SELECT uuid, policy, rules, projectId FROM "ServerGroup" WHERE name = ?`,
    name,
  );

test.describe("Server groups", () => {
  test("lists groups with policy, rules and members", async ({ page }) => {
    const groups = queryAll<{ name: string; policy: string }>(
      `SELECT name, policy FROM "ServerGroup" ORDER BY position, id LIMIT 5`,
    );
    await page.goto("/server-groups");
    const table = page.getByRole("table", { name: /Server groups/ });
    for (const g of groups) {
      await expect(
        table
          .getByRole("row")
          .filter({ has: page.getByRole("rowheader", { name: new RegExp(g.name) }) })
          .first(),
      ).toContainText(g.policy);
    }
  });

  test("create (rules only for anti-affinity), edit and delete", async ({ page }) => {
    const name = `e2e-sg-${uid()}`;
    const create = await submitServerGroup(page, name, "affinity", "2");
    await expectFieldError(
      create.getByLabel("Rule max_server_per_host"),
      /only the anti-affinity policy has this rule/,
    );
    expect(groupNamed(name)).toEqual([]);

    await create.getByLabel("Rule max_server_per_host").fill("0");
    await create.getByLabel("Policy").selectOption("anti-affinity");
    await create.getByRole("button", { name: "Create server group" }).click();
    await expectFieldError(create.getByLabel("Rule max_server_per_host"), /must be a whole number >= 1/);
    expect(groupNamed(name)).toEqual([]);

    await create.getByLabel("Rule max_server_per_host").fill("2");
    await create.getByLabel("Project ID").fill("e2e-project");
    await create.getByRole("button", { name: "Create server group" }).click();
    await expect(create.getByText("Server group created.")).toBeVisible();
    const [g] = groupNamed(name);
    expect(g).toMatchObject({ policy: "anti-affinity", projectId: "e2e-project" });
    expect(JSON.parse(g.rules)).toEqual({ max_server_per_host: 2 });
    await expect(
      page
        .getByRole("table", { name: /Server groups/ })
        .getByText("max_server_per_host=2")
        .last(),
    ).toBeVisible();

    await page.getByRole("link", { name: `Edit ${name}` }).click();
    const edit = form(page, "Edit server group");
    await edit.getByLabel("Policy").selectOption("soft-anti-affinity");
    await edit.getByLabel("Rule max_server_per_host").fill("");
    await edit.getByRole("button", { name: "Save server group" }).click();
    await expect(edit.getByText("Server group saved.")).toBeVisible();
    const [after] = groupNamed(name);
    expect(after.policy).toBe("soft-anti-affinity");
    expect(JSON.parse(after.rules)).toEqual({});

    acceptNextDialog(page);
    await page.getByRole("button", { name: "Delete server group" }).click();
    await expect(page).toHaveURL(/deleted=/);
    expect(groupNamed(name)).toEqual([]);
  });
});
