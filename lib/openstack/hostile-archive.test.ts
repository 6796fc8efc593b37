/**
 * Hostile archives sent to the /import upload: a path outside the bundle's
 * directory, a file twice, a gzip bomb, 10,000-deep nesting, a stream of
 * zero bytes. Each is refused with a message naming the entry (or the file
 * and field), fast, and nothing is written.
 */
import { setProcessSingleton } from "@/lib/process-singleton";
import { PRISMA_SINGLETON } from "@/lib/db/client";
import path from "node:path";
import zlib from "node:zlib";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Actor, runAs } from "@/lib/auth/session";
import { tableCounts } from "@/lib/testing/cloud";
import { gzipBomb } from "@/lib/testing/tar-bomb";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { readBundleDir } from "./read-bundle";
import { bundleUpload } from "./upload";

vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const FIXTURES = path.join(__dirname, "fixtures");
const admin: Actor = { userId: "u-admin", name: "admin", role: "admin" };
const modern = readBundleDir(path.join(FIXTURES, "modern"));
const DIR = "openstack-bundle-20261120";

type Entry = { name: string; data?: Buffer; size?: number; type?: "file" | "directory" | "symlink"; linkname?: string };

async function tarOf(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const e of entries) pack.entry({ name: e.name, type: e.type ?? "file", linkname: e.linkname }, e.data ?? "");
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The modern bundle in its directory, plus `extra` entries. */
async function bundleWith(extra: Entry[]): Promise<Buffer> {
  const own = [...modern].map(([name, data]) => ({ name: `${DIR}/${name}`, data }));
  return zlib.gzipSync(await tarOf([...own, ...extra]));
}

function post(body: Buffer): Request {
  return new Request("http://localhost/api/import/openstack", { method: "POST", body: new Uint8Array(body) });
}

describe("hostile archives", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    setProcessSingleton(PRISMA_SINGLETON, t.prisma);
  });
  afterAll(async () => {
    setProcessSingleton(PRISMA_SINGLETON, undefined);
    await t?.cleanup();
  });

  /** hypervisor-show.json with cpu_info as JSON text (as old microversions send it) nested 10,000 deep. */
  const deepCpuInfo = () => {
    const hv = JSON.parse(modern.get("hypervisor-show.json")!.toString("utf8"));
    const list = hv.hypervisors ?? hv;
    (Array.isArray(list) ? list[0] : list.hypervisor).cpu_info = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    return Buffer.from(JSON.stringify(hv));
  };

  it.each<[string, () => Promise<Buffer> | Buffer, RegExp]>([
    [
      "an entry outside the bundle's directory",
      () => bundleWith([{ name: `${DIR}/../../x/nova.conf`, data: Buffer.from("[filter_scheduler]\n") }]),
      /^the upload: the entry "openstack-bundle-20261120\/\.\.\/\.\.\/x\/nova\.conf": lies outside the bundle's directory/,
    ],
    [
      "an absolute path",
      () => bundleWith([{ name: "/etc/nova/nova.conf", data: Buffer.from("[filter_scheduler]\n") }]),
      /^the upload: the entry "\/etc\/nova\/nova\.conf": lies outside the bundle's directory/,
    ],
    [
      "a bundle file twice",
      () => bundleWith([{ name: `${DIR}/nova.conf`, data: Buffer.from("[filter_scheduler]\nhost_subset_size = 3\n") }]),
      /^the upload: the entry "openstack-bundle-20261120\/nova\.conf": appears twice in the archive/,
    ],
    [
      "a 1 GB gzip bomb in one entry",
      () => gzipBomb([{ name: `${DIR}/hypervisor-show.json`, size: 1024 * 1024 * 1024 }]),
      /^the upload: the entry "openstack-bundle-20261120\/hypervisor-show\.json": is 1024\.0 MB unpacked; a bundle file may be at most 256\.0 MB$/,
    ],
    [
      "10,000-deep nesting in a JSON file",
      async () =>
        zlib.gzipSync(
          await tarOf([
            ...[...modern]
              .filter(([n]) => n !== "flavor-list.json")
              .map(([name, data]) => ({ name: `${DIR}/${name}`, data })),
            { name: `${DIR}/flavor-list.json`, data: Buffer.from(`${"[".repeat(10_000)}${"]".repeat(10_000)}`) },
          ]),
        ),
      /^flavor-list\.json: nests deeper than 64 levels at \[0\]\[0\]/,
    ],
    [
      "10,000-deep nesting inside cpu_info (JSON in a JSON string)",
      async () =>
        zlib.gzipSync(
          await tarOf(
            [...modern].map(([name, data]) => ({
              name: `${DIR}/${name}`,
              data: name === "hypervisor-show.json" ? deepCpuInfo() : data,
            })),
          ),
        ),
      /cpu_info.*nests deeper than 64 levels at a\.a\.a/,
    ],
    [
      "1 GB of files that are not the bundle's",
      () => gzipBomb([0, 1, 2, 3].map((i) => ({ name: `${DIR}/junk-${i}.bin`, size: 256 * 1024 * 1024 - 1024 }))),
      /^the upload: the entry "openstack-bundle-20261120\/junk-0\.bin": brings the files that are not the bundle's to 256\.0 MB; at most 16\.0 MB/,
    ],
    [
      "1 GB of bundle files of zeros",
      () =>
        gzipBomb(
          [
            "hypervisor-show.json",
            "server-list.json",
            "flavor-list.json",
            "image-show.json",
            "aggregate-show.json",
          ].map((name) => ({ name: `${DIR}/${name}`, size: 200 * 1024 * 1024 })),
        ),
      /^the upload: unpacks to more than 200 times its size/,
    ],
    ["10 MB of zero bytes", () => Buffer.alloc(10 * 1024 * 1024), /^the upload: contains none of the bundle's files/],
    [
      "a symlink named like a bundle file",
      async () => zlib.gzipSync(await tarOf([{ name: `${DIR}/nova.conf`, type: "symlink", linkname: "/etc/shadow" }])),
      /^the upload: contains none of the bundle's files/,
    ],
  ])("%s: refused with a clear message, nothing written", async (_name, make, message) => {
    const body = await make();
    const before = await tableCounts(t.prisma);
    const t0 = performance.now();
    const r = await runAs(admin, () => bundleUpload(t.prisma, post(body), "preview"));
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.body.ok).toBe(false);
    expect(!r.body.ok && r.body.fieldErrors?.bundle).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
    const applied = await runAs(admin, () => bundleUpload(t.prisma, post(body), "apply", "0".repeat(64)));
    expect(applied.status).toBeGreaterThanOrEqual(400);
    expect(await tableCounts(t.prisma)).toEqual(before);
  });

  it("a bundle file's name deeper than the bundle's directory is not the bundle's file (named, ignored)", async () => {
    const body = await bundleWith([{ name: `${DIR}/old/nova.conf`, data: Buffer.from("[filter_scheduler]\n") }]);
    const r = await bundleUpload(t.prisma, post(body), "preview");
    expect(r.status).toBe(200);
    expect(r.body.ok && r.body.mode === "preview" && r.body.preview.warnings).toEqual(
      expect.arrayContaining([`${DIR}/old/nova.conf: not a bundle file (ignored)`]),
    );
  });
});
