/**
 * Integration: the demo cloud stays consistent after every kind of write
 * (lib/cloud/integrity.ts), on each database: the import, boot commits of
 * every kind of flavor (shared, pinned, vGPU, PCI, bare metal), each move
 * kind committed (live-migrate, migrate, resize, evacuate) of an instance
 * with pinned CPUs and of a vGPU one, and a drain. Before moves carried the
 * PCPU usage, the second move of a pinned instance failed with "the usage
 * of HOST (PCPU used: 0) must include instance …'s allocation".
 */
import { describe, expect, it } from "vitest";
import { MoveCommitSchema, MoveTrialSchema } from "@/lib/cloud/form-schemas";
import { bumpCloudRevision } from "@/lib/cloud/revision";
import { seedDemoCloud } from "@/lib/demo/seed";
import { commitMoveTx, prepareMoveCommit } from "@/lib/instances/move";
import { prepareMoveRun } from "@/lib/runs/move-run";
import { drainHosts } from "@/lib/maintenance/drain";
import { commitRun } from "@/lib/runs/commit";
import { runSchedule } from "@/lib/runs/schedule";
import { exportCloud, requestFromDb } from "@/lib/cloud/scenario-io";
import { databaseFor } from "@/lib/testing/fixtures";
import { PROVIDERS } from "@/lib/testing/test-db";
import { cloudInconsistencies, type IntegrityCloud } from "./integrity";
import type { Cloud } from "@/lib/maintenance/drain";

describe.each(PROVIDERS)("on %s", (provider) => {
  const t = databaseFor(provider, (prisma) => seedDemoCloud(prisma, { hosts: 30 }));
  const problems = async () => cloudInconsistencies((await exportCloud(t.prisma)) as unknown as IntegrityCloud);

  /** An instance of `flavor` (on a host with PCPUs when `pcpus`), its row id and host. */
  async function instanceOf(flavor: string, pcpus = false) {
    const row = await t.prisma.instance.findFirstOrThrow({
      where: { flavor: { name: flavor }, host: pcpus ? { pcpus: { gt: 0 } } : { isNot: null } },
      orderBy: { id: "asc" },
      select: { id: true, uuid: true, host: { select: { name: true } } },
    });
    return { id: String(row.id), uuid: row.uuid, host: row.host!.name };
  }

  async function commitMove(move: Record<string, unknown>) {
    const trial = await prepareMoveRun(t.prisma, MoveTrialSchema.parse(move));
    expect(trial.result.error, trial.result.diagnosis?.summary ?? trial.result.message).toBeNull();
    const d = MoveCommitSchema.parse({ ...move, destination: trial.result.selections[0].host });
    const p = await prepareMoveCommit(t.prisma, d);
    return t.prisma.$transaction(async (tx) => {
      const out = await commitMoveTx(tx, d, p);
      await bumpCloudRevision(tx);
      return out;
    });
  }

  it("is consistent as imported", async () => {
    expect(await problems()).toEqual([]);
  }, 120_000);

  it.each(["m1.small", "c1.xlarge", "h1.large", "vgpu.small", "gpu.large", "n1.dpdk", "bm.large"])(
    "stays consistent after a boot of %s is committed",
    async (flavor) => {
      const run = await runSchedule(await requestFromDb(t.prisma, { flavor }), undefined, { db: t.prisma });
      expect(run.result.error, run.result.diagnosis?.summary).toBeNull();
      expect(await commitRun(t.prisma, run.id)).toMatchObject({ ok: true });
      expect(await problems()).toEqual([]);
    },
    120_000,
  );

  it.each([
    { flavor: "vgpu.small", pcpus: false, moves: [{ operation: "migrate" }, { operation: "migrate" }] },
    { flavor: "c1.xlarge", pcpus: true, moves: [{ operation: "live-migrate" }, { operation: "migrate" }] },
    { flavor: "c1.xlarge", pcpus: true, moves: [{ operation: "resize", flavor: "m1.xlarge" }] },
    { flavor: "m1.small", pcpus: false, moves: [{ operation: "resize", flavor: "m1.large" }] },
  ])(
    "stays consistent after $flavor moves: $moves",
    async ({ flavor, pcpus, moves }) => {
      const inst = await instanceOf(flavor, pcpus);
      for (const move of moves) {
        await commitMove({ uuid: inst.uuid, id: inst.id, ...move });
        expect(await problems()).toEqual([]);
      }
    },
    180_000,
  );

  it("stays consistent after an evacuation from a host that is down", async () => {
    const inst = await instanceOf("c1.xlarge", true);
    await t.prisma.$transaction(async (tx) => {
      await tx.computeHost.update({ where: { name: inst.host }, data: { serviceUp: false, forcedDown: true } });
      await bumpCloudRevision(tx);
    });
    await commitMove({ uuid: inst.uuid, id: inst.id, operation: "evacuate" });
    expect(await problems()).toEqual([]);
  }, 120_000);

  it("stays consistent through a drain of a host with pinned and vGPU instances", async () => {
    const cloud = (await exportCloud(t.prisma)) as unknown as Cloud;
    const busiest = (pred: (h: Cloud["hosts"][number]) => boolean) =>
      cloud.hosts.filter(pred).sort((a, b) => (b.instances?.length ?? 0) - (a.instances?.length ?? 0))[0].name;
    const hosts = [busiest((h) => (h.pcpus_used ?? 0) > 0), busiest((h) => !!h.child_providers?.length)];
    const it = drainHosts(cloud, hosts);
    let step = it.next();
    let moved = 0;
    while (!step.done) {
      if ("destination" in step.value && step.value.destination) moved++;
      step = it.next();
    }
    expect(moved).toBeGreaterThan(0);
    expect(cloudInconsistencies(step.value as unknown as IntegrityCloud)).toEqual([]);
  }, 180_000);
});
