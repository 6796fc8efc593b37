/**
 * Commits stay exact under load, on SQLite and on PostgreSQL: 200 commits of
 * one instance each, aimed at one host with room for 20, from 4 processes
 * at once (50 concurrent transactions each). Exactly 20 succeed, the host is
 * never over-allocated, and every refusal says why.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { releaseTogether } from "@/lib/testing/workers";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";

const COMMITS = 200;
const PROCESSES = 4;
const ROOM = 20; // instances of m1.small the host can take (RAM)
const FLAVOR = { name: "m1.small", id: "small", vcpus: 1, memory_mb: 1024, root_gb: 1, ephemeral_gb: 0, swap: 0 };

type Outcome = { id: number; ok: boolean; message?: string; crashed?: boolean };

async function commitFromProcesses(url: string, ids: number[]): Promise<Outcome[]> {
  const per = Math.ceil(ids.length / PROCESSES);
  const batches = Array.from({ length: PROCESSES }, (_, p) => ids.slice(p * per, (p + 1) * per));
  const outcomes = await releaseTogether<Outcome[]>(
    batches.map((mine) => ["lib/testing/commit-worker.ts", url, mine.join(",")]),
  );
  return outcomes.flat();
}

describe.each(PROVIDERS)("200 concurrent commits on one host (%s)", (provider) => {
  let db: TestDatabase;
  let runIds: number[] = [];

  beforeAll(async () => {
    db = await createTestDatabaseOf(provider, inject("postgresUrl"));
    const p = db.prisma;
    const cell = await p.cell.create({ data: { name: "cell1" } });
    await p.computeHost.create({
      data: {
        name: "tight",
        hypervisorHostname: "tight",
        position: 0,
        cellId: cell.id,
        vcpus: 64,
        memoryMb: ROOM * FLAVOR.memory_mb,
        localGb: 1000,
        cpuAllocationRatio: 1,
        ramAllocationRatio: 1,
        diskAllocationRatio: 1,
      },
    });
    await p.flavor.create({ data: { name: FLAVOR.name, flavorid: FLAVOR.id, vcpus: 1, memoryMb: 1024, rootGb: 1 } });
    const request = JSON.stringify({ flavor: { ...FLAVOR, extra_specs: {} }, num_instances: 1 });
    await p.schedulingRun.createMany({
      data: Array.from({ length: COMMITS }, () => ({
        request,
        config: "{}",
        snapshot: "{}",
        result: "{}",
        flavorName: FLAVOR.name,
        numInstances: 1,
        chosenHosts: JSON.stringify(["tight"]),
        hostCount: 1,
      })),
    });
    runIds = (await p.schedulingRun.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((r) => r.id);
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it(`exactly ${ROOM} commit, the rest are refused with the reason, the host is never over-allocated`, async () => {
    const t0 = Date.now();
    const outcomes = await commitFromProcesses(db.url, runIds);
    const ms = Date.now() - t0;
    expect(outcomes).toHaveLength(COMMITS);
    expect(outcomes.filter((o) => o.crashed)).toEqual([]);
    const ok = outcomes.filter((o) => o.ok);
    expect(ok).toHaveLength(ROOM);
    for (const o of outcomes.filter((x) => !x.ok))
      expect(o.message).toMatch(/tight cannot take 1 × m1\.small any more/);

    const host = await db.prisma.computeHost.findUniqueOrThrow({ where: { name: "tight" } });
    expect(host.memoryMbUsed).toBe(ROOM * FLAVOR.memory_mb);
    expect(host.vcpusUsed).toBe(ROOM);
    expect(host.numInstances).toBe(ROOM);
    expect(await db.prisma.instance.count({ where: { hostId: host.id } })).toBe(ROOM);
    const committed = await db.prisma.schedulingRun.count({ where: { committedAt: { not: null } } });
    expect(committed).toBe(ROOM);
    console.log(`${provider}: ${COMMITS} commits from ${PROCESSES} processes in ${ms} ms`);
  }, 180_000);
});
