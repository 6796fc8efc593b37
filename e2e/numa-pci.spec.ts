// NUMA and PCI on screen: a host's NUMA cells, the fit of a pinned flavor in a
// trial result, the cell-level reason of NUMATopologyFilter, and flavor extra
// specs Nova refuses. Runs on the demo cloud (NFV and GPU hosts, "nfv" profile).
import { expect, test, type Page } from "@playwright/test";
import { queryAll } from "./db";
import { expectFieldError, form } from "./ui-helpers";

const specsOf = (flavor: string) =>
  queryAll<{ key: string; value: string }>(
    `SELECT s.key, s.value FROM "FlavorExtraSpec" s JOIN "Flavor" f ON f.id = s.flavorId WHERE f.name = ? ORDER BY s.key`,
    flavor,
  );

type NumaHost = { name: string; numaTopology: string; pciDevicePools: string | null };

/** Demo hosts with a cpu_dedicated_set (PCPU inventory): the NFV hosts. */
const nfvHosts = () =>
  queryAll<NumaHost>(
    `SELECT name, numaTopology, pciDevicePools FROM "ComputeHost" WHERE pcpus > 0 AND numaTopology IS NOT NULL ORDER BY position`,
  );

async function scheduleWith(page: Page, flavor: string, profile: string): Promise<number> {
  await page.goto("/schedule");
  await page.getByLabel("Flavor").selectOption(flavor);
  await page.getByLabel("Scheduler profile").selectOption(profile);
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  const status = page.getByRole("status").filter({ hasText: /Run #\d+/ });
  await expect(status).toBeVisible({ timeout: 30_000 });
  return Number(/Run #(\d+)/.exec((await status.textContent()) ?? "")?.[1]);
}

test.describe("NUMA and PCI", () => {
  test("a NUMA host's page draws its cells: threads by core, roles in words, pages and devices per cell", async ({
    page,
  }) => {
    const host = nfvHosts().find((h) =>
      (JSON.parse(h.numaTopology).cells as { pinned_cpus: number[] }[]).some((c) => c.pinned_cpus.length),
    )!;
    expect(host, "the demo cloud has an NFV host with pinned CPUs").toBeTruthy();
    const cells = JSON.parse(host.numaTopology).cells as {
      id: number;
      pcpuset: number[];
      cpuset: number[];
      pinned_cpus: number[];
    }[];
    await page.goto(`/hosts/${host.name}`);
    const numa = page.getByRole("region", { name: "NUMA topology and devices" });
    await expect(numa.getByRole("heading", { level: 3 })).toHaveText(
      cells.map((c) => `NUMA cell ${c.id} (socket ${c.id})`),
    );

    const cell = cells.find((c) => c.pinned_cpus.length)!;
    const cpus = numa.getByRole("list", { name: `CPUs of NUMA cell ${cell.id} of ${host.name}, by core` });
    // every thread is announced with its role; a pinned one says so
    await expect(cpus.getByRole("listitem", { name: `CPU ${cell.pinned_cpus[0]}: dedicated, pinned` })).toBeVisible();
    await expect(cpus.getByRole("listitem", { name: `CPU ${cell.cpuset[0]}: shared, free` })).toBeVisible();
    await expect(numa.getByRole("meter", { name: `Cell ${cell.id} pinned CPUs` })).toHaveAttribute(
      "aria-valuenow",
      String(cell.pinned_cpus.length),
    );
    const pages = numa.getByRole("table", { name: `Memory pages of NUMA cell ${cell.id}` });
    await expect(pages.getByRole("row", { name: /^1 GiB/ })).toBeVisible();
    await expect(pages.getByRole("row", { name: /^2 MiB/ })).toBeVisible();
    const devices = numa.getByRole("table", { name: `PCI devices on NUMA cell ${cell.id}` });
    await expect(devices.getByRole("row", { name: /8086:154c type-VF/ })).toContainText("physical_network=physnet1");
    await expect(
      numa.getByRole("table", { name: "Extra Placement inventories" }).getByRole("row", { name: /^PCPU/ }),
    ).toBeVisible();
  });

  test("the pinned flavor under the nfv profile: the result shows guest cell → host cell and vCPU → host CPU", async ({
    page,
  }) => {
    const nfv = nfvHosts().map((h) => h.name);
    const id = await scheduleWith(page, "c1.xlarge", "nfv");
    await expect(page.getByRole("heading", { level: 2, name: `Run #${id}` })).toBeVisible();
    await expect(page.getByRole("list", { name: "Run details" })).toContainText(/Nova release 26 \(Zed\)/);
    const text = (await page.getByRole("list", { name: "Placement", exact: true }).textContent()) ?? "";
    const chosen = /chosen host\s*(\S+?)\s*chosen/.exec(text)?.[1] ?? "";
    expect(
      nfv.concat(
        queryAll<{ name: string }>(`SELECT name FROM "ComputeHost" WHERE numaTopology IS NOT NULL`).map((r) => r.name),
      ),
    ).toContain(chosen);
    const fit = page.getByRole("table", { name: `NUMA fit of ${chosen}` });
    await expect(fit).toBeVisible();
    const row = fit.getByRole("row").nth(1);
    // 8 dedicated vCPUs, each pinned to a host CPU
    await expect(row.getByRole("cell").nth(2)).toHaveText(/^0→\d+, 1→\d+, 2→\d+, 3→\d+, 4→\d+, 5→\d+, 6→\d+, 7→\d+$/);
    await expect(row.getByRole("cell").nth(4)).toHaveText("16384 MiB");

    // a host without a NUMA topology is rejected for that reason
    const plain = queryAll<{ name: string }>(
      `SELECT name FROM "ComputeHost" WHERE numaTopology IS NULL AND serviceDisabled = 0 AND serviceUp = 1 AND forcedDown = 0 AND numIoOps < 8 ORDER BY position LIMIT 1`,
    )[0].name;
    await page.getByLabel("Why not host…").fill(plain);
    await expect(page.getByRole("region", { name: "Host fates" })).toContainText(
      `${plain}: removed by NUMATopologyFilter — no NUMA topology reported`,
    );
  });

  test("a GPU host whose cells cannot take the guest shows the cell-level reason", async ({ page }) => {
    // needs the engine's NUMATopologyFilter (merged on main): the reason names each host cell
    await scheduleWith(page, "gpu.xlarge", "nfv");
    const funnel = page.getByRole("table", { name: "Funnel, instance 1" });
    const numaRow = funnel.getByRole("row", { name: /NUMATopologyFilter/ });
    // the reason goes down to the host's NUMA nodes: which node lacks the devices, what each has free
    await expect(numaRow).toContainText(/on NUMA node \d/);
    await expect(numaRow).toContainText("free by node");
  });

  test("flavor extra specs Nova refuses are refused before saving, with the rule; legal ones explained", async ({
    page,
  }) => {
    await page.goto("/flavors/c1.xlarge");
    const add = form(page, "Add extra spec");
    const key = add.getByLabel("New key");
    const value = add.getByLabel("New value");
    const submit = add.getByRole("button", { name: "Add", exact: true });
    const before = specsOf("c1.xlarge");

    await key.fill("hw:numa_nodes");
    await value.fill("2");
    await expect(add.getByText("2 guest NUMA node(s)")).toBeVisible();

    await key.fill("hw:mem_page_size");
    await value.fill("huge");
    await submit.click();
    // Nova's own verdicts (nova/api/validation/extra_specs), word for word
    await expectFieldError(value, "Validation failed; 'huge' is not of the format");
    await key.fill("resources:VCPU");
    await value.fill("abc");
    await submit.click();
    await expectFieldError(value, "Validation failed; 'abc' is not a valid integer value.");
    await key.fill("pci_passthrough:alias");
    await value.fill("a40");
    await submit.click();
    await expectFieldError(value, "Validation failed; 'a40' is not of the format");
    expect(specsOf("c1.xlarge")).toEqual(before);
  });
});
