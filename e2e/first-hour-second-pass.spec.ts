// The operator's first hour, second pass (issue 38): every number the page
// shows adds up after a write, and a move Nova would refuse says so.
import { expect, type Page, test } from "@playwright/test";
import { execute, queryAll } from "./db";

/** An instance of `flavor` on an enabled, up host (with PCPUs when `pcpus`), in no server group. */
function instanceOf(flavor: string, pcpus = false, offset = 0) {
  return queryAll<{ uuid: string; host: string }>(
    `SELECT i.uuid, h.name AS host FROM "Instance" i
       JOIN "ComputeHost" h ON h.id = i.hostId JOIN "Flavor" f ON f.id = i.flavorId
      WHERE f.name = ? AND i.serverGroupId IS NULL AND h.serviceDisabled = 0 AND h.serviceUp = 1
        AND h.forcedDown = 0 ${pcpus ? "AND h.pcpus > 0" : ""}
      ORDER BY i.id LIMIT 1 OFFSET ?`,
    flavor,
    offset,
  )[0];
}

async function trialMove(page: Page, uuid: string, operation: string, flavor?: string) {
  await page.goto(`/instances/${uuid}`);
  const form = page.getByRole("form", { name: "Trial a move" });
  await form.getByLabel("Move", { exact: true }).selectOption(operation);
  if (flavor) await form.getByLabel("New flavor").selectOption(flavor);
  await form.getByRole("button", { name: "Trial move" }).click();
  await expect(page.getByRole("list", { name: "Run details" })).toBeVisible({ timeout: 60_000 });
}

