/**
 * The history on real databases (SQLite and PostgreSQL, migrated): an
 * import records a snapshot in its transaction; a snapshot loads back as the
 * export of its moment, byte for byte; a day on which 1 % of the hosts
 * changed costs under 10 % of a copy; an old bundle enters history with its
 * time; retention drops snapshots and the records no one names; predictions
 * on a cloud where nothing else changed agree with where the servers went.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildDemoCloud } from "@/lib/demo/cloud";
import { CloudValidationError, exportCloud } from "@/lib/cloud/scenario-io";
import { stableStringify } from "@/lib/scenario/json";
import type { CloudDocument } from "@/lib/scenario/schema";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { predictionsOf } from "./queries";
import { importWithSnapshot } from "./record";
import { historyBytes, listSnapshots, loadSnapshotDoc, saveRetention, splitExport } from "./store";

const clone = <T>(v: T): T => structuredClone(v);
const meta = (at?: string) => ({
  source: "scenario" as const,
  startedBy: "tester",
  ...(at ? { at: new Date(at) } : {}),
});

/** The same cloud with `n` hosts changed (one more GB of RAM in use, as a day of churn does). */
function churn(doc: CloudDocument, n: number, step: number): CloudDocument {
  const d = clone(doc);
  for (let i = 0; i < n; i++) {
    const h = d.hosts[(i * 37 + step * 11) % d.hosts.length];
    h.memory_mb_used = (h.memory_mb_used ?? 0) + 1024 * step;
  }
  return d;
}

