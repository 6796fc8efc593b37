// Trial scheduling: the /schedule journey on the demo cloud.
import { expect, test, type Page } from "@playwright/test";
import { queryAll } from "./db";

/** Hosts of the demo cloud's GPU aggregate (metadata gpu=true). */
function gpuHosts(): string[] {
  return queryAll<{ name: string }>(
    `SELECT h.name FROM "ComputeHost" h
       JOIN "AggregateHost" ah ON ah.hostId = h.id
       JOIN "AggregateMetadata" m ON m.aggregateId = ah.aggregateId
      WHERE m.key = 'gpu' AND m.value = 'true'`,
  ).map((r) => r.name);
}

async function scheduleFlavor(page: Page, flavor: string, more: (page: Page) => Promise<void> = async () => {}) {
  await page.goto("/schedule");
  await expect(page.getByRole("heading", { level: 1, name: "Schedule" })).toBeVisible();
  await page.getByLabel("Flavor").selectOption(flavor);
  await more(page);
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  const status = page.getByRole("status").filter({ hasText: /Run #\d+/ });
  await expect(status).toBeVisible({ timeout: 20_000 });
  const id = Number(/Run #(\d+)/.exec((await status.textContent()) ?? "")?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

test.describe("Schedule page", () => {
  test("a GPU flavor: funnel, weights, chosen host and two alternates, why-not search", async ({ page }) => {
    const gpu = gpuHosts();
    expect(gpu.length, "the demo cloud has GPU hosts").toBeGreaterThanOrEqual(3);

    const id = await scheduleFlavor(page, "gpu.large");
    await expect(page.getByRole("heading", { level: 2, name: `Run #${id}` })).toBeVisible();

    // the chosen host and its two alternates, in words
    const placement = page.getByRole("list", { name: "Placement", exact: true });
    await expect(placement).toContainText("chosen host");
    const text = (await placement.textContent()) ?? "";
    const m = /chosen host\s*(\S+?)\s*chosen;\s*alternates\s*(.+)$/.exec(text.replace(/\s+/g, " ").trim());
    expect(m, `placement text: ${text}`).not.toBeNull();
    const chosen = m![1];
    const alternates = m![2].split(",").map((s) => s.trim());
    expect(alternates).toHaveLength(2);
    for (const h of [chosen, ...alternates]) expect(gpu).toContain(h);

    // the funnel: chart + table; Placement keeps the hosts with the flavor's GPU trait only
    await expect(page.getByRole("figure", { name: /^Funnel of instance 1/ })).toBeVisible();
    const funnel = page.getByRole("table", { name: "Funnel, instance 1" });
    const placementRow = funnel.getByRole("row", { name: /^Placement/ });
    await expect(placementRow).toContainText("lacks trait HW_GPU_API_VULKAN");
    await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();

    // the weights: a stacked bar chart marking the chosen host and the alternates
    const weights = page.getByRole("figure", { name: /^Weights of the top \d+ hosts of instance 1/ });
    await expect(weights).toBeVisible();
    await expect(weights).toHaveAccessibleName(new RegExp(`chosen ${chosen}; alternates ${alternates.join(", ")}`));
    await expect(weights.locator("text", { hasText: `chosen · #1 ${chosen}` })).toBeVisible();
    await expect(weights.locator("text", { hasText: `alt 1 · ` }).filter({ hasText: alternates[0] })).toBeVisible();
    await expect(weights.locator("text", { hasText: `alt 2 · ` }).filter({ hasText: alternates[1] })).toBeVisible();
    await expect(weights.locator(".recharts-bar-rectangle").first()).toBeVisible();
    // the multipliers' sources: the GPU aggregate overrides RAM and CPU
    const mult = page.getByRole("table", { name: "Weigher multipliers, instance 1" });
    await expect(mult.getByRole("row", { name: /RAMWeigher.*aggregate gpu-a40/ })).toBeVisible();
    // every survivor in the weighed table, the chosen host first
    const table = page.getByRole("table", { name: "Weighed hosts, instance 1" });
    await expect(table.getByRole("row").nth(1)).toContainText(chosen);
    await expect(table.getByRole("row").nth(1)).toContainText("chosen");

    // hover a bar: the custom tooltip shows raw, normalized, multiplier and source
    await weights.locator(".recharts-bar-rectangle").first().hover();
    const tip = page.locator(".sc-tooltip").filter({ hasText: "× multiplier (from)" });
    await expect(tip).toBeVisible();
    await expect(tip).toContainText("normalized");
    await expect(tip).toContainText("aggregate gpu-a40");

    // why not host X?
    const whyNot = page.getByLabel("Why not host…");
    const other = queryAll<{ name: string }>(
      `SELECT name FROM "ComputeHost" WHERE name NOT IN (${gpu.map(() => "?").join(",")}) AND serviceDisabled = 0 AND serviceUp = 1 AND forcedDown = 0 ORDER BY position LIMIT 1`,
      ...gpu,
    )[0].name;
    await whyNot.fill(other);
    const fates = page.getByRole("region", { name: "Host fates" });
    await expect(fates).toContainText(`${other}: removed by Placement — lacks trait HW_GPU_API_VULKAN`);
    await whyNot.fill(chosen);
    await expect(fates).toContainText(new RegExp(`${chosen}: survived: rank 1 of \\d+, weight`));
    await expect(fates).toContainText("chosen");

    // the permalink shows the same run
    await page.getByRole("link", { name: `Open run #${id}` }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${id}$`));
    await expect(page.getByRole("list", { name: "Placement", exact: true })).toContainText(`chosen host ${chosen}`);
  });

  test("NoValidHost is explained with what to change", async ({ page }) => {
    // the high-memory flavor needs aggregate metadata highmem=true, which no host of az3 has
    await scheduleFlavor(page, "r1.2xlarge", async (p) => {
      await p.getByLabel("Availability zone").selectOption("az3");
    });
    await expect(page.getByRole("heading", { name: "No valid host" })).toBeVisible();
    await expect(page.getByText(/^0\/\d+ hosts available/)).toBeVisible();
    await expect(
      page.getByText(
        /The last \d+ hosts were removed by AggregateInstanceExtraSpecsFilter: missing aggregate metadata highmem=true \(\d+ hosts\)/,
      ),
    ).toBeVisible();
    const advice = page.getByRole("list", { name: "What to change" });
    await expect(advice).toContainText("Add highmem=true to the metadata of an aggregate whose hosts have capacity");
    await expect(advice).toContainText("remove aggregate_instance_extra_specs:highmem from flavor r1.2xlarge");
    // the funnel shows the stage that emptied the list
    const row = page
      .getByRole("table", { name: "Funnel, instance 1" })
      .getByRole("row", { name: /AggregateInstanceExtraSpecsFilter/ });
    await expect(row.getByRole("cell").nth(1)).toHaveText("0");
    // no placement to commit
    await expect(page.getByRole("button", { name: "Commit placement" })).toHaveCount(0);
  });

  test("the form validates with field errors next to the fields, and shows progress", async ({ page }) => {
    await page.goto("/schedule");
    const before = queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "SchedulingRun"`)[0].n;
    const count = page.getByLabel("Number of instances");
    await count.fill("0");
    await page.getByText(/^Scheduler hints/).click();
    const query = page.getByLabel("query (JsonFilter)");
    await query.fill('[">=", "$free_ram_mb"');
    await page.getByLabel("cidr").fill("/24");
    await page.getByRole("button", { name: "Schedule", exact: true }).click();

    await expect(count).toHaveAttribute("aria-invalid", "true");
    await expect(count).toHaveAccessibleDescription(/must be an integer >= 1/);
    await expect(query).toHaveAttribute("aria-invalid", "true");
    await expect(query).toHaveAccessibleDescription(/not valid JSON/);
    await expect(page.getByLabel("cidr")).toHaveAccessibleDescription(/needs build_near_host_ip/);
    await expect(count).toBeFocused();
    expect(queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "SchedulingRun"`)[0].n).toBe(before);

    // fixed: the run goes through, with a pending state while it runs
    await count.fill("2");
    await query.fill('[">=", "$free_ram_mb", 1024]');
    await page.getByLabel("cidr").fill("");
    await expect(count).not.toHaveAttribute("aria-invalid", "true");
    // JsonFilter is not in the default profile: the form says the hint has no effect
    await expect(query).toHaveAccessibleDescription(/JsonFilter is not enabled in profile default/);
    await page.getByLabel("Flavor").selectOption("m1.small");
    const button = page.getByRole("button", { name: /^Schedul/ });
    await button.click();
    // either we catch it running, or it is already done
    await expect(page.getByRole("status").filter({ hasText: /Scheduling m1.small on|Run #\d+/ })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: /Run #\d+: placed on/ })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("button", { name: "Schedule", exact: true })).toBeEnabled();
    // two instances: one tab each, keyboard friendly
    const tabs = page.getByRole("tablist", { name: "Instances" });
    await expect(tabs.getByRole("tab")).toHaveCount(2);
    await tabs.getByRole("tab", { name: "Instance 1" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(tabs.getByRole("tab", { name: "Instance 2" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("table", { name: "Funnel, instance 2" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Weighed hosts, instance 2" }).getByRole("row").nth(1)).toBeVisible();
  });
});
