import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCloud } from "@/lib/cloud/scenario-io";
import { clearSnapshotCache, loadSnapshotCached } from "@/lib/cloud/snapshot-cache";
import { readExample } from "@/lib/testing/cloud";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { primeServer } from "./prime";

describe("primeServer", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await importCloud(t.prisma, readExample("gpu-az.scenario.json"));
  });
  afterAll(async () => t?.cleanup());

  it("leaves the cloud in the process's memory for the first click, and stores no run", async () => {
    clearSnapshotCache(t.prisma);
    const primed = await primeServer(t.prisma);
    // round after round once the cloud is read: code V8 settles over several requests
    expect(primed.requests).toBeGreaterThan(await t.prisma.flavor.count());
    expect((await loadSnapshotCached(t.prisma)).cached).toBe(true);
    expect(await t.prisma.schedulingRun.count()).toBe(0);
  });
});