describe.each(PROVIDERS)("cloud history (%s)", (provider) => {
  let t: TestDatabase;
  const demo = buildDemoCloud({ hosts: 200 });
  const exports: string[] = [];

  beforeAll(async () => {
    t = await createTestDatabaseOf(provider, inject("postgresUrl"));
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("each import is a snapshot whose load is the export of that moment, byte for byte", async () => {
    const first = await importWithSnapshot(t.prisma, demo, { profileName: "default" }, meta("2026-11-01T06:00:00Z"));
    exports.push(stableStringify(await exportCloud(t.prisma)));
    expect(first.snapshot.counts.hosts).toBe(200);
    expect(first.historyOnly).toBe(false);
    const second = await importWithSnapshot(
      t.prisma,
      churn(demo, 2, 1),
      { profileName: "default" },
      meta("2026-11-02T06:00:00Z"),
    );
    exports.push(stableStringify(await exportCloud(t.prisma)));
    expect(exports[1]).not.toBe(exports[0]);
    // the first snapshot is the cloud as it was then, the second as it is now
    expect(stableStringify(await loadSnapshotDoc(t.prisma, first.snapshot.id))).toBe(exports[0]);
    expect(stableStringify(await loadSnapshotDoc(t.prisma, second.snapshot.id))).toBe(exports[1]);
    expect(second.snapshot.digest).not.toBe(first.snapshot.digest);
  });

  it("a day on which 1 % of the hosts changed adds under 10 % of a full copy", async () => {
    const [newest] = await listSnapshots(t.prisma, { limit: 1 });
    const share = newest.addedBytes / newest.bytes;
    process.stdout.write(
      `[history ${provider}] 200 hosts, 2 changed: snapshot added ${newest.addedBytes} of ${newest.bytes} bytes (${(100 * share).toFixed(1)} %)\n`,
    );
    expect(share).toBeLessThan(0.1);
    // what the history really holds: far less than two copies
    const held = await historyBytes(t.prisma);
    expect(held.records + held.manifests).toBeLessThan(1.2 * newest.bytes);
  });

  it("an unchanged re-import adds only its manifest", async () => {
    const again = await importWithSnapshot(
      t.prisma,
      churn(demo, 2, 1),
      { profileName: "default" },
      meta("2026-11-03T06:00:00Z"),
    );
    const { manifest } = splitExport(await exportCloud(t.prisma));
    expect(again.snapshot.addedBytes).toBe(JSON.stringify(manifest).length);
    expect(again.snapshot.digest).toBe((await listSnapshots(t.prisma))[1].digest);
  });

  it("an old bundle given its collection time enters history only; the current cloud stays", async () => {
    const before = stableStringify(await exportCloud(t.prisma));
    const old = await importWithSnapshot(
      t.prisma,
      churn(demo, 5, 3),
      { profileName: "default" },
      meta("2026-10-15T06:00:00Z"),
    );
    expect(old.historyOnly).toBe(true);
    expect(stableStringify(await exportCloud(t.prisma))).toBe(before);
    const list = await listSnapshots(t.prisma);
    expect(list.at(-1)!.id).toBe(old.snapshot.id); // the oldest
    expect(list.at(-1)!.takenAt.toISOString()).toBe("2026-10-15T06:00:00.000Z");
    const then = await loadSnapshotDoc(t.prisma, old.snapshot.id);
    expect(then.hosts.map((h) => h.memory_mb_used)).toEqual(churn(demo, 5, 3).hosts.map((h) => h.memory_mb_used));
  });

  it("a refused import records no snapshot", async () => {
    const n = (await listSnapshots(t.prisma)).length;
    const bad = clone(demo);
    bad.hosts[0].memory_mb = -1;
    await expect(importWithSnapshot(t.prisma, bad, {}, meta())).rejects.toBeInstanceOf(CloudValidationError);
    expect((await listSnapshots(t.prisma)).length).toBe(n);
  });

  it("retention keeps the newest snapshots and drops the records no kept snapshot names", async () => {
    const list = await listSnapshots(t.prisma);
    expect(list.length).toBe(4);
    const { dropped } = await saveRetention(t.prisma, { maxSnapshots: 2 });
    expect(dropped).toBe(2);
    const kept = await listSnapshots(t.prisma);
    expect(kept.map((s) => s.id)).toEqual(list.slice(0, 2).map((s) => s.id));
    // the kept ones still load whole; the October-only records are gone
    expect(stableStringify(await loadSnapshotDoc(t.prisma, kept[0].id))).toBe(exports[1]);
    const live = new Set<string>();
    for (const s of kept)
      for (const d of splitExport(await loadSnapshotDoc(t.prisma, s.id)).records.keys()) live.add(d);
    const stored = await t.prisma.historyRecord.findMany({ select: { digest: true } });
    expect(stored.map((r) => r.digest).sort()).toEqual([...live].sort());
    await saveRetention(t.prisma, { maxSnapshots: 400 });
  });

  it("predictions: servers created on an unchanged cloud went where the engine puts them", async () => {
    // a small cloud, the engine's own choice for three new servers, placed there as Nova would
    const small: CloudDocument = {
      config: {
        enabled_filters: ["ComputeFilter", "ServerGroupAntiAffinityFilter"],
        weighers: ["RAMWeigher"],
      },
      hosts: [
        { name: "cmp-a", vcpus: 16, memory_mb: 32768, local_gb: 500, memory_mb_used: 4096, instances: [] },
        { name: "cmp-b", vcpus: 16, memory_mb: 65536, local_gb: 500, memory_mb_used: 4096, instances: [] },
        { name: "cmp-c", vcpus: 16, memory_mb: 49152, local_gb: 500, memory_mb_used: 4096, instances: [] },
      ],
      flavors: [{ name: "m1.large", vcpus: 2, memory_mb: 16384, root_gb: 20 }],
      server_groups: [{ name: "spread", uuid: "5f0c3a52-1b7f-4a57-9f39-6c1f6a1b0001", policy: "anti-affinity" }],
    } as unknown as CloudDocument;
    const before = await importWithSnapshot(t.prisma, small, {}, meta("2026-11-10T06:00:00Z"));
    const after = clone(small) as unknown as Record<string, unknown> & CloudDocument;
    const u = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"];
    const g = [
      "00000000-0000-4000-8000-0000000000a1",
      "00000000-0000-4000-8000-0000000000a2",
      "00000000-0000-4000-8000-0000000000a3",
    ];
    // the RAM weigher spreads: each server goes to the host with the most free RAM
    const place = (host: string, uuid: string) => {
      const h = after.hosts.find((x) => x.name === host)!;
      h.instances = [...(h.instances ?? []), uuid];
      h.memory_mb_used = (h.memory_mb_used ?? 0) + 16384;
      h.vcpus_used = (h.vcpus_used ?? 0) + 2;
      h.local_gb_used = (h.local_gb_used ?? 0) + 20;
      h.num_instances = (h.num_instances ?? 0) + 1;
    };
    place("cmp-b", u[0]); // 60 GB free: the most
    place("cmp-c", u[1]); // cmp-b and cmp-c then both have 44 GB free: Nova took the second
    // anti-affinity: one per host, each on the most free host not yet in the group
    place("cmp-b", g[0]); // b 44 GB, a and c 28 GB
    place("cmp-a", g[1]); // a and c tie at 28 GB: the first
    place("cmp-c", g[2]);
    after.server_groups![0].members = g;
    const stamp = (i: number) => `2026-11-10T07:0${i}:00Z`;
    after.instances = [
      ...u.map((uuid, i) => ({ uuid, flavor: "m1.large", created: stamp(i) })),
      ...g.map((uuid, i) => ({ uuid, flavor: "m1.large", created: stamp(i + 2) })),
    ];
    const now = await importWithSnapshot(t.prisma, after, {}, meta("2026-11-11T06:00:00Z"));
    const r = (await predictionsOf(t.prisma, now.snapshot.id))!;
    expect(r.previous).toBe(before.snapshot.id);
    const byUuid = new Map(r.predictions.map((p) => [p.uuid, p]));
    expect(byUuid.get(u[0])!.predicted).toBe("cmp-b");
    expect(byUuid.get(u[0])!.message).toBe("predicted cmp-b, Nova chose cmp-b");
    // after u0, cmp-b and cmp-c both have 44 GB free: a tie the prediction names
    expect(byUuid.get(u[1])!.tiedWith).toEqual(["cmp-c"]);
    expect(byUuid.get(u[1])!.predicted).toBe("cmp-b");
    expect(byUuid.get(u[1])!.agree).toBe(false);
    expect(byUuid.get(u[1])!.message).toMatch(/tie on weight/);
    // the group's members, each seeing the ones before it where Nova put them
    for (const m of g) expect(byUuid.get(m)!.agree, byUuid.get(m)!.message).toBe(true);
    expect(byUuid.get(g[1])!.message).toBe(
      "predicted cmp-a, Nova chose cmp-a (tied on weight with cmp-c: Nova keeps the first)",
    );
    expect(r.compared).toBe(5);
    expect(r.agreed).toBe(4);
    // kept: asked again, the same answer without recomputing
    const row = await t.prisma.historySnapshot.findUnique({ where: { id: now.snapshot.id } });
    expect(JSON.parse(row!.predictions!)).toEqual(r);
  });
});
