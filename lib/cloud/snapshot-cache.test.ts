/**
 * The in-memory snapshot: reused while the cloud's revision is unchanged,
 * reloaded after any write that bumps it, also one made through another
 * connection (another app process), and never changed by a scheduling run.
 */
import { describe, expect, it } from "vitest";
import { createPrismaClient } from "@/lib/db/client";
import { schedule } from "@/lib/scheduler";
import { databaseFor, flavorRow, hostRow } from "@/lib/testing/fixtures";
import { PROVIDERS } from "@/lib/testing/test-db";
import { importCloud } from "@/lib/cloud/scenario-io";
import { bumpCloudRevision, readCloudRevision } from "./revision";
import { clearSnapshotCache, loadSnapshotCached } from "./snapshot-cache";

const host = (name: string) => hostRow(name, { vcpus: 8, memory_mb: 16384, local_gb: 100 });

const CLOUD = {
  config: { enabled_filters: ["ComputeFilter"], weighers: ["RAMWeigher"] },
  hosts: [host("a"), host("b")],
  aggregates: [{ name: "agg", hosts: ["a"], metadata: {} }],
  server_groups: [{ uuid: "5f0cdd3d-7a37-4b60-9d0b-0d7e2f3c4a11", name: "g", policy: "anti-affinity" }],
  flavors: [flavorRow("m1", 1, 512, 1)],
};

describe.each(PROVIDERS)("on %s", (provider) => {
  const t = databaseFor(provider, (prisma) => importCloud(prisma, CLOUD, { profileName: "p" }));

  describe("loadSnapshotCached", () => {
    it("reuses the snapshot while the revision is unchanged", async () => {
      clearSnapshotCache(t.prisma);
      const first = await loadSnapshotCached(t.prisma);
      const second = await loadSnapshotCached(t.prisma);
      expect(first.cached).toBe(false);
      expect(second.cached).toBe(true);
      expect(second.scenario).toBe(first.scenario);
      expect(second.revision).toBe(await readCloudRevision(t.prisma));
      expect(second.profileName).toBe("p");
    });

    it("reloads after a write that bumps the revision", async () => {
      const before = await loadSnapshotCached(t.prisma);
      await t.prisma.$transaction(async (tx) => {
        await tx.computeHost.update({ where: { name: "b" }, data: { vcpusUsed: 5 } });
        await bumpCloudRevision(tx);
      });
      const after = await loadSnapshotCached(t.prisma);
      expect(after.cached).toBe(false);
      expect(after.revision).toBe(before.revision + 1);
      expect(after.scenario.hosts.find((h) => h.name === "b")?.vcpus_used).toBe(5);
    });

    it("sees a write made through another connection, as another app process would", async () => {
      await loadSnapshotCached(t.prisma);
      const other = createPrismaClient(t.db.url);
      try {
        await other.$transaction(async (tx) => {
          await tx.computeHost.update({ where: { name: "a" }, data: { serviceDisabled: true } });
          await bumpCloudRevision(tx);
        });
      } finally {
        await other.$disconnect();
      }
      const snap = await loadSnapshotCached(t.prisma);
      expect(snap.cached).toBe(false);
      expect(snap.scenario.hosts.find((h) => h.name === "a")?.service?.disabled).toBe(true);
    });

    it("keeps one entry per profile asked for", async () => {
      await t.prisma.schedulerProfile.create({
        data: { name: "q", config: JSON.stringify({ weighers: ["CPUWeigher"] }) },
      });
      await t.prisma.$transaction((tx) => bumpCloudRevision(tx));
      const active = await loadSnapshotCached(t.prisma);
      const named = await loadSnapshotCached(t.prisma, { profileName: "q" });
      expect([active.profileName, named.profileName]).toEqual(["p", "q"]);
      expect((await loadSnapshotCached(t.prisma, { profileName: "q" })).cached).toBe(true);
      expect((await loadSnapshotCached(t.prisma)).scenario.config?.weighers).toEqual(["RAMWeigher"]);
    });

    it("is not changed by scheduling on it (instances placed, group hosts added)", async () => {
      const snap = await loadSnapshotCached(t.prisma);
      const before = JSON.stringify(snap.scenario);
      const request = {
        flavor: { name: "m1", vcpus: 1, memory_mb: 512, root_gb: 1 },
        num_instances: 2,
        server_group: "5f0cdd3d-7a37-4b60-9d0b-0d7e2f3c4a11",
      };
      const run = schedule({ ...snap.scenario, request });
      expect(run.traces[0].chosen?.host).toBe("b");
      expect(JSON.stringify(snap.scenario)).toBe(before);
    });
  });
});
