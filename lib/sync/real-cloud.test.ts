/**
 * Against the real cloud (../shared/real-cloud, started by npm test or by
 * hand at REAL_CLOUD_STATE, default /var/tmp/real-cloud): importing the
 * collector's bundle and syncing the same cloud give the same
 * `npm run -s scenario -- export`, byte for byte.
 *
 * The cloud is shared, so it may change while the (slow) collector runs: a
 * sync before and one after the collector must agree, else the round is
 * repeated; the collector's export must equal theirs.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { settingsFromCloudsYaml } from "@/lib/openstack-api/clouds-yaml";
import { createTestDatabase } from "@/lib/testing/test-db";
import { runSync } from "./run";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const STATE = process.env.REAL_CLOUD_STATE || "/var/tmp/real-cloud";
const CLOUDS = path.join(STATE, "clouds.yaml");

async function exportOf(url: string): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "lib/scenario/cli.ts", "export"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url },
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}

describe("the real cloud", () => {
  it(
    "a sync and the collector's bundle import give the same export, byte for byte",
    async () => {
      if (!fs.existsSync(CLOUDS))
        throw new Error(
          `the real cloud is not running: no ${CLOUDS}. Start it with ../shared/real-cloud/start.sh (as root), ` +
            "or set REAL_CLOUD_STATE to where it runs; npm test starts it itself",
        );
      const settings = settingsFromCloudsYaml(fs.readFileSync(CLOUDS, "utf8"), "real-cloud");
      const env = { ...process.env, OS_CLIENT_CONFIG_FILE: CLOUDS, OS_CLOUD: "real-cloud" };
      const sync = async () => {
        const db = await createTestDatabase();
        try {
          await runSync(db.prisma, {
            connectionName: "real-cloud",
            settings,
            actor: { userId: null, userName: "test", role: "admin" },
            startedBy: "test",
          });
          return await exportOf(db.url);
        } finally {
          await db.cleanup();
        }
      };
      // what the collector and the sync must agree on beyond bare hosts: an aggregate with a zone, metadata
      // and hosts, a flavor with extra specs, an image with properties, a server group (removed at the end)
      const prefix = `sync-eq-${Date.now().toString(36)}`;
      const os_ = (...args: string[]) => run("openstack", args, { env, maxBuffer: 16 * 1024 * 1024 });
      const tiny = path.join(os.tmpdir(), `${prefix}.raw`);
      fs.writeFileSync(tiny, Buffer.alloc(4096));
      // an interrupted earlier run may have left its aggregate (with its zone) on the shared hosts
      await removeLeftovers(os_);
      try {
        await os_("aggregate", "create", `${prefix}-agg`, "--zone", `${prefix}-az`, "--property", "ssd=true");
        await os_("aggregate", "add", "host", `${prefix}-agg`, "cmp-medium-1");
        await os_("aggregate", "add", "host", `${prefix}-agg`, "cmp-big-1");
        await os_(
          "flavor",
          "create",
          `${prefix}-fl`,
          "--vcpus",
          "1",
          "--ram",
          "256",
          "--disk",
          "1",
          "--property",
          "aggregate_instance_extra_specs:ssd=true",
          "--property",
          "hw:cpu_policy=shared",
        );
        await os_(
          "image",
          "create",
          `${prefix}-img`,
          "--disk-format",
          "raw",
          "--container-format",
          "bare",
          "--file",
          tiny,
          "--property",
          "hw_architecture=x86_64",
        );
        await os_("server", "group", "create", `${prefix}-grp`, "--policy", "soft-anti-affinity");
        await roundsOf(sync, env);
      } finally {
        fs.rmSync(tiny, { force: true });
        const quiet = (...args: string[]) => os_(...args).catch(() => {});
        await quiet("aggregate", "remove", "host", `${prefix}-agg`, "cmp-medium-1");
        await quiet("aggregate", "remove", "host", `${prefix}-agg`, "cmp-big-1");
        await quiet("aggregate", "delete", `${prefix}-agg`);
        await quiet("flavor", "delete", `${prefix}-fl`);
        await quiet("image", "delete", `${prefix}-img`);
        await quiet("server", "group", "delete", `${prefix}-grp`);
      }
    },
    40 * 60_000,
  );
});

type OpenStack = (...args: string[]) => Promise<{ stdout: string }>;

/** Remove every sync-eq-* aggregate (its hosts first), flavor, image and server group. */
async function removeLeftovers(os_: OpenStack): Promise<void> {
  const list = async (...args: string[]) =>
    (JSON.parse((await os_(...args, "-f", "json")).stdout || "[]") as { Name: string; ID: string | number }[]).filter(
      (r) => String(r.Name).startsWith("sync-eq-"),
    );
  const quiet = (...args: string[]) => os_(...args).catch(() => ({ stdout: "" }));
  for (const a of await list("aggregate", "list")) {
    const shown = JSON.parse((await os_("aggregate", "show", String(a.ID), "-f", "json")).stdout) as {
      hosts?: string[];
    };
    for (const h of shown.hosts ?? []) await quiet("aggregate", "remove", "host", String(a.ID), h);
    await quiet("aggregate", "delete", String(a.ID));
  }
  for (const f of await list("flavor", "list", "--all")) await quiet("flavor", "delete", String(f.ID));
  for (const i of await list("image", "list")) await quiet("image", "delete", String(i.ID));
  for (const g of await list("server", "group", "list", "--all-projects"))
    await quiet("server", "group", "delete", String(g.ID));
}

async function roundsOf(sync: () => Promise<string>, env: NodeJS.ProcessEnv): Promise<void> {
  let last = "";
  for (let attempt = 1; attempt <= 3; attempt++) {
    const before = await sync();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "real-cloud-bundle-"));
    const db = await createTestDatabase();
    try {
      await run(
        "bash",
        [path.join(ROOT, "scripts/collect-openstack.sh"), "-o", path.join(dir, "b"), "--no-nova-conf"],
        {
          env,
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      await run(
        process.execPath,
        ["--import", "tsx", "lib/scenario/cli.ts", "import-openstack", path.join(dir, "b.tar.gz")],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url }, maxBuffer: 64 * 1024 * 1024 },
      );
      const collected = await exportOf(db.url);
      const after = await sync();
      if (before !== after) {
        last = `attempt ${attempt}: the cloud changed while the collector ran (others use it); again`;
        process.stderr.write(`${last}\n`);
        continue;
      }
      expect(collected).toBe(after);
      expect(JSON.parse(after).hosts.length).toBeGreaterThan(0);
      return;
    } finally {
      await db.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  throw new Error(`${last}: gave up after 3 rounds`);
}
