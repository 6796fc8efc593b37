/**
 * Trial scheduling against a real SQLite file migrated with the real
 * migrations: runSchedule stores what the engine saw and said, re-runs see
 * today's cloud, and committing a placement never over-allocates a host,
 * even when two commits race.
 */
import { describe, expect, it } from "vitest";
import { importCloud } from "@/lib/cloud/scenario-io";
import { schedule, toResult } from "@/lib/scheduler";
import type { Scenario, ScenarioRequest } from "@/lib/scheduler/scenario";
import { releaseTogether } from "@/lib/testing/workers";
import { databaseFor, flavorRow, hostRow } from "@/lib/testing/fixtures";
import { PROVIDERS } from "@/lib/testing/test-db";
import { commitRun, type CommitResult, runCommitTargets } from "./commit";
import { compareResults } from "./compare";
import { getRunText } from "./queries";
import { prepareRun, rerunRequest, resolveRequest, runSchedule } from "./schedule";
import { ScheduleFormSchema } from "./schemas";

const FLAVOR = { ...flavorRow("m1.big", 4, 8192, 40), id: "big" };

/** Three hosts; "tight" has room for exactly one m1.big (RAM), "roomy" for many but ranks below. */
function cloud() {
  const host = hostRow;
  return {
    config: {
      enabled_filters: ["ComputeFilter", "AvailabilityZoneFilter"],
      weighers: ["RAMWeigher"],
      ram_weight_multiplier: -1.0, // stack: the fullest host first
    },
    hosts: [
      host("tight", { memory_mb_used: 32768 - 8192 - 1024 }), // 9216 MB free: one m1.big
      host("roomy", { memory_mb_used: 4096 }),
      host("off", { service: { disabled: true, disabled_reason: "maintenance", up: true } }),
    ],
    aggregates: [{ name: "rack1", hosts: ["tight", "roomy"], metadata: {} }],
    flavors: [FLAVOR, { ...FLAVOR, name: "m1.small", id: "small", vcpus: 1, memory_mb: 1024, root_gb: 10 }],
    images: [{ id: "8d0b0b3c-6f7e-4c55-9d0e-2a1b3c4d5e6f", name: "cirros", properties: { hw_architecture: "x86_64" } }],
  };
}

const REQUEST: ScenarioRequest = { flavor: FLAVOR, num_instances: 1 };

