/**
 * Connected to the real cloud (../shared/real-cloud at REAL_CLOUD_STATE,
 * default /var/tmp/real-cloud; npm test starts it): an admin pastes its
 * clouds.yaml entry on /connections, syncs, and sees its hosts with their
 * real inventories and the nested host's child provider; then servers are
 * booted with the openstack client (several flavors, an anti-affinity group
 * of three, --nic none), a second sync brings them in on the hosts Nova
 * chose. Syncing replaces the cloud, so this spec runs on its own server
 * and database copy. Everything it creates in the cloud carries PREFIX and
 * is removed at the end (and at the start, after an interrupted run).
 */
import { type ChildProcess, execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, type Page, test } from "@playwright/test";
import { queryFile, serveCopy } from "./server";

const run = promisify(execFile);
const STATE = process.env.REAL_CLOUD_STATE || "/var/tmp/real-cloud";
const CLOUDS = path.join(STATE, "clouds.yaml");
const ROOT_PREFIX = "e2e-sync-";
const PREFIX = `${ROOT_PREFIX}${Date.now().toString(36)}`;
const CONNECTION = "real-cloud";

let tmp: string;
let dbFile: string;
let base: string;
let server: ChildProcess | undefined;

/** The real openstack client against the real cloud, JSON out. */
async function openstack(...args: string[]): Promise<unknown> {
  const { stdout } = await run("openstack", [...args, "-f", "json"], {
    env: { ...process.env, OS_CLIENT_CONFIG_FILE: CLOUDS, OS_CLOUD: "real-cloud" },
    maxBuffer: 32 * 1024 * 1024,
  });
  return stdout.trim() ? JSON.parse(stdout) : null;
}
async function openstackQuiet(...args: string[]): Promise<void> {
  await run("openstack", args, {
    env: { ...process.env, OS_CLIENT_CONFIG_FILE: CLOUDS, OS_CLOUD: "real-cloud" },
  }).catch(() => {});
}

/** Remove what this spec (this run or an interrupted one) created in the cloud. */
async function cleanup(): Promise<void> {
  const mine = (rows: unknown) =>
    ((rows as { Name: string; ID: string }[]) ?? []).filter((r) => r.Name?.startsWith(ROOT_PREFIX)).map((r) => r.ID);
  const servers = mine(await openstack("server", "list", "--all-projects"));
  if (servers.length) await openstackQuiet("server", "delete", "--wait", ...servers);
  const groups = mine(await openstack("server", "group", "list", "--all-projects"));
  if (groups.length) await openstackQuiet("server", "group", "delete", ...groups);
  const flavors = mine(await openstack("flavor", "list", "--all"));
  if (flavors.length) await openstackQuiet("flavor", "delete", ...flavors);
  const images = mine(await openstack("image", "list"));
  if (images.length) await openstackQuiet("image", "delete", ...images);
}

const syncRuns = () =>
  queryFile<{ id: number; status: string }>(dbFile, `SELECT id, status FROM "SyncRun" ORDER BY id DESC`);

/** Sync now on the page; the progress shows while it runs, then the result of this sync. */
async function syncNow(page: Page): Promise<void> {
  const before = syncRuns().length;
  await page.goto(`${base}/connections`);
  await page.getByRole("button", { name: `Sync ${CONNECTION} now` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sync started." })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Sync progress" })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => syncRuns().length, { timeout: 30_000 }).toBe(before + 1);
  await expect.poll(() => syncRuns()[0].status, { timeout: 180_000 }).not.toBe("running");
  expect(syncRuns()[0].status).toBe("succeeded");
  await expect(page.getByRole("table", { name: `Last sync of ${CONNECTION}` })).toBeVisible({ timeout: 30_000 });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  if (!fs.existsSync(CLOUDS))
    throw new Error(
      `the real cloud is not running: no ${CLOUDS}. Start it with ../shared/real-cloud/start.sh (as root) or set REAL_CLOUD_STATE; npm test starts it itself`,
    );
  await cleanup();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-real-cloud-e2e-"));
  ({ dbFile, base, server } = await serveCopy(tmp, "real-cloud-sync"));
});

