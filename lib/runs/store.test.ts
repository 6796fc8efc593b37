/**
 * Runs stored compactly: the result gzipped, the cloud once per revision;
 * read back exactly as the engine produced them, from memory while the
 * write is still to come, and after waiting when another process writes it.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { bigCloud } from "@/lib/demo/big-cloud";
import type { PrismaClient } from "@/lib/db/client";
import { importCloud } from "@/lib/cloud/scenario-io";
import { bumpCloudRevision } from "@/lib/cloud/revision";
import type { ScenarioRequest } from "@/lib/scheduler/scenario";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { getRunText } from "./queries";
import { insertRun, prepareRun, runDetails, runSchedule } from "./schedule";
import { pendingRun, readRunColumn, storeRunDetails, storeRunDetailsLater } from "./store";

// As JSON keeps it (-0 is written 0).
const json = (v: unknown) => JSON.parse(JSON.stringify(v));

describe.each(PROVIDERS)("on %s", (provider) => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  const cloud = bigCloud(300, 1);
  const REQUEST: ScenarioRequest = { flavor: { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 40 } };

  beforeAll(async () => {
    db = await createTestDatabaseOf(provider, inject("postgresUrl"));
    prisma = db.prisma;
    await importCloud(
      prisma,
      { ...cloud, flavors: [{ ...REQUEST.flavor, id: "l", extra_specs: {} }] },
      { profileName: "p" },
    );
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  describe("stored runs", () => {
    it("keep the cloud once per revision and give back the exact result and scenario", async () => {
      const a = await runSchedule(REQUEST, undefined, { db: prisma });
      const b = await runSchedule({ ...REQUEST, num_instances: 2 }, undefined, { db: prisma });
      expect(await prisma.cloudSnapshot.count()).toBe(1);
      await prisma.$transaction((tx) => bumpCloudRevision(tx));
      const c = await runSchedule(REQUEST, undefined, { db: prisma });
      expect(await prisma.cloudSnapshot.count()).toBe(2);

      for (const r of [a, b, c])
        expect(JSON.parse((await getRunText(prisma, r.id, "result"))!)).toEqual(json(r.result));
      const scenario = JSON.parse((await getRunText(prisma, b.id, "snapshot"))!);
      expect(Object.keys(scenario)).toEqual(["hosts", "aggregates", "server_groups", "config", "request"]);
      expect(scenario.hosts).toHaveLength(300);
      expect(scenario.request).toEqual({ ...REQUEST, num_instances: 2 });
    });

    it("made in quick succession on a new revision store the cloud once and every result", async () => {
      await prisma.$transaction((tx) => bumpCloudRevision(tx));
      const before = await prisma.cloudSnapshot.count();
      const tasks: Array<() => Promise<void>> = [];
      const runs = [];
      for (let i = 0; i < 4; i++) {
        const p = await prepareRun(prisma, REQUEST);
        const row = await prisma.$transaction((tx) => insertRun(tx, p));
        storeRunDetailsLater(prisma, row.id, runDetails(p), (t) => tasks.push(t));
        runs.push({ id: row.id, result: p.result });
      }
      // the answers have gone out: every deferred store starts at once
      await Promise.all(tasks.map((t) => t()));
      expect(await prisma.cloudSnapshot.count()).toBe(before + 1);
      for (const r of runs) {
        expect(pendingRun(r.id)).toBeUndefined();
        const row = await prisma.schedulingRun.findUniqueOrThrow({ where: { id: r.id } });
        expect(row.resultGz).not.toBeNull();
        expect(JSON.parse((await getRunText(prisma, r.id, "result"))!)).toEqual(json(r.result));
      }
    });

    it("are a fraction of their JSON's size", async () => {
      const r = await runSchedule(REQUEST, undefined, { db: prisma });
      const row = await prisma.schedulingRun.findUniqueOrThrow({ where: { id: r.id } });
      const text = JSON.stringify(r.result);
      expect(row.resultGz!.length).toBeLessThan(text.length / 4);
      expect([row.result, row.snapshot]).toEqual(["null", "null"]);
    });

    it("are read from memory until stored, and waited for by another reader", async () => {
      const p = await prepareRun(prisma, REQUEST);
      const row = await prisma.$transaction((tx) => insertRun(tx, p));
      let task: (() => Promise<void>) | undefined;
      storeRunDetailsLater(prisma, row.id, runDetails(p), (t) => {
        task = t;
      });
      expect(pendingRun(row.id)).toBeDefined();
      expect(JSON.parse((await getRunText(prisma, row.id, "result"))!)).toEqual(json(p.result));
      await task!();
      expect(pendingRun(row.id)).toBeUndefined();
      expect(JSON.parse((await getRunText(prisma, row.id, "result"))!)).toEqual(json(p.result));

      // A row whose details another process has yet to write: the reader waits.
      const q = await prepareRun(prisma, REQUEST);
      const late = await prisma.$transaction((tx) => insertRun(tx, q));
      const reading = readRunColumn(prisma, late.id, "result");
      await new Promise((res) => setTimeout(res, 250));
      await storeRunDetails(prisma, late.id, runDetails(q));
      expect(JSON.parse((await reading)!)).toEqual(json(q.result));
    });
  });
});