describe.each(PROVIDERS)("on %s", (provider) => {
  const t = databaseFor(provider, (prisma) => importCloud(prisma, cloud(), { profileName: "stack" }));

  /**
   * Commit each run from its own process (lib/testing/commit-worker.ts),
   * all released at the same moment once every process is connected.
   */
  async function commitInProcesses(runIds: number[]): Promise<CommitResult[]> {
    const results = (
      await releaseTogether<CommitResult[]>(runIds.map((id) => ["lib/testing/commit-worker.ts", t.db.url, String(id)]))
    ).flat();
    for (const r of results) expect(r).not.toHaveProperty("crashed");
    return results;
  }

  async function resetCloud() {
    await importCloud(t.prisma, cloud(), { profileName: "stack" });
  }

  describe("runSchedule", () => {
    it("stores the request, the config, the exact scenario the engine saw and its result", async () => {
      const r = await runSchedule(REQUEST, undefined, { db: t.prisma });
      expect(r.result.error).toBeNull();
      expect(r.result.selections).toEqual([{ host: "tight", alternates: ["roomy"] }]);
      expect(r.profileName).toBe("stack");

      const row = await t.prisma.schedulingRun.findUniqueOrThrow({ where: { id: r.id } });
      expect(row).toMatchObject({
        profileName: "stack",
        flavorName: "m1.big",
        numInstances: 1,
        error: null,
        hostCount: 3,
        committedAt: null,
      });
      expect(JSON.parse(row.chosenHosts)).toEqual(["tight"]);
      expect(JSON.parse(row.request)).toEqual(REQUEST);
      expect(JSON.parse(row.config)).toMatchObject({ ram_weight_multiplier: -1 });
      expect(JSON.parse((await getRunText(t.prisma, r.id, "result"))!)).toEqual(r.result);
      expect(row.engineMs).toBeCloseTo(r.result.timing.engine_ms, 9);

      // deterministic: the stored snapshot scheduled again gives the same answer
      const snapshot = JSON.parse((await getRunText(t.prisma, r.id, "snapshot"))!) as Scenario;
      expect(snapshot.request).toEqual(REQUEST);
      expect(snapshot.hosts.map((h) => h.name)).toEqual(["tight", "roomy", "off"]);
      const again = toResult(schedule(snapshot));
      expect({ ...again, timing: null }).toEqual({ ...r.result, timing: null });
    });

    it("uses the named profile, and says so when it does not exist", async () => {
      await t.prisma.schedulerProfile.create({
        data: { name: "spread", config: JSON.stringify({ ...cloud().config, ram_weight_multiplier: 1.0 }) },
      });
      const r = await runSchedule(REQUEST, "spread", { db: t.prisma });
      expect(r.result.selections[0].host).toBe("roomy");
      await expect(runSchedule(REQUEST, "nope", { db: t.prisma })).rejects.toMatchObject({ field: "profile" });
    });

    it("explains NoValidHost", async () => {
      const r = await runSchedule({ ...REQUEST, availability_zone: "az9" }, undefined, { db: t.prisma });
      expect(r.result.error).toBe("NoValidHost");
      expect(r.result.diagnosis?.lastFilter).toBe("AvailabilityZoneFilter");
      const row = await t.prisma.schedulingRun.findUniqueOrThrow({ where: { id: r.id } });
      expect(row.error).toBe("NoValidHost");
      expect(JSON.parse(row.chosenHosts)).toEqual([]);
    });

    it("resolves the form: flavor and image from the database, hints, field errors", async () => {
      const form = ScheduleFormSchema.parse({
        flavor: "m1.big",
        image: "8d0b0b3c-6f7e-4c55-9d0e-2a1b3c4d5e6f",
        num_instances: "2",
        same_host: "",
        different_host: "0d8a0b1c-6f7e-4c55-9d0e-2a1b3c4d5e6f",
        query: '[">=", "$free_ram_mb", 1024]',
        build_near_host_ip: "10.0.0.1",
        cidr: "/24",
      });
      const req = await resolveRequest(t.prisma, form);
      expect(req).toMatchObject({
        flavor: { name: "m1.big", id: "big", vcpus: 4, memory_mb: 8192 },
        image: {
          id: "8d0b0b3c-6f7e-4c55-9d0e-2a1b3c4d5e6f",
          name: "cirros",
          properties: { hw_architecture: "x86_64" },
        },
        num_instances: 2,
        scheduler_hints: {
          different_host: ["0d8a0b1c-6f7e-4c55-9d0e-2a1b3c4d5e6f"],
          query: '[">=", "$free_ram_mb", 1024]',
          build_near_host_ip: "10.0.0.1",
          cidr: "/24",
        },
      });
      await expect(resolveRequest(t.prisma, { ...form, flavor: "m9.huge" })).rejects.toMatchObject({ field: "flavor" });
      await expect(
        resolveRequest(t.prisma, { ...form, image: "00000000-0000-0000-0000-000000000000" }),
      ).rejects.toMatchObject({ field: "image" });
      await expect(resolveRequest(t.prisma, { ...form, server_group: "ghost" })).rejects.toMatchObject({
        field: "server_group",
      });
    });

    it("refuses more host × instances than a run can explain", async () => {
      await expect(prepareRun(t.prisma, { ...REQUEST, num_instances: 20_000 })).rejects.toMatchObject({
        field: "num_instances",
      });
    });
  });

  describe("re-run and compare", () => {
    it("re-runs a stored run against today's cloud and shows what moved", async () => {
      await resetCloud();
      const a = await runSchedule(REQUEST, undefined, { db: t.prisma });
      expect(a.result.requests[0].weighed.map((w) => w.host)).toEqual(["tight", "roomy"]);
      // today: an aggregate flips the RAM multiplier of its hosts
      const agg = await t.prisma.aggregate.findUniqueOrThrow({ where: { name: "rack1" } });
      await t.prisma.aggregateMetadata.create({
        data: { aggregateId: agg.id, key: "ram_weight_multiplier", value: "2.0" },
      });
      const { request, profileName } = await rerunRequest(t.prisma, a.id);
      expect(profileName).toBe("stack");
      const b = await runSchedule(request, profileName, { db: t.prisma });
      expect(b.id).not.toBe(a.id);
      expect(b.result.requests[0].weighed.map((w) => w.host)).toEqual(["roomy", "tight"]);
      expect(b.result.requests[0].weighed[0].weighers.RAMWeigher.source).toBe("aggregate rack1");

      const c = compareResults(a.result, b.result);
      expect(c.instances[0]).toMatchObject({ chosenA: "tight", chosenB: "roomy", chosenChanged: true });
      expect(c.instances[0].rankChanges.map((r) => [r.host, r.rankA, r.rankB])).toEqual([
        ["roomy", 2, 1],
        ["tight", 1, 2],
      ]);
    });
  });

  describe("commit placement", () => {
    async function freshRuns(n: number) {
      await resetCloud();
      const runs = [];
      for (let i = 0; i < n; i++) runs.push(await runSchedule(REQUEST, undefined, { db: t.prisma }));
      for (const r of runs) expect(r.result.selections[0].host).toBe("tight");
      return runs;
    }

    async function tight() {
      return t.prisma.computeHost.findUniqueOrThrow({ where: { name: "tight" } });
    }

    it("creates the instances and consumes the host's resources, once", async () => {
      const [run] = await freshRuns(1);
      const before = await tight();
      const r = await commitRun(t.prisma, run.id);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const after = await tight();
      expect(after.vcpusUsed - before.vcpusUsed).toBe(4);
      expect(after.memoryMbUsed - before.memoryMbUsed).toBe(8192);
      expect(after.localGbUsed - before.localGbUsed).toBe(40);
      expect(after.numInstances - before.numInstances).toBe(1);
      expect(after.numIoOps).toBe(before.numIoOps);
      const inst = await t.prisma.instance.findUniqueOrThrow({
        where: { uuid: r.outcome.instances[0].uuid },
        include: { host: true, flavor: true },
      });
      expect(inst.host?.name).toBe("tight");
      expect(inst.flavor?.name).toBe("m1.big");
      const row = await t.prisma.schedulingRun.findUniqueOrThrow({ where: { id: run.id } });
      expect(row.committedAt).not.toBeNull();
      expect(JSON.parse(row.committedInstances!)).toEqual(r.outcome.instances);

      const twice = await commitRun(t.prisma, run.id);
      expect(twice).toMatchObject({ ok: false, message: expect.stringMatching(/already committed/) });
      expect((await tight()).memoryMbUsed).toBe(after.memoryMbUsed);

      // the committed instance is part of the cloud the next run sees
      const next = await runSchedule(REQUEST, undefined, { db: t.prisma });
      const snap = JSON.parse((await getRunText(t.prisma, next.id, "snapshot"))!) as Scenario;
      expect(snap.hosts.find((h) => h.name === "tight")?.instances).toContain(r.outcome.instances[0].uuid);
    });

    it("two runs choosing the same host, committed at once: exactly one wins (same client)", async () => {
      const [a, b] = await freshRuns(2);
      const results = await Promise.all([commitRun(t.prisma, a.id), commitRun(t.prisma, b.id)]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const loser = results.find((r) => !r.ok) as { ok: false; message: string };
      expect(loser.message).toMatch(
        /was not committed: tight cannot take 1 × m1.big any more \(MEMORY_MB: .* MB free < 8192 MB needed\)/,
      );
      expect(loser.message).toMatch(/re-run/);
      const h = await tight();
      expect(h.memoryMbUsed).toBe(32768 - 1024); // one m1.big on top
      expect(await t.prisma.instance.count({ where: { hostId: h.id } })).toBe(1);
      const committed = await t.prisma.schedulingRun.count({
        where: { id: { in: [a.id, b.id] }, committedAt: { not: null } },
      });
      expect(committed).toBe(1);
    });

    it("two processes (two connections) committing at once: exactly one wins", async () => {
      const runs = await freshRuns(3);
      const results = await commitInProcesses(runs.map((r) => r.id));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      for (const r of results) if (!r.ok) expect(r.message).toMatch(/tight cannot take 1 × m1.big any more/);
      const h = await tight();
      expect(h.memoryMbUsed).toBe(32768 - 1024);
      expect(await t.prisma.instance.count({ where: { hostId: h.id } })).toBe(1);
      // spawning tsx processes takes seconds on a loaded machine
    }, 120_000);

    it("the same run committed by two processes at once commits once", async () => {
      const [run] = await freshRuns(1);
      const results = await commitInProcesses([run.id, run.id]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.find((r) => !r.ok)).toMatchObject({ message: expect.stringMatching(/already committed/) });
      expect((await tight()).numInstances).toBe(1);
      // spawning tsx processes takes seconds on a loaded machine
    }, 120_000);

    it("refuses a host that was disabled since, and a failed run", async () => {
      const [run] = await freshRuns(1);
      await t.prisma.computeHost.update({ where: { name: "tight" }, data: { serviceDisabled: true } });
      expect(await commitRun(t.prisma, run.id)).toMatchObject({
        ok: false,
        message: expect.stringMatching(/compute service is disabled/),
      });
      // rolled back: the run can still be committed once the host is back
      expect((await t.prisma.schedulingRun.findUniqueOrThrow({ where: { id: run.id } })).committedAt).toBeNull();
      await t.prisma.computeHost.update({ where: { name: "tight" }, data: { serviceDisabled: false } });
      expect((await commitRun(t.prisma, run.id)).ok).toBe(true);

      const failed = await runSchedule({ ...REQUEST, availability_zone: "az9" }, undefined, { db: t.prisma });
      expect(await commitRun(t.prisma, failed.id)).toMatchObject({
        ok: false,
        message: expect.stringMatching(/found no host \(NoValidHost\)/),
      });
      expect(await commitRun(t.prisma, 999999)).toMatchObject({
        ok: false,
        message: expect.stringMatching(/does not exist/),
      });
    });

    it.each([
      ["its second node", "node-b", "node-a"],
      ["its first node", "node-a", "node-b"],
    ])(
      "a service host with several nodes (Ironic): the commit takes %s, the one selected",
      async (_what, fuller, other) => {
        // two compute nodes of one nova-compute service; stacking picks the fuller node
        const base = cloud();
        const node = (name: string, used: number) => ({
          ...base.hosts[1],
          name: "ironic-svc",
          node: name,
          memory_mb_used: used,
        });
        await importCloud(
          t.prisma,
          { ...base, hosts: [node("node-a", 4096), node("node-b", 4096), base.hosts[1]], aggregates: [] },
          { profileName: "stack" },
        );
        await t.prisma.computeHost.updateMany({ where: { hypervisorHostname: fuller }, data: { memoryMbUsed: 8192 } });
        const run = await runSchedule(REQUEST, undefined, { db: t.prisma });
        expect(run.result.selections.map((s) => [s.host, s.node])).toEqual([["ironic-svc", fuller]]);
        const rowOf = (n: string) => t.prisma.computeHost.findFirstOrThrow({ where: { hypervisorHostname: n } });
        const [beforeFuller, beforeOther] = [await rowOf(fuller), await rowOf(other)];

        // the audit trail's before/after is the selected node's row
        const targets = await t.prisma.$transaction((tx) => runCommitTargets(tx, run.id));
        expect(targets.slice(1)).toEqual([{ kind: "host", ref: { name: beforeFuller.name } }]);

        const r = await commitRun(t.prisma, run.id);
        expect(r).toMatchObject({ ok: true, outcome: { instances: [{ host: "ironic-svc", node: fuller }] } });
        const [afterFuller, afterOther] = [await rowOf(fuller), await rowOf(other)];
        expect(afterFuller.memoryMbUsed - beforeFuller.memoryMbUsed).toBe(8192);
        expect(afterFuller.numInstances - beforeFuller.numInstances).toBe(1);
        expect(afterOther).toMatchObject({
          memoryMbUsed: beforeOther.memoryMbUsed,
          numInstances: beforeOther.numInstances,
        });
        expect(await t.prisma.instance.count({ where: { hostId: afterFuller.id } })).toBe(1);
        expect(await t.prisma.instance.count({ where: { hostId: afterOther.id } })).toBe(0);
      },
    );

    it("several instances on one host need room for all of them", async () => {
      await resetCloud();
      // two m1.small on the fullest host ("tight": stacking), then shrink its room to one
      const run = await runSchedule(
        {
          ...REQUEST,
          flavor: { ...FLAVOR, name: "m1.small", id: "small", vcpus: 1, memory_mb: 1024, root_gb: 10 },
          num_instances: 2,
        },
        undefined,
        { db: t.prisma },
      );
      expect(run.result.selections.map((s) => s.host)).toEqual(["tight", "tight"]);
      await t.prisma.computeHost.update({ where: { name: "tight" }, data: { memoryMbUsed: 32768 - 1536 } }); // room for one m1.small, not two
      expect(await commitRun(t.prisma, run.id)).toMatchObject({
        ok: false,
        message: expect.stringMatching(/tight cannot take 2 × m1.small/),
      });
    });
  });
});
