/**
 * "As of": a trial and a capacity fill on an older snapshot see that
 * moment's hosts (under today's profile), and such a run cannot be
 * committed to today's cloud.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MutationError } from "@/lib/actions/mutation";
import { prepareFill } from "@/lib/capacity/fill";
import { commitRunTx } from "@/lib/runs/commit";
import { insertRun, prepareRun } from "@/lib/runs/schedule";
import type { CloudDocument } from "@/lib/scenario/schema";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { clearAsOfCache, loadSnapshotAsOf } from "./as-of";
import { importWithSnapshot } from "./record";

const cloud = (hosts: string[]): CloudDocument =>
  ({
    config: { enabled_filters: ["ComputeFilter"], weighers: ["RAMWeigher"] },
    hosts: hosts.map((name, i) => ({ name, vcpus: 16, memory_mb: 32768 * (i + 1), local_gb: 500 })),
    flavors: [{ name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20 }],
  }) as unknown as CloudDocument;

describe.each(PROVIDERS)("as of an older snapshot (%s)", (provider) => {
  let t: TestDatabase;
  let then: number;
  beforeAll(async () => {
    clearAsOfCache();
    t = await createTestDatabaseOf(provider, inject("postgresUrl"));
    const meta = { source: "scenario" as const, startedBy: "tester" };
    then = (await importWithSnapshot(t.prisma, cloud(["old-1", "old-2"]), {}, meta)).snapshot.id;
    await importWithSnapshot(t.prisma, cloud(["new-1", "new-2", "new-3"]), {}, meta);
  });
  afterAll(async () => {
    clearAsOfCache();
    await t?.cleanup();
  });

  it("loads that moment's hosts under today's profile", async () => {
    const s = await loadSnapshotAsOf(t.prisma, then);
    expect(s.scenario.hosts.map((h) => h.name)).toEqual(["old-1", "old-2"]);
    expect(s.profileName).toBe("imported");
    expect(s.revision).toBe(-then);
  });

  it("a trial as of it chooses among its hosts, and its commit is refused", async () => {
    const flavor = { name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20 };
    const today = await prepareRun(t.prisma, { flavor, num_instances: 1 });
    expect(today.result.selections[0].host).toBe("new-3");
    const p = await prepareRun(t.prisma, { flavor, num_instances: 1 }, undefined, then);
    expect(p.result.selections[0].host).toBe("old-2");
    const row = await t.prisma.$transaction((tx) => insertRun(tx, p));
    const err = await t.prisma.$transaction((tx) => commitRunTx(tx, row.id)).catch((e) => e);
    expect(err).toBeInstanceOf(MutationError);
    expect((err as Error).message).toMatch(/as of snapshot #\d+, not on today's cloud/);
  });

  it("a capacity fill as of it fills its hosts; an unknown snapshot names the field", async () => {
    const { hostCount } = await prepareFill(t.prisma, {
      limit: 5,
      mix: [{ flavor: "m1.small", share: 1 }],
      asOf: then,
    });
    expect(hostCount).toBe(2);
    await expect(
      prepareFill(t.prisma, { limit: 5, mix: [{ flavor: "m1.small", share: 1 }], asOf: 999 }),
    ).rejects.toMatchObject({ field: "asOf" });
  });
});
