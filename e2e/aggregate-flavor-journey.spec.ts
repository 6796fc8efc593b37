// The operator's journey through the editors: an operator tags an aggregate ssd=true, adds two
// hosts to it, gives a flavor aggregate_instance_extra_specs:ssd=true, reloads,
// and finds all of it persisted — each step asserted in the page and in the DB.
import { expect, test } from "@playwright/test";
import { queryAll } from "./db";
import { acceptNextDialog, createAggregate, form, uid } from "./ui-helpers";

test("aggregate metadata ssd=true + two hosts + flavor extra spec, persisted across reloads", async ({ page }) => {
  const id = uid();
  const aggName = `e2e-ssd-${id}`;
  const flavorName = `e2e.ssd.${id}`;
  // Two hosts that are already in the demo's ssd aggregate: tagging them ssd=true
  // once more changes nothing for other tests that schedule on this cloud.
  let hosts = queryAll<{ name: string }>(
    `SELECT h.name AS name FROM "ComputeHost" h
       JOIN "AggregateHost" ah ON ah.hostId = h.id JOIN "AggregateMetadata" m ON m.aggregateId = ah.aggregateId
      WHERE m.key = 'ssd' AND m.value = 'true' ORDER BY h.position DESC LIMIT 2`,
  ).map((h) => h.name);
  if (hosts.length < 2) {
    hosts = queryAll<{ name: string }>(`SELECT name FROM "ComputeHost" ORDER BY position DESC LIMIT 2`).map(
      (h) => h.name,
    );
  }
  expect(hosts).toHaveLength(2);

  // 1. a new aggregate
  await createAggregate(page, aggName);
  await expect(page).toHaveURL(new RegExp(`/aggregates/${aggName}`));

  // 2. metadata ssd=true, with the reader shown live while typing
  const addMeta = form(page, "Add metadata");
  await addMeta.getByLabel("New key").fill("ssd");
  await expect(addMeta.getByText("AggregateInstanceExtraSpecsFilter")).toBeVisible();
  await expect(addMeta.getByText("aggregate_instance_extra_specs:ssd")).toBeVisible();
  await addMeta.getByLabel("New value").fill("true");
  await addMeta.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText("Added ssd.")).toBeVisible();
  await expect(page.getByLabel("Value of ssd")).toHaveValue("true");
  await expect(addMeta.getByLabel("New key")).toHaveValue("");
  expect(
    queryAll(
      `SELECT m.value FROM "AggregateMetadata" m JOIN "Aggregate" a ON a.id = m.aggregateId WHERE a.name = ? AND m.key = 'ssd'`,
      aggName,
    ),
  ).toEqual([{ value: "true" }]);

  // 3. two hosts, found with the server-side search picker
  const picker = page.getByRole("region", { name: "Add hosts" });
  for (const h of hosts) {
    await picker.getByLabel("Search hosts to add").fill(h);
    await picker.getByLabel(h, { exact: true }).check();
  }
  await expect(picker.getByRole("list", { name: "Selected hosts" }).getByRole("listitem")).toHaveCount(2);
  await picker.getByRole("button", { name: "Add 2 selected hosts" }).click();
  await expect(picker.getByText(`Added 2 hosts: ${hosts.join(", ")}.`)).toBeVisible();
  const members = page.getByRole("table", { name: `Hosts in ${aggName}` });
  for (const h of hosts) await expect(members.getByRole("rowheader", { name: h, exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Hosts (2)" })).toBeVisible();

  // 4. a flavor with aggregate_instance_extra_specs:ssd=true
  await page.goto("/flavors");
  const fc = form(page, "Create flavor");
  await fc.getByLabel("Name", { exact: true }).fill(flavorName);
  await fc.getByLabel("vCPUs").fill("2");
  await fc.getByLabel("RAM (MB)").fill("4096");
  await fc.getByLabel("Root disk (GB)").fill("20");
  await fc.getByRole("button", { name: "Create flavor" }).click();
  await expect(page).toHaveURL(new RegExp(`/flavors/${flavorName.replace(/\./g, "\\.")}`));
  await expect(page.getByRole("heading", { level: 1, name: flavorName })).toBeVisible();
  const addSpec = form(page, "Add extra spec");
  await addSpec.getByLabel("New key").fill("aggregate_instance_extra_specs:ssd");
  await addSpec.getByLabel("New value").fill("true");
  await expect(addSpec.getByText("AggregateInstanceExtraSpecsFilter")).toBeVisible();
  await expect(addSpec.getByText('equal to "true"')).toBeVisible();
  await addSpec.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText("Added aggregate_instance_extra_specs:ssd.")).toBeVisible();
  await expect(page.getByLabel("Value of aggregate_instance_extra_specs:ssd")).toHaveValue("true");

  // 5. reload: everything is still there
  await page.reload();
  await expect(page.getByLabel("Value of aggregate_instance_extra_specs:ssd")).toHaveValue("true");
  await page.goto(`/aggregates/${aggName}`);
  await page.reload();
  await expect(page.getByLabel("Value of ssd")).toHaveValue("true");
  const reloaded = page.getByRole("table", { name: `Hosts in ${aggName}` });
  for (const h of hosts) await expect(reloaded.getByRole("rowheader", { name: h, exact: true })).toBeVisible();
  await page.goto("/flavors");
  await expect(
    page
      .getByRole("row", { name: new RegExp(flavorName.replace(/\./g, "\\.")) })
      .getByText("aggregate_instance_extra_specs:ssd=true"),
  ).toBeVisible();

  // and in the database
  const aggHosts = queryAll<{ name: string }>(
    `SELECT h.name AS name FROM "AggregateHost" ah JOIN "Aggregate" a ON a.id = ah.aggregateId JOIN "ComputeHost" h ON h.id = ah.hostId
      WHERE a.name = ? ORDER BY ah.id`,
    aggName,
  );
  expect(aggHosts.map((h) => h.name)).toEqual(hosts);
  expect(
    queryAll(
      `SELECT s.key, s.value FROM "FlavorExtraSpec" s JOIN "Flavor" f ON f.id = s.flavorId WHERE f.name = ?`,
      flavorName,
    ),
  ).toEqual([{ key: "aggregate_instance_extra_specs:ssd", value: "true" }]);

  // clean up (the hosts leave with the aggregate)
  await page.goto(`/aggregates/${aggName}`);
  acceptNextDialog(page);
  await page.getByRole("button", { name: "Delete aggregate" }).click();
  await expect(page).toHaveURL(/\/aggregates\?deleted=/);
});
