/**
 * `npm run -s cloud -- sync` for cron: JSON lines on stdout, the cloud from
 * OS_* variables (an openrc) or clouds.yaml, exit 0 / 1 / 2.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FakeCloud, startFakeCloud } from "@/lib/openstack-api/testing/fake-cloud";
import { main } from "./index";

let cloud: FakeCloud;
let dir: string;
let prevUrl: string | undefined;
beforeAll(async () => {
  cloud = await startFakeCloud({ hosts: 5 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloud-cli-"));
  prevUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = `file:${path.join(dir, "cli.db")}`;
});
afterAll(async () => {
  if (prevUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = prevUrl;
  fs.rmSync(dir, { recursive: true, force: true });
  await cloud.close();
});

async function cli(argv: string[], env: Record<string, string>) {
  const lines: string[] = [];
  const out = vi.spyOn(process.stdout, "write").mockImplementation((s) => {
    lines.push(...String(s).split("\n").filter(Boolean));
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    const code = await main(argv, env);
    return { code, events: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const openrc = () => ({
  OS_AUTH_URL: cloud.settings.auth_url,
  OS_USERNAME: "admin",
  OS_PASSWORD: cloud.settings.password as string,
  OS_PROJECT_NAME: "admin",
  OS_USER_DOMAIN_NAME: "Default",
  OS_PROJECT_DOMAIN_NAME: "Default",
});

describe("cloud sync", () => {
  it("syncs from an openrc's variables: progress lines, then done with the counts", async () => {
    const { code, events } = await cli(["sync"], openrc());
    expect(code).toBe(0);
    expect(events.find((e) => e.event === "start")).toMatchObject({ cloud: "OS_* environment variables" });
    expect(events.some((e) => e.event === "progress" && e.step === "provider details")).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: "done", hosts: 5, instances: 10 });
    expect(JSON.stringify(events)).not.toContain(cloud.settings.password as string);
  });

  it("syncs --os-cloud NAME from clouds.yaml", async () => {
    const file = path.join(dir, "clouds.yaml");
    fs.writeFileSync(
      file,
      `clouds:\n  fake:\n    auth:\n      auth_url: ${cloud.settings.auth_url}\n      username: admin\n      password: ${cloud.settings.password}\n      project_name: admin\n`,
    );
    const { code, events } = await cli(["sync", "--os-cloud", "fake"], { OS_CLIENT_CONFIG_FILE: file, HOME: dir });
    expect(code).toBe(0);
    expect(events.at(-1)).toMatchObject({ event: "done", hosts: 5 });
  });

  it.each([
    [["sync", "--bogus"], 2, /unknown option --bogus/],
    [["nope"], 2, /unknown command "nope"/],
    [["sync", "--concurrency", "0"], 2, /--concurrency must be a whole number from 1 to 64/],
  ])("%j exits %i", async (argv, want, msg) => {
    const { code, events } = await cli(argv, openrc());
    expect(code).toBe(want);
    expect(String(events.at(-1)?.message)).toMatch(msg);
  });

  it("a failed sync is one error line naming what failed, exit 1", async () => {
    cloud.faults.push({ path: /os-aggregates/, kind: "status", status: 500 });
    try {
      const { code, events } = await cli(["sync"], openrc());
      expect(code).toBe(1);
      expect(events.at(-1)).toMatchObject({ event: "error", kind: "status" });
      expect(String(events.at(-1)?.message)).toMatch(/aggregates: GET .*\/os-aggregates answered 500/);
    } finally {
      cloud.faults.length = 0;
    }
  });
});
