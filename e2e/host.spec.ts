// The host page (/hosts/[name]): resources with usage meters, aggregates,
// instances, metrics, traits; enabling / disabling the compute service.
import { expect, test } from "@playwright/test";
import { queryAll } from "./db";
import { expectFieldError, form, uid } from "./ui-helpers";

type Host = {
  name: string;
  vcpus: number;
  vcpusUsed: number;
  cpuAllocationRatio: number;
  serviceDisabled: number;
  disabledReason: string | null;
};

const hostRow = (name: string) =>
  queryAll<Host>(
    `SELECT name, vcpus, vcpusUsed, cpuAllocationRatio, serviceDisabled, disabledReason FROM "ComputeHost" WHERE name = ?`,
    name,
  )[0];

test.describe("Host page", () => {
  test("shows resources as labelled meters, aggregates, traits, metrics and instances", async ({ page }) => {
    const h = queryAll<{ name: string }>(
      `SELECT h.name AS name FROM "ComputeHost" h WHERE EXISTS (SELECT 1 FROM "Instance" i WHERE i.hostId = h.id)
         AND EXISTS (SELECT 1 FROM "AggregateHost" ah WHERE ah.hostId = h.id) ORDER BY h.position LIMIT 1`,
    )[0];
    const row = hostRow(h.name);
    await page.goto("/hosts");
    await page.getByRole("table", { name: "Compute hosts" }).getByRole("link", { name: h.name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: h.name })).toBeVisible();

    const vcpu = page.getByRole("meter", { name: "vCPU" });
    await expect(vcpu).toHaveAttribute("aria-valuenow", String(row.vcpusUsed));
    await expect(vcpu).toHaveAttribute("aria-valuemax", String(row.vcpus * row.cpuAllocationRatio));
    await expect(page.getByRole("meter", { name: "RAM" })).toBeVisible();
    await expect(page.getByRole("meter", { name: "Disk" })).toBeVisible();

    const aggs = queryAll<{ name: string }>(
      `SELECT a.name AS name FROM "AggregateHost" ah JOIN "Aggregate" a ON a.id = ah.aggregateId JOIN "ComputeHost" h ON h.id = ah.hostId WHERE h.name = ?`,
      h.name,
    );
    const aggTable = page.getByRole("table", { name: new RegExp(`Aggregates of ${h.name}`) });
    for (const a of aggs) await expect(aggTable.getByRole("link", { name: a.name, exact: true })).toBeVisible();
    const inst = queryAll<{ uuid: string }>(
      `SELECT i.uuid FROM "Instance" i JOIN "ComputeHost" h ON h.id = i.hostId WHERE h.name = ? LIMIT 3`,
      h.name,
    );
    const instTable = page.getByRole("table", { name: new RegExp(`Instances on ${h.name}`) });
    for (const i of inst) await expect(instTable.getByText(i.uuid)).toBeVisible();
    await expect(page.getByRole("heading", { name: /Traits \(\d+\)/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: /Metrics \(\d+\)/ })).toBeVisible();
  });

  test("disabling the compute service needs a reason; enable restores it", async ({ page }) => {
    // an enabled host near the end of the list (restored at the end of the test)
    const h = queryAll<{ name: string }>(
      `SELECT name FROM "ComputeHost" WHERE NOT serviceDisabled AND serviceUp AND NOT forcedDown ORDER BY position DESC LIMIT 1 OFFSET 3`,
    )[0];
    await page.goto(`/hosts/${h.name}`);
    const svc = form(page, "Compute service");
    await expect(svc.getByText("The compute service is enabled")).toBeVisible();

    // no reason: refused, nothing written
    await svc.getByRole("button", { name: "Disable service" }).click();
    await expectFieldError(svc.getByLabel("Reason for disabling"), "reason: is required when disabling the service");
    await expect(svc.getByRole("alert")).toContainText("Not saved");
    expect(hostRow(h.name).serviceDisabled).toBe(0);

    const reason = `e2e maintenance ${uid()}`;
    try {
      await svc.getByLabel("Reason for disabling").fill(reason);
      await svc.getByRole("button", { name: "Disable service" }).click();
      await expect(svc.getByText(`Compute service on ${h.name} disabled.`)).toBeVisible();
      await expect(svc.getByText(`reason: “${reason}”`)).toBeVisible();
      expect(hostRow(h.name)).toMatchObject({ serviceDisabled: 1, disabledReason: reason });
      // the overview lists it with its reason
      await page.goto(`/hosts?state=disabled&q=${encodeURIComponent(h.name)}`);
      await expect(
        page.getByRole("table", { name: "Compute hosts" }).getByRole("link", { name: h.name, exact: true }),
      ).toBeVisible();
    } finally {
      await page.goto(`/hosts/${h.name}`);
      await form(page, "Compute service").getByRole("button", { name: "Enable service" }).click();
      await expect(page.getByText(`Compute service on ${h.name} enabled.`)).toBeVisible();
    }
    expect(hostRow(h.name)).toMatchObject({ serviceDisabled: 0, disabledReason: null });
  });
});
