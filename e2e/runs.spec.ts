// Runs: history, re-run against today's cloud, compare, commit.
import { expect, test, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { e2eDatabaseFile, queryAll } from "./db";

/** Write to the e2e database (the server reads it live). */
function exec(sql: string, ...params: unknown[]): number {
  const db = new Database(e2eDatabaseFile(), { fileMustExist: true, timeout: 10_000 });
  try {
    return db.prepare(sql).run(...params).changes;
  } finally {
    db.close();
  }
}

async function scheduleFlavor(page: Page, flavor: string): Promise<number> {
  await page.goto("/schedule");
  await page.getByLabel("Flavor").selectOption(flavor);
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  const link = page.getByRole("link", { name: /^Open run #\d+$/ });
  await expect(link).toBeVisible({ timeout: 20_000 });
  return Number(/#(\d+)/.exec((await link.textContent()) ?? "")![1]);
}

/** Host names of a weighed table, in rank order (first page). */
async function ranking(page: Page): Promise<string[]> {
  return page.getByRole("table", { name: "Weighed hosts, instance 1" }).locator("tbody tr th").allTextContents();
}

test.describe("Runs", () => {
  test.describe.configure({ mode: "serial" });

  test("change an aggregate's ram_weight_multiplier, re-run, and see the ranking change", async ({ page }) => {
    const a = await scheduleFlavor(page, "gpu.large");
    const before = await ranking(page);
    expect(before.length).toBeGreaterThanOrEqual(3);

    // the GPU aggregate stacks by RAM (ram_weight_multiplier=-1.0): make it spread, strongly
    const [meta] = queryAll<{ id: number; value: string }>(
      `SELECT m.id, m.value FROM "AggregateMetadata" m JOIN "Aggregate" a ON a.id = m.aggregateId
        WHERE a.name = 'gpu-a40' AND m.key = 'ram_weight_multiplier'`,
    );
    expect(meta, "the demo's gpu-a40 aggregate has a ram_weight_multiplier").toBeTruthy();
    let b = 0;
    try {
      exec(`UPDATE "AggregateMetadata" SET value = '10.0' WHERE id = ?`, meta.id);

      await page.goto("/runs");
      const table = page.getByRole("table", { name: "Scheduling runs" });
      const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: `#${a}`, exact: true }) });
      await expect(row).toContainText("gpu.large");
      await expect(row).toContainText("default");
      await row.getByRole("button", { name: `Re-run (run #${a})` }).click();

      // the comparison of the old run (A) and the re-run (B)
      await expect(page).toHaveURL(new RegExp(`/runs/compare\\?a=${a}&b=\\d+$`), { timeout: 20_000 });
      b = Number(new URL(page.url()).searchParams.get("b"));
      expect(b).toBeGreaterThan(a);
      await expect(page.getByRole("heading", { level: 1, name: "Compare runs" })).toBeVisible();
      const moved = page.getByRole("table", { name: "Hosts that moved in rank" });
      await expect(moved).toBeVisible();
      expect(await moved.locator("tbody tr").count()).toBeGreaterThan(0);
      await expect(page.getByRole("status")).toContainText(/\d+ rank changes?/);
      // ranks in A are the old ranking
      const first = moved.locator("tbody tr").first();
      const host = (await first.getByRole("rowheader").textContent())!;
      const rankA = Number(await first.getByRole("cell").nth(0).textContent());
      expect(before[rankA - 1]).toBe(host);

      // the re-run shows the new ranking, the old run is shown exactly as stored
      await page.goto(`/runs/${b}`);
      const after = await ranking(page);
      expect(after).not.toEqual(before);
      expect([...after].sort()).toEqual([...before].sort());
      const mult = page.getByRole("table", { name: "Weigher multipliers, instance 1" });
      await expect(mult.getByRole("row", { name: /RAMWeigher\s*10\s*aggregate gpu-a40/ })).toBeVisible();
      await page.goto(`/runs/${a}`);
      expect(await ranking(page)).toEqual(before);
    } finally {
      exec(`UPDATE "AggregateMetadata" SET value = ? WHERE id = ?`, meta.value, meta.id);
    }

    // the history lists both, newest first, with compare pickers
    await page.goto("/runs");
    const rows = page.getByRole("table", { name: "Scheduling runs" }).locator("tbody tr");
    const ids = (await rows.locator("th").allTextContents()).map((t) => Number(t.slice(1)));
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    await page.getByRole("radio", { name: `Run #${a} as A` }).check();
    await page.getByRole("radio", { name: `Run #${b} as B` }).check();
    await page.getByRole("button", { name: "Compare A and B" }).click();
    await expect(page).toHaveURL(/\/runs\/compare\?/);
    const params = new URL(page.url()).searchParams;
    expect([params.get("a"), params.get("b")]).toEqual([String(a), String(b)]);
    await expect(page.getByRole("table", { name: "Placement" })).toBeVisible();
  });

  test("two runs of the same request compare side by side", async ({ page }) => {
    const a = await scheduleFlavor(page, "m1.medium");
    const b = await scheduleFlavor(page, "m1.medium");
    await page.goto(`/runs/compare?a=${a}&b=${b}`);
    // another spec may change the cloud meanwhile; only assert the page works and is labelled
    await expect(page.getByRole("heading", { level: 2, name: `A: run #${a}` })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: `B: run #${b}` })).toBeVisible();
    await expect(page.getByRole("table", { name: "Funnel of both runs" })).toBeVisible();
  });

  test("commit placement creates the instance, uses the host's resources, and commits once", async ({ page }) => {
    const id = await scheduleFlavor(page, "m1.tiny");
    const placement = page.getByRole("list", { name: "Placement", exact: true });
    const host = /chosen host\s*(\S+?)\s*chosen/.exec(((await placement.textContent()) ?? "").replace(/\s+/g, " "))![1];
    const usage = () =>
      queryAll<{ vcpusUsed: number; memoryMbUsed: number; localGbUsed: number; numInstances: number }>(
        `SELECT vcpusUsed, memoryMbUsed, localGbUsed, numInstances FROM "ComputeHost" WHERE name = ?`,
        host,
      )[0];
    const before = usage();
    let uuid: string | null = null;
    try {
      await page.getByRole("button", { name: "Commit placement" }).click();
      const done = page.getByRole("status").filter({ hasText: "Committed" });
      await expect(done).toBeVisible({ timeout: 20_000 });
      const committed = page.getByRole("list", { name: "Committed instances" });
      await expect(committed).toContainText(`m1.tiny-run${id}-1`);
      await expect(committed).toContainText(host);
      uuid = (await committed.locator("code").first().textContent())!;

      const after = usage();
      expect(after.vcpusUsed - before.vcpusUsed).toBe(1);
      expect(after.memoryMbUsed - before.memoryMbUsed).toBe(512);
      expect(after.localGbUsed - before.localGbUsed).toBe(1);
      expect(after.numInstances - before.numInstances).toBe(1);
      const [inst] = queryAll<{ host: string }>(
        `SELECT h.name AS host FROM "Instance" i JOIN "ComputeHost" h ON h.id = i.hostId WHERE i.uuid = ?`,
        uuid,
      );
      expect(inst.host).toBe(host);

      // once: the stored run now shows it committed, without the button
      await page.goto(`/runs/${id}`);
      await expect(page.getByRole("status").filter({ hasText: "Committed" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Commit placement" })).toHaveCount(0);
      await page.goto("/runs");
      const row = page
        .getByRole("table", { name: "Scheduling runs" })
        .getByRole("row")
        .filter({ has: page.getByRole("rowheader", { name: `#${id}`, exact: true }) });
      await expect(row).toContainText("committed");
    } finally {
      // leave the shared demo cloud as it was
      if (uuid) exec(`DELETE FROM "Instance" WHERE uuid = ?`, uuid);
      exec(
        `UPDATE "ComputeHost" SET vcpusUsed = ?, memoryMbUsed = ?, localGbUsed = ?, numInstances = ? WHERE name = ?`,
        before.vcpusUsed,
        before.memoryMbUsed,
        before.localGbUsed,
        before.numInstances,
        host,
      );
    }
  });

  test("the same request under Zed and under 2025.1, side by side: HypervisorVersionWeigher moves hosts", async ({
    page,
    request,
  }) => {
    const zed = await scheduleFlavor(page, "m1.small");
    await expect(page.getByRole("list", { name: "Run details" })).toContainText("Nova release 26 (Zed)");
    await page.getByLabel("Re-run under release").selectOption("2025.1");
    await page.getByRole("button", { name: "Re-run and compare" }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/compare\\?a=${zed}&b=\\d+`), { timeout: 20_000 });
    const upgraded = Number(new URL(page.url()).searchParams.get("b"));

    await expect(page.getByRole("heading", { name: `A: run #${zed}` })).toBeVisible();
    await expect(page.getByRole("heading", { name: `B: run #${upgraded}` })).toBeVisible();
    await expect(page.getByText("Nova release 2025.1")).toBeVisible();
    const moved = page.getByRole("table", { name: "Hosts that moved in rank" });
    await expect(moved).toBeVisible();
    expect(await moved.locator("tbody tr").count()).toBeGreaterThan(0);

    // what moved them: the weigher 2023.2 added to "all", which Zed does not have
    const weighers = async (id: number) => {
      const r = (await (await request.get(`/api/runs/${id}`)).json()) as {
        requests: Array<{ weighed: Array<{ weighers: Record<string, unknown> }> }>;
      };
      return Object.keys(r.requests[0].weighed[0].weighers);
    };
    expect(await weighers(zed)).not.toContain("HypervisorVersionWeigher");
    expect(await weighers(upgraded)).toContain("HypervisorVersionWeigher");
  });

  test("a run that does not exist is a 404, for the page and the API", async ({ page, request }) => {
    const res = await page.goto("/runs/999999");
    expect(res?.status()).toBe(404);
    const api = await request.get("/api/runs/999999");
    expect(api.status()).toBe(404);
    expect(await api.json()).toEqual({ error: "run 999999 does not exist" });
    expect((await request.get("/api/runs/abc")).status()).toBe(400);
  });
});
