/**
 * A sync that fails anywhere leaves the previous cloud whole and says what
 * failed: the endpoint, the status, what was not read. Table-driven against
 * a local cloud that fails on purpose; one sync at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCloud } from "@/lib/cloud/scenario-io";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { type FakeCloud, type Fault, startFakeCloud } from "@/lib/openstack-api/testing/fake-cloud";
import { sealSecrets } from "./connections";
import { takeLease } from "./lock";
import { tick, writeSchedule } from "./schedule";
import { runSync, SyncFailed } from "./run";

const actor = { userId: null, userName: "tester", role: "admin" };
let db: TestDatabase;
let cloud: FakeCloud;

beforeAll(async () => {
  db = await createTestDatabase();
  cloud = await startFakeCloud({ hosts: 12, serversPerHost: 2 });
});
afterAll(async () => {
  await cloud.close();
  await db.cleanup();
});

const sync = (over: Partial<Parameters<typeof runSync>[1]> = {}) =>
  runSync(db.prisma, {
    connectionName: "fake",
    settings: cloud.settings,
    actor,
    startedBy: "tester",
    timeoutMs: 2000,
    ...over,
  });

describe("runSync", () => {
  it("replaces the cloud with what the APIs say and records the run", async () => {
    const r = await sync();
    expect(r).toMatchObject({ hosts: 12, instances: 24, flavors: 8 });
    const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: r.runId } });
    expect(run.status).toBe("succeeded");
    expect(JSON.parse(run.result ?? "{}").notes.join(" ")).toMatch(/nova\.conf is in no API/);
    const audit = await db.prisma.auditEntry.findFirst({ where: { action: "cloud.sync" } });
    expect(audit?.entityKey).toBe("sync of fake");
    expect(await db.prisma.computeHost.count()).toBe(12);
  });

  const cases: { name: string; faults: Fault[]; password?: string; closed?: boolean; expect: RegExp }[] = [
    {
      name: "401 from Keystone",
      faults: [],
      password: "bad-one",
      expect: /Keystone token: POST .*\/auth\/tokens answered 401.*credentials were refused/,
    },
    {
      name: "403 on hypervisors",
      faults: [{ path: /os-hypervisors/, kind: "status", status: 403 }],
      expect: /hypervisors .*: GET .*\/os-hypervisors\/detail\?limit=1000 answered 403.*admin role/,
    },
    {
      name: "503 half-way through the providers",
      faults: [{ path: /\/usages$/, kind: "status", status: 503, after: 5 }],
      expect: /usages of provider cmp-\d+: GET .*\/resource_providers\/[0-9a-f-]+\/usages answered 503/,
    },
    {
      name: "timeout on servers",
      faults: [{ path: /servers\/detail/, kind: "hang" }],
      expect: /servers \(after 0 read\): GET .*\/servers\/detail.* timed out after 2 s/,
    },
    {
      name: "malformed JSON",
      faults: [{ path: /os-hypervisors/, kind: "malformed" }],
      expect: /hypervisors .*: GET .*os-hypervisors\/detail.* answered malformed JSON/,
    },
    {
      name: "connection reset",
      faults: [{ path: /os-aggregates/, kind: "reset" }],
      expect: /aggregates: GET .*\/os-aggregates could not be reached/,
    },
    {
      name: "unreachable",
      faults: [],
      closed: true,
      expect: /Keystone token: POST http:\/\/127\.0\.0\.1:1\/.* could not be reached \(.*ECONNREFUSED.*\)/,
    },
  ];
  it.each(cases)("$name: nothing is written, the previous cloud stays, the run says what failed", async (c) => {
    const before = JSON.stringify(await exportCloud(db.prisma, {}));
    cloud.faults.splice(0, cloud.faults.length, ...c.faults);
    const settings = {
      ...cloud.settings,
      ...(c.password ? { password: c.password } : {}),
      ...(c.closed ? { auth_url: "http://127.0.0.1:1/identity/v3" } : {}),
    };
    const e = await sync({ settings }).catch((x) => x);
    cloud.faults.length = 0;
    expect(e).toBeInstanceOf(SyncFailed);
    expect(e.message).toMatch(c.expect);
    expect(e.message).toMatch(/nothing was written, the previous cloud stays/);
    expect(JSON.stringify(await exportCloud(db.prisma, {}))).toBe(before);
    const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: e.runId } });
    expect(run.status).toBe("failed");
    expect(JSON.parse(run.error ?? "{}").message).toBe(e.message);
    if (c.password) expect(run.error).not.toContain(c.password);
  });

  it("one sync at a time: a second is refused while the lease is held, and runs once it is released", async () => {
    const lease = await takeLease(db.prisma, "another instance's sync");
    await expect(sync()).rejects.toThrow(/a sync is already running \(another instance's sync\)/);
    await lease.release();
    await expect(sync()).resolves.toMatchObject({ hosts: 12 });
  });

  it("an expired lease (its holder died) does not block", async () => {
    let t = Date.now();
    await takeLease(db.prisma, "crashed", () => t);
    t += 10 * 60_000;
    const next = await takeLease(db.prisma, "next", () => t);
    await next.release();
  });

  it("scheduled sync: off by default, runs when due, waits its interval", async () => {
    expect(await tick(db.prisma)).toBe("off");
    const { password, ...rest } = cloud.settings;
    const conn = await db.prisma.cloudConnection.create({
      data: {
        name: "scheduled",
        settings: JSON.stringify(rest),
        secret: await sealSecrets(db.prisma, "scheduled", { password }),
      },
    });
    await writeSchedule(db.prisma, { connectionId: conn.id, minutes: 0 });
    expect(await tick(db.prisma)).toBe("off");
    await writeSchedule(db.prisma, { connectionId: conn.id, minutes: 30 });
    expect(await tick(db.prisma)).toBe("synced");
    const run = await db.prisma.syncRun.findFirstOrThrow({ where: { connectionId: conn.id } });
    expect(run).toMatchObject({ startedBy: "schedule", status: "succeeded" });
    expect(await tick(db.prisma, new Date(Date.now() + 10 * 60_000))).toBe("not due");
    const lease = await takeLease(db.prisma, "someone else");
    expect(await tick(db.prisma, new Date(Date.now() + 31 * 60_000))).toBe("busy");
    await lease.release();
  });
});
