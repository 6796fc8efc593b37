import { expect, test } from "@playwright/test";
import { queryAll } from "./db";
import { acceptNextDialog, addPair, createAggregate, expectFieldError, form, pairForm, uid } from "./ui-helpers";

const aggCount = () => queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "Aggregate"`)[0].n;
const metadataOf = (name: string) =>
  queryAll<{ key: string; value: string }>(
    `SELECT m.key AS key, m.value AS value FROM "AggregateMetadata" m JOIN "Aggregate" a ON a.id = m.aggregateId WHERE a.name = ? ORDER BY m.key`,
    name,
  );

test.describe("Aggregates", () => {
  test("lists the aggregates with their zone, host count and metadata readers", async ({ page }) => {
    const rows = queryAll<{ name: string }>(`SELECT name FROM "Aggregate" ORDER BY position, id`);
    await page.goto("/aggregates");
    await expect(page.getByRole("heading", { level: 1, name: "Aggregates" })).toBeVisible();
    const table = page.getByRole("table", { name: /Host aggregates/ });
    for (const r of rows.slice(0, 5))
      await expect(table.getByRole("link", { name: r.name, exact: true })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Aggregates" }),
    ).toHaveAttribute("aria-current", "page");
  });

  test("a duplicate aggregate name is rejected next to the field and nothing is written", async ({ page }) => {
    const existing = queryAll<{ name: string }>(`SELECT name FROM "Aggregate" ORDER BY id LIMIT 1`)[0].name;
    const before = aggCount();
    await page.goto("/aggregates");
    const f = form(page, "Create aggregate");
    await f.getByLabel("Name", { exact: true }).fill(existing);
    await f.getByRole("button", { name: "Create aggregate" }).click();
    await expectFieldError(f.getByLabel("Name", { exact: true }), `an aggregate named "${existing}" already exists`);
    await expect(f.getByRole("alert")).toContainText("Not saved");
    await expect(page).toHaveURL(/\/aggregates$/);
    expect(aggCount()).toBe(before);
    // an empty name too
    await f.getByLabel("Name", { exact: true }).fill("   ");
    await f.getByRole("button", { name: "Create aggregate" }).click();
    await expectFieldError(f.getByLabel("Name", { exact: true }), "name: is required");
    expect(aggCount()).toBe(before);
  });

  test("metadata: bad values are rejected with the rule of the filter or weigher that reads them", async ({ page }) => {
    const name = `e2e-meta-${uid()}`;
    await createAggregate(page, name);
    const { add, key, value, submit } = pairForm(page, "Add metadata");

    // a multiplier must be a Python float
    await key.fill("ram_weight_multiplier");
    await expect(add.getByText("RAMWeigher").first()).toBeVisible();
    await value.fill("fast");
    await submit.click();
    await expectFieldError(value, /ram_weight_multiplier must be a number \(Python float\(\) syntax/);
    await expect(add.locator("xpath=..").getByRole("alert")).toContainText("Not saved");
    expect(metadataOf(name)).toEqual([]);

    // soft-affinity multipliers must not be negative
    await key.fill("soft_affinity_weight_multiplier");
    await value.fill("-1.0");
    await submit.click();
    await expectFieldError(value, /soft_affinity_weight_multiplier must be >= 0/);
    expect(metadataOf(name)).toEqual([]);

    // max_* must be whole numbers
    await key.fill("max_instances_per_host");
    await expect(add.getByText("AggregateNumInstancesFilter")).toBeVisible();
    await value.fill("1.5");
    await submit.click();
    await expectFieldError(value, /max_instances_per_host must be a whole number/);
    expect(metadataOf(name)).toEqual([]);

    // Python float syntax is accepted ("1e3", "-.5"), and free keys too
    await addPair(add, "ram_weight_multiplier", "-.5");
    await addPair(add, "rack", "r12");
    expect(metadataOf(name)).toEqual([
      { key: "rack", value: "r12" },
      { key: "ram_weight_multiplier", value: "-.5" },
    ]);

    // a key that is already set is changed in its row, not added twice
    await key.fill("rack");
    await value.fill("r13");
    await submit.click();
    await expectFieldError(key, /"rack" is already set on this aggregate/);
    expect(metadataOf(name)).toContainEqual({ key: "rack", value: "r12" });
  });

  test("metadata is changed and removed in place", async ({ page }) => {
    const name = `e2e-edit-${uid()}`;
    await createAggregate(page, name);
    await addPair(form(page, "Add metadata"), "cpu_weight_multiplier", "2.0");
    const row = form(page, "Edit cpu_weight_multiplier");
    await expect(row.getByLabel("Value of cpu_weight_multiplier")).toHaveValue("2.0");
    await expect(row.getByText("CPUWeigher").first()).toBeVisible();

    // change the value in place: a bad one first
    await row.getByLabel("Value of cpu_weight_multiplier").fill("1,5");
    await row.getByRole("button", { name: "Save cpu_weight_multiplier" }).click();
    await expectFieldError(row.getByLabel("Value of cpu_weight_multiplier"), /must be a number/);
    expect(metadataOf(name)).toEqual([{ key: "cpu_weight_multiplier", value: "2.0" }]);
    await row.getByLabel("Value of cpu_weight_multiplier").fill("-1.0");
    await row.getByRole("button", { name: "Save cpu_weight_multiplier" }).click();
    await expect(page.getByText("Saved cpu_weight_multiplier.")).toBeVisible();
    expect(metadataOf(name)).toEqual([{ key: "cpu_weight_multiplier", value: "-1.0" }]);

    // rename the key in place
    await row.getByLabel("Key of cpu_weight_multiplier").fill("disk_weight_multiplier");
    await row.getByRole("button", { name: "Save cpu_weight_multiplier" }).click();
    await expect(page.getByLabel("Value of disk_weight_multiplier")).toHaveValue("-1.0");
    expect(metadataOf(name)).toEqual([{ key: "disk_weight_multiplier", value: "-1.0" }]);

    // remove
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Remove disk_weight_multiplier" }).click();
    await expect(page.getByLabel("Value of disk_weight_multiplier")).toHaveCount(0);
    await page.reload();
    await expect(page.getByText("No metadata.")).toBeVisible();
    expect(metadataOf(name)).toEqual([]);
  });

  test("rename, availability zone, hosts and delete", async ({ page }) => {
    const name = `e2e-agg-${uid()}`;
    const renamed = `${name}-b`;
    await createAggregate(page, name);

    // rename (a taken name is refused)
    const taken = queryAll<{ name: string }>(
      `SELECT name FROM "Aggregate" WHERE name <> ? ORDER BY id LIMIT 1`,
      name,
    )[0].name;
    const rename = form(page, "Rename aggregate");
    await rename.getByLabel("Name", { exact: true }).fill(taken);
    await rename.getByRole("button", { name: "Rename" }).click();
    await expectFieldError(rename.getByLabel("Name", { exact: true }), `already exists`);
    await rename.getByLabel("Name", { exact: true }).fill(renamed);
    await rename.getByRole("button", { name: "Rename" }).click();
    await expect(page).toHaveURL(new RegExp(`/aggregates/${renamed}`));
    await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();

    // availability zone: ':' is refused, a name is kept and shown as availability_zone metadata
    const zone = form(page, "Availability zone");
    await zone.getByLabel("Availability zone").fill("bad:zone");
    await zone.getByRole("button", { name: "Set zone" }).click();
    await expectFieldError(zone.getByLabel("Availability zone"), /must not contain ':'/);
    await zone.getByLabel("Availability zone").fill(`zone-${name}`);
    await zone.getByRole("button", { name: "Set zone" }).click();
    await expect(zone.getByText("Availability zone saved.")).toBeVisible();
    await expect(page.getByLabel("Value of availability_zone")).toHaveValue(`zone-${name}`);
    await expect(form(page, "Edit availability_zone").getByText("AvailabilityZoneFilter")).toBeVisible();
    expect(queryAll(`SELECT availabilityZone FROM "Aggregate" WHERE name = ?`, renamed)).toEqual([
      { availabilityZone: `zone-${name}` },
    ]);
    // clear it again (its hosts keep their zone)
    await zone.getByLabel("Availability zone").fill("");
    await zone.getByRole("button", { name: "Set zone" }).click();
    await expect(page.getByLabel("Value of availability_zone")).toHaveCount(0);

    // add a host found by search, then remove it
    const host = queryAll<{ name: string }>(`SELECT name FROM "ComputeHost" ORDER BY position DESC LIMIT 1`)[0].name;
    const picker = page.getByRole("region", { name: "Add hosts" });
    await picker.getByLabel("Search hosts to add").fill(host);
    await picker.getByLabel(host, { exact: true }).check();
    await picker.getByRole("button", { name: "Add 1 selected host" }).click();
    await expect(picker.getByText(`Added 1 host: ${host}.`)).toBeVisible();
    const members = page.getByRole("table", { name: `Hosts in ${renamed}` });
    await expect(members.getByRole("rowheader", { name: host })).toBeVisible();
    // it is no longer offered by the picker
    await picker.getByLabel("Search hosts to add").fill(host);
    await expect(picker.getByText("No host outside this aggregate matches.")).toBeVisible();
    await members.getByRole("button", { name: `Remove ${host} from the aggregate` }).click();
    await expect(page.getByText("No hosts yet")).toBeVisible();

    // delete
    await page.goto(`/aggregates/${renamed}`);
    acceptNextDialog(page);
    await page.getByRole("button", { name: "Delete aggregate" }).click();
    await expect(page).toHaveURL(/\/aggregates\?deleted=/);
    await expect(page.getByRole("status").filter({ hasText: `Aggregate ${renamed} deleted.` })).toBeVisible();
    await expect(page.getByRole("link", { name: renamed, exact: true })).toHaveCount(0);
    expect(queryAll(`SELECT id FROM "Aggregate" WHERE name IN (?, ?)`, name, renamed)).toEqual([]);
  });
});