test.describe("First hour, second pass", () => {
  test("a pinned instance moved and committed moves again: its PCPU usage went with it", async ({ page }) => {
    const inst = instanceOf("c1.xlarge", true);
    expect(inst, "a c1.xlarge instance on a host with PCPUs").toBeTruthy();
    await trialMove(page, inst.uuid, "migrate");
    await page.getByRole("button", { name: "Commit move" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Moved" })).toBeVisible({ timeout: 60_000 });
    const moved = queryAll<{ host: string; pcpus: number; pcpusUsed: number }>(
      `SELECT h.name AS host, h.pcpus, h.pcpusUsed FROM "Instance" i JOIN "ComputeHost" h ON h.id = i.hostId
        WHERE i.uuid = ?`,
      inst.uuid,
    )[0];
    expect(moved.host).not.toBe(inst.host);
    if (moved.pcpus > 0) expect(moved.pcpusUsed).toBeGreaterThanOrEqual(8);
    // before: "the usage of HOST (PCPU used: 0) must include instance …'s allocation (PCPU: 8)"
    await trialMove(page, inst.uuid, "live-migrate");
    await expect(page.getByText(/must include instance/)).toHaveCount(0);
    await expect(page.getByRole("table", { name: "Funnel, instance 1" })).toBeVisible();
  });

  test("a resize to a smaller root disk says the libvirt driver refuses it, and is not committed", async ({ page }) => {
    const inst = instanceOf("m1.large");
    expect(inst, "an m1.large instance").toBeTruthy();
    await trialMove(page, inst.uuid, "resize", "m1.tiny");
    await expect(page.getByRole("note").filter({ hasText: "Unable to resize disk down." })).toContainText(
      "root disk would shrink from 80 GB (m1.large) to 1 GB (m1.tiny)",
    );
    const commit = page.getByRole("button", { name: "Commit move" });
    if (await commit.count()) {
      await commit.click();
      await expect(page.getByText(/Not moved: .*Unable to resize disk down/)).toBeVisible({ timeout: 60_000 });
    }
    const row = queryAll<{ host: string; flavor: string }>(
      `SELECT h.name AS host, f.name AS flavor FROM "Instance" i JOIN "ComputeHost" h ON h.id = i.hostId
         JOIN "Flavor" f ON f.id = i.flavorId WHERE i.uuid = ?`,
      inst.uuid,
    )[0];
    expect(row).toEqual({ host: inst.host, flavor: "m1.large" });
  });

  test("what-if on gpu=false: Apply sets gpu=true in place, as the re-run checked", async ({ page }) => {
    const gpuValue = () =>
      queryAll<{ value: string }>(
        `SELECT m.value FROM "AggregateMetadata" m JOIN "Aggregate" a ON a.id = m.aggregateId
          WHERE a.name = 'gpu-a40' AND m.key = 'gpu'`,
      ).map((r) => r.value);
    const setGpu = (value: string) => {
      execute(
        `UPDATE "AggregateMetadata" SET value = ? WHERE key = 'gpu'
            AND aggregateId = (SELECT id FROM "Aggregate" WHERE name = 'gpu-a40')`,
        value,
      );
      execute(`UPDATE "CloudRevision" SET revision = revision + 1`);
    };
    const host = queryAll<{ name: string }>(
      `SELECT h.name FROM "ComputeHost" h JOIN "AggregateHost" ah ON ah.hostId = h.id
         JOIN "Aggregate" a ON a.id = ah.aggregateId
        WHERE a.name = 'gpu-a40' AND h.serviceDisabled = 0 AND h.serviceUp = 1 ORDER BY h.name LIMIT 1`,
    )[0].name;
    setGpu("false");
    try {
      await page.goto("/schedule");
      await page.getByLabel("Flavor").selectOption("gpu.large");
      await page.getByRole("button", { name: "Schedule", exact: true }).click();
      await expect(page.getByRole("status").filter({ hasText: /Run #\d+/ })).toBeVisible({ timeout: 30_000 });
      const form = page.getByRole("form", { name: "What would let a host pass" });
      await form.getByLabel("Rejected host").fill(host);
      await form.getByRole("button", { name: "Find changes" }).click();
      const region = page.getByRole("region", { name: `Changes for ${host}` });
      const apply = region.getByRole("button", {
        name: "Apply: set aggregate gpu-a40 metadata gpu=true (replacing gpu=false)",
      });
      await expect(apply).toBeVisible({ timeout: 30_000 });
      page.once("dialog", (d) => void d.accept());
      await apply.click();
      await expect(page.getByRole("status", { name: "Applied change" })).toContainText(
        "Applied to the cloud: set aggregate gpu-a40 metadata gpu=true",
      );
      expect(gpuValue()).toEqual(["true"]);
    } finally {
      if (gpuValue()[0] !== "true") setGpu("true");
    }
  });

  test("capacity after a fill: disk-stranded hosts counted, the largest VM flavor, a full bar at done", async ({
    page,
  }) => {
    await page.goto("/capacity");
    await page.getByLabel("Flavor", { exact: true }).selectOption("m1.large");
    await page.getByLabel("Scheduler profile").selectOption("default");
    await page.getByRole("button", { name: "Fill", exact: true }).click();
    await expect(page.getByLabel("Instances that fit")).toBeVisible({ timeout: 90_000 });
    const progress = page.getByRole("progressbar", { name: /Fill progress/ });
    await expect(progress).toHaveAttribute("value", (await progress.getAttribute("max")) ?? "");
    await expect(page.getByText(/— done: /)).toBeVisible();
    const frag = page.getByRole("region", { name: "Fragmentation after the fill" });
    await expect(frag).not.toContainText("No host has capacity stranded");
    await expect(frag).not.toContainText(/could hold is bm\./);
    await expect(frag.getByRole("figure", { name: "Hosts with stranded capacity" })).toContainText(
      /[1-9][\d,]* with the vCPUs and RAM of a filled flavor but not its disk, 80 GB or more/,
    );
    await expect(frag).toContainText("free RAM (GiB)");
  });

  for (const width of [1440, 390]) {
    test(`the overview answers "am I OK?" at ${width} px: the limit and headroom, near-full rows, bare metal by node`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      const headroom = page.getByRole("region", { name: "Headroom" });
      await expect(headroom).toBeVisible();
      const items = headroom.getByRole("list", { name: "Headroom for the main flavors" }).getByRole("listitem");
      await expect(items.first()).toContainText(
        /^(Disk|RAM|vCPU|Pinned CPU \(PCPU\)) is the limit for \S+ \([\d,]+ running\): [\d,]+ more fit; [\d,]+ of [\d,]+ enabled hosts cannot take one\.$/,
      );
      // the headroom comes before the usage cards
      const box = await headroom.boundingBox();
      const cards = await page.getByRole("list", { name: "Cloud summary" }).boundingBox();
      expect(box!.y).toBeLessThan(cards!.y);
      // near full: named in the headroom, and marked on its row
      const near = await headroom.getByText(/Near full \(90 % or more\)/).count();
      if (near) await expect(page.getByText(/near full: (vCPU|RAM|disk|bare-metal nodes) \d+%/).first()).toBeVisible();
      else await expect(headroom).toContainText("No zone or aggregate has a resource at 90 % or more.");
      // the bare-metal aggregate counts its nodes (all three of the Ironic host), not 0 / 0
      const table = page.getByRole("table", { name: /Capacity by aggregate/ });
      const row = table.getByRole("row", { name: /^baremetal/ });
      await expect(row).toContainText(/[0-3] \/ 3$/);
      const o = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
      }));
      expect(o.scroll).toBeLessThanOrEqual(o.viewport + 1);
    });
  }

  test("a host that does not exist is said so; the runs list names a move's operation", async ({ page }) => {
    const missing = await page.goto("/hosts/no-such-host-e2e");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "No such host" })).toBeVisible();
    await expect(page.getByText("Not here yet")).toHaveCount(0);

    const inst = instanceOf("m1.small", false, 3);
    await trialMove(page, inst.uuid, "migrate");
    await page.goto("/runs");
    const latest = page.getByRole("table", { name: "Scheduling runs" }).getByRole("row").nth(1);
    await expect(latest).toContainText("migrate m1.small");
  });
});
