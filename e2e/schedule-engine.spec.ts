// The page shows what the engine says: for a run made through /schedule, the
// stored result (GET /api/runs/ID) equals the engine run again, here, on the
// stored scenario (GET /api/runs/ID/snapshot), and the page's chosen host,
// alternates, funnel counts and top weights equal the engine's.
import { expect, test, type Page } from "@playwright/test";
import { fmtWeight } from "../lib/runs/format";
import { schedule, toResult, type ScheduleResult } from "../lib/scheduler";
import type { Scenario } from "../lib/scheduler/scenario";

async function runThroughThePage(page: Page, flavor: string, instances: number): Promise<number> {
  await page.goto("/schedule");
  await page.getByLabel("Flavor").selectOption(flavor);
  await page.getByLabel("Number of instances").fill(String(instances));
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  const link = page.getByRole("link", { name: /^Open run #\d+$/ });
  await expect(link).toBeVisible({ timeout: 20_000 });
  return Number(/#(\d+)/.exec((await link.textContent()) ?? "")![1]);
}

/** The result document as JSON has it (-0 is written 0), without the timing. */
function withoutTiming(r: ScheduleResult) {
  return JSON.parse(JSON.stringify({ ...r, timing: null }));
}

const fmtInt = (n: number) => n.toLocaleString("en-US");

async function expectPageMatchesEngine(page: Page, engine: ScheduleResult) {
  // chosen host and alternates, per instance
  const placement = page.getByRole("list", { name: "Placement", exact: true });
  const items = placement.getByRole("listitem");
  await expect(items).toHaveCount(engine.selections.length);
  for (let i = 0; i < engine.selections.length; i++) {
    const s = engine.selections[i];
    const text = ((await items.nth(i).textContent()) ?? "").replace(/\s+/g, " ");
    expect(text).toContain(`chosen host ${s.host}`);
    if (s.alternates.length) expect(text).toContain(`alternates ${s.alternates.join(", ")}`);
  }

  const tabs = page.getByRole("tablist", { name: "Instances" });
  expect(engine.requests.length).toBeGreaterThan(0);
  let checkedTicks = 0;
  for (const req of engine.requests) {
    const n = req.index + 1;
    if (engine.requests.length > 1) await tabs.getByRole("tab", { name: `Instance ${n}`, exact: true }).click();

    // funnel counts, stage by stage
    const funnel = page.getByRole("table", { name: `Funnel, instance ${n}` });
    const rows = funnel.locator("tbody tr");
    await expect(rows).toHaveCount(Math.max(req.funnel.length, 1));
    // whole columns at once (one retrying assertion each, not one per cell)
    await expect(rows.getByRole("rowheader")).toHaveText(
      req.funnel.map((f) => f.filter.replace(/^placement:/, "Placement: ")),
    );
    await expect(rows.locator("td:nth-of-type(1)")).toHaveText(req.funnel.map((f) => fmtInt(f.in)));
    await expect(rows.locator("td:nth-of-type(2)")).toHaveText(req.funnel.map((f) => fmtInt(f.out)));

    // the top weights: the first page of the weighed table, rank by rank
    const table = page.getByRole("table", { name: `Weighed hosts, instance ${n}` });
    const wrows = table.locator("tbody tr");
    const top = req.weighed.slice(0, 25);
    expect(top.length, "a run that placed its instances weighed some hosts").toBeGreaterThan(0);
    await expect(wrows).toHaveCount(Math.max(top.length, 1));
    await expect(wrows.getByRole("rowheader")).toHaveText(top.map((w) => w.host));
    await expect(wrows.locator("td:nth-of-type(3)")).toHaveText(top.map((w) => fmtWeight(w.weight)));
    // the chart's axis lists the same top hosts, in the same order, one tick per host it draws
    const figure = page.getByRole("figure", { name: new RegExp(`^Weights of the top \\d+ hosts of instance ${n}`) });
    const drawn = Number(/top (\d+) hosts/.exec((await figure.getAttribute("aria-label")) ?? "")?.[1]);
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThanOrEqual(req.weighed.length);
    // the host axis's labels ("chosen · #1 cmp-…"); recharts draws ticks in layers outside the axis group
    const ticks = figure.locator("svg text").filter({ hasText: /^(chosen · |alt \d+ · )?#\d+ \S/ });
    await expect(ticks).toHaveCount(drawn);
    const labels = (await ticks.allTextContents()).map((t) => t.replace(/^(chosen|alt \d+) · /, ""));
    expect(labels).toEqual(req.weighed.slice(0, drawn).map((w, k) => `#${k + 1} ${w.host}`));
    checkedTicks += drawn;
  }
  // every instance was compared; an empty page must not pass
  expect(checkedTicks).toBeGreaterThanOrEqual(engine.requests.length);
}

test.describe("The page equals the engine", () => {
  for (const [flavor, instances] of [
    ["gpu.large", 1],
    ["m1.large", 3],
  ] as const) {
    test(`${flavor} × ${instances}: stored result, engine re-run and page agree`, async ({ page, request }) => {
      const id = await runThroughThePage(page, flavor, instances);

      const stored = (await (await request.get(`/api/runs/${id}`)).json()) as ScheduleResult;
      const scenario = (await (await request.get(`/api/runs/${id}/snapshot`)).json()) as Scenario;
      expect(scenario.request.flavor.name).toBe(flavor);
      expect(scenario.request.num_instances).toBe(instances);

      // the engine, independently, on the scenario it saw
      const engine = toResult(schedule(scenario));
      expect(withoutTiming(stored)).toEqual(withoutTiming(engine));
      expect(engine.error).toBeNull();
      expect(engine.selections).toHaveLength(instances);

      await expectPageMatchesEngine(page, engine);

      // and /runs/ID shows the stored run the same way
      await page.goto(`/runs/${id}`);
      await expectPageMatchesEngine(page, engine);
    });
  }
});
