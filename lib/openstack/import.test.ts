/**
 * The bundle import end to end on a real migrated SQLite file: archives,
 * limits, the preview of what changes, the one-transaction replace, and
 * bad input that changes nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloudValidationError, importCloud } from "@/lib/cloud/scenario-io";
import { tableCounts } from "@/lib/testing/cloud";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { applyImport, NOVA_CONF_PROFILE, prepareImport, previewImport } from "./import";
import { diffClouds } from "./preview";
import { BundleReadError, MAX_BUNDLE_BYTES, readBundleDir, readBundlePath, readBundleTar } from "./read-bundle";

const FIXTURES = path.join(__dirname, "fixtures");

async function tarGz(files: Map<string, Buffer>, dir = "openstack-bundle-20261120"): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, data] of files) pack.entry({ name: `${dir}/${name}` }, data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return zlib.gzipSync(Buffer.concat(chunks));
}

async function rejection(p: Promise<unknown>): Promise<string[]> {
  try {
    await p;
  } catch (e) {
    if (e instanceof BundleReadError || e instanceof CloudValidationError) return e.errors;
    throw e;
  }
  throw new Error("expected a rejection");
}

describe("reading bundles", () => {
  const modern = readBundleDir(path.join(FIXTURES, "modern"));

  it("a .tar.gz with the files in one directory reads as the directory does", async () => {
    const files = await readBundleTar(await tarGz(modern));
    expect([...files.keys()].sort()).toEqual([...modern.keys()].sort());
    expect(files.get("nova.conf")?.toString()).toBe(modern.get("nova.conf")?.toString());
  });

  it.each<[string, () => Promise<Buffer>, RegExp]>([
    [
      "a truncated tarball",
      async () => {
        const whole = await tarGz(modern);
        return whole.subarray(0, Math.floor(whole.length / 2));
      },
      /^bundle.tar.gz: is not a complete .tar.gz \(truncated or corrupt: unexpected end of file\); make the archive again$/,
    ],
    [
      "a tar cut inside a file",
      async () => {
        const whole = zlib.gunzipSync(await tarGz(modern));
        return zlib.gzipSync(whole.subarray(0, 1700));
      },
      /^bundle.tar.gz: is not a valid tar archive \(.+\); make the archive again$/,
    ],
    [
      "an archive of something else",
      async () => tarGz(new Map([["notes.txt", Buffer.from("hello")]])),
      /^bundle.tar.gz: contains none of the bundle's files/,
    ],
  ])("%s: a clear message", async (_name, data, message) => {
    const errors = await rejection(readBundleTar(await data(), "bundle.tar.gz"));
    expect(errors).toEqual([expect.stringMatching(message)]);
  });

  it("a file over 200 MB is refused before it is read", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bundle-"));
    try {
      const big = path.join(dir, "huge.tar.gz");
      fs.closeSync(fs.openSync(big, "w"));
      fs.truncateSync(big, MAX_BUNDLE_BYTES + 1); // sparse: nothing to read
      const errors = await rejection(readBundlePath(big));
      expect(errors).toEqual([`${big}: is 200.0 MB; a bundle may be at most 200.0 MB (209715200 bytes)`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("preview", () => {
  it.each([
    ["added", { hosts: [] }, { hosts: [{ name: "a", vcpus: 1, memory_mb: 1, local_gb: 1 }] }, [1, 0, 0, 0]],
    [
      "unchanged when only defaults are spelled out",
      {
        hosts: [{ name: "a", node: "a", cell: "cell1", vcpus: 1, memory_mb: 1, local_gb: 1, cpu_allocation_ratio: 4 }],
      },
      { hosts: [{ name: "a", vcpus: 1, memory_mb: 1, local_gb: 1 }] },
      [0, 0, 0, 1],
    ],
    [
      "changed",
      { hosts: [{ name: "a", vcpus: 1, memory_mb: 1, local_gb: 1 }] },
      { hosts: [{ name: "a", vcpus: 2, memory_mb: 1, local_gb: 1 }] },
      [0, 1, 0, 0],
    ],
    ["removed", { hosts: [{ name: "a", vcpus: 1, memory_mb: 1, local_gb: 1 }] }, { hosts: [] }, [0, 0, 1, 0]],
    [
      "changed when only the NUMA topology differs",
      { hosts: [{ name: "a", numa_topology: { cells: [{ id: 0, cpuset: [0], memory: 1024 }] } }] },
      { hosts: [{ name: "a", numa_topology: { cells: [{ id: 0, cpuset: [0, 1], memory: 1024 }] } }] },
      [0, 1, 0, 0],
    ],
  ])("hosts %s", (_name, before, after, [added, changed, removed, unchanged]) => {
    const hosts = diffClouds(before, after)[0];
    expect([hosts.added, hosts.changed, hosts.removed, hosts.unchanged]).toEqual([added, changed, removed, unchanged]);
  });

  it("an instance moved to another host is changed", () => {
    const before = { hosts: [{ name: "a", instances: ["i1"] }, { name: "b" }] };
    const after = { hosts: [{ name: "a" }, { name: "b", instances: ["i1"] }] };
    const inst = diffClouds(before, after).find((c) => c.kind === "instances")!;
    expect([inst.changed, inst.changedNames]).toEqual([1, ["i1"]]);
  });
});

describe("import into the database", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t?.cleanup());

  it("previews against the current cloud, then replaces it in one go; nova.conf becomes the active profile", async () => {
    await importCloud(t.prisma, {
      hosts: [
        { name: "cmp-001", vcpus: 48, memory_mb: 196608, local_gb: 2000 },
        { name: "legacy-9", vcpus: 8, memory_mb: 8192, local_gb: 100 },
      ],
      flavors: [{ name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20, id: "1" }],
    });
    const prepared = prepareImport(readBundleDir(path.join(FIXTURES, "modern")));
    const preview = await previewImport(t.prisma, prepared);
    const byKind = Object.fromEntries(preview.changes.map((c) => [c.kind, c]));
    expect(byKind.hosts).toMatchObject({
      added: 2,
      changed: 1,
      removed: 1,
      addedNames: ["cmp-002", "gpu-001"],
      changedNames: ["cmp-001"],
      removedNames: ["legacy-9"],
    });
    expect(byKind.flavors).toMatchObject({ added: 1, changed: 0, unchanged: 1 });
    expect(preview.profile).toEqual({ name: NOVA_CONF_PROFILE, exists: false, changed: true });

    const summary = await applyImport(t.prisma, prepared);
    expect(summary).toMatchObject({ hosts: 3, aggregates: 3, flavors: 2, images: 1, serverGroups: 1, instances: 4 });
    const hosts = await t.prisma.computeHost.findMany({ orderBy: { position: "asc" } });
    expect(hosts.map((h) => [h.name, h.memoryMbUsed, h.reservedMemoryMb])).toEqual([
      ["cmp-001", 10240, 8192],
      ["cmp-002", 10240, 8192],
      ["gpu-001", 81920, 16384],
    ]);
    const active = await t.prisma.schedulerProfile.findFirst({ where: { active: true } });
    expect(active?.name).toBe(NOVA_CONF_PROFILE);
    expect(JSON.parse(active!.config).ram_weight_multiplier).toBe(-1);

    // the same bundle again: nothing changes
    const again = await previewImport(t.prisma, prepared);
    for (const c of again.changes) expect([c.kind, c.added, c.changed, c.removed]).toEqual([c.kind, 0, 0, 0]);
    expect(again.profile).toEqual({ name: NOVA_CONF_PROFILE, exists: true, changed: false });
  });

  it("a bundle without nova.conf leaves the profiles alone", async () => {
    const before = await t.prisma.schedulerProfile.findMany({ orderBy: { name: "asc" } });
    await applyImport(t.prisma, prepareImport(readBundleDir(path.join(FIXTURES, "old-client"))));
    expect(await t.prisma.schedulerProfile.findMany({ orderBy: { name: "asc" } })).toEqual(before);
    expect((await t.prisma.computeHost.findMany()).map((h) => h.name)).toEqual(["node-1", "node-2"]);
  });

  it("a broken bundle writes nothing", async () => {
    const counts = await tableCounts(t.prisma);
    expect(() => prepareImport(readBundleDir(path.join(FIXTURES, "broken")))).toThrow(CloudValidationError);
    expect(await tableCounts(t.prisma)).toEqual(counts);
  });
});