test.afterAll(async () => {
  test.setTimeout(300_000);
  if (server?.pid) server.kill("SIGTERM");
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  if (fs.existsSync(CLOUDS)) await cleanup();
});

test("an admin enters the real cloud's clouds.yaml entry, syncs, and sees its hosts as Placement has them", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto(`${base}/connections`);
  await page.getByRole("textbox", { name: "Connection name" }).fill(CONNECTION);
  await page.getByRole("textbox", { name: "clouds.yaml entry" }).fill(fs.readFileSync(CLOUDS, "utf8"));
  await page.getByRole("textbox", { name: "Cloud name in the file" }).fill("real-cloud");
  await page.getByRole("button", { name: "Save connection" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Connection saved." })).toBeVisible();
  // the password is stored sealed: neither the page nor the database shows it
  const password = /password:\s*(\S+)/.exec(fs.readFileSync(CLOUDS, "utf8"))?.[1] ?? "";
  await page.reload();
  expect(await page.content()).not.toContain(password);
  const row = queryFile<{ settings: string; secret: string }>(
    dbFile,
    `SELECT settings, secret FROM "CloudConnection"`,
  )[0];
  expect(`${row.settings}${row.secret}`).not.toContain(password);

  await page.getByRole("button", { name: `Test ${CONNECTION}` }).click();
  await expect(
    page.getByRole("status").filter({ hasText: /Keystone accepted the credentials \(roles: .*admin/ }),
  ).toBeVisible({
    timeout: 60_000,
  });

  await syncNow(page);
  const hypervisors = (await openstack("hypervisor", "list")) as { "Hypervisor Hostname": string }[];
  const lastSync = page.getByRole("table", { name: `Last sync of ${CONNECTION}` });
  await expect(lastSync.getByRole("row", { name: /^Hosts/ }).getByRole("cell")).toHaveText(String(hypervisors.length));
  await expect(page.getByRole("listitem").filter({ hasText: "nova.conf is in no API" })).toBeVisible();
  // the header of every page tells how old the synced cloud is
  await page.goto(`${base}/hosts`);
  await expect(page.getByRole("link", { name: /Synced just now|Synced \d+ min ago/ })).toBeVisible();

  // every host with Placement's own inventory (read here with the openstack client, not through Schedscope)
  const providers = (await openstack("resource", "provider", "list")) as { uuid: string; name: string }[];
  for (const name of ["cmp-big-1", "cmp-small-1", "cmp-pci-1"]) {
    const rp = providers.find((p) => p.name === name);
    expect(rp, `resource provider ${name}`).toBeTruthy();
    const inv = (await openstack("resource", "provider", "inventory", "list", rp!.uuid)) as {
      resource_class: string;
      total: number;
      allocation_ratio: number;
    }[];
    const vcpu = inv.find((i) => i.resource_class === "VCPU")!;
    const host = queryFile<{ vcpus: number; cpuAllocationRatio: number }>(
      dbFile,
      `SELECT vcpus, "cpuAllocationRatio" FROM "ComputeHost" WHERE name = ?`,
      name,
    )[0];
    expect(host).toEqual({ vcpus: vcpu.total, cpuAllocationRatio: vcpu.allocation_ratio });
    await page.goto(`${base}/hosts/${name}`);
    await expect(page.getByRole("heading", { level: 1, name: new RegExp(name) })).toBeVisible();
  }
  // the nested host's child provider and its CUSTOM_MAGIC inventory
  await page.goto(`${base}/hosts/cmp-nested-1`);
  await expect(page.getByRole("heading", { name: "Child resource providers (1)" })).toBeVisible();
  const children = page.getByRole("table", { name: /Resource providers under cmp-nested-1/ });
  await expect(children.getByRole("row", { name: /cmp-nested-1-child/ })).toContainText("CUSTOM_MAGIC");
});

test("servers booted with the openstack client come in with the next sync, on the hosts Nova chose", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const img = path.join(tmp, "tiny.raw");
  fs.writeFileSync(img, Buffer.alloc(64 * 1024));
  await openstack(
    "image",
    "create",
    `${PREFIX}-img`,
    "--disk-format",
    "raw",
    "--container-format",
    "bare",
    "--file",
    img,
  );
  await openstack("flavor", "create", `${PREFIX}-small`, "--vcpus", "1", "--ram", "512", "--disk", "1");
  await openstack("flavor", "create", `${PREFIX}-medium`, "--vcpus", "2", "--ram", "1024", "--disk", "2");
  const group = (await openstack("server", "group", "create", `${PREFIX}-grp`, "--policy", "anti-affinity")) as {
    id: string;
  };
  const boot = (name: string, flavor: string, ...extra: string[]) =>
    openstack(
      "server",
      "create",
      name,
      "--flavor",
      flavor,
      "--image",
      `${PREFIX}-img`,
      "--nic",
      "none",
      "--wait",
      ...extra,
    );
  // an anti-affinity group of three, one request each (predictions compare a server at a time: within one
  // multi-instance request they cannot tell which member went where), and one server of another flavor
  for (const n of [1, 2, 3]) await boot(`${PREFIX}-grp-${n}`, `${PREFIX}-small`, "--hint", `group=${group.id}`);
  await boot(`${PREFIX}-medium-1`, `${PREFIX}-medium`);
  const booted = ((await openstack("server", "list", "--all-projects", "--long")) as Record<string, string>[]).filter(
    (s) => s.Name.startsWith(PREFIX),
  );
  expect(booted).toHaveLength(4);

  await syncNow(page);
  for (const s of booted) {
    const row = queryFile<{ host: string | null }>(
      dbFile,
      `SELECT h.name AS host FROM "Instance" i LEFT JOIN "ComputeHost" h ON h.id = i."hostId" WHERE i.uuid = ?`,
      s.ID,
    )[0];
    expect(row?.host, `server ${s.Name}`).toBe(s.Host);
  }
  const groupHosts = booted.filter((s) => s.Name.startsWith(`${PREFIX}-grp`)).map((s) => s.Host);
  expect(new Set(groupHosts).size).toBe(3);
  await page.goto(`${base}/instances?q=${PREFIX}`);
  await expect(page.getByText(`${PREFIX}-medium-1`, { exact: true }).first()).toBeVisible();
  await expectHistoryDiffAndPredictions(page, booted);
});

/**
 * The diff and the predictions after the second sync, on /history: the
 * newest snapshot against the one before (the page's default pair).
 */
async function expectHistoryDiffAndPredictions(page: Page, booted: Record<string, string>[]): Promise<void> {
  await page.goto(`${base}/history`);
  await expect(page.getByRole("heading", { name: /^Changes from #\d+ to #\d+$/ })).toBeVisible();
  const created = page.getByRole("table", { name: "Instance changes" }).getByRole("row", { name: /^created/ });
  for (const s of booted) await expect(created).toContainText(`${s.Name} on ${s.Host}`);
  // each new server has Schedscope's prediction on the snapshot before, beside the host Nova chose. Not yet
  // asserted equal: a sync, like the collector, does not read the servers' creation time, so the predictions
  // take the new servers in uuid order, and the group's later members are predicted on hosts the earlier
  // ones took (issue 34's note)
  const predictions = page.getByRole("table", { name: "Predictions" });
  for (const s of booted) {
    const row = predictions.getByRole("row", { name: new RegExp(`^${s.Name}\\b`) });
    await expect(row.getByRole("cell").nth(1)).toHaveText(/^cmp-/);
    await expect(row.getByRole("cell").nth(2)).toHaveText(s.Host);
  }
}
