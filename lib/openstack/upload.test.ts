/**
 * The /import upload handler: size limits while the body streams, the
 * preview, and "apply" only for the file that was previewed, written through
 * the mutation wrapper (in a test database).
 */
import { setProcessSingleton } from "@/lib/process-singleton";
import { PRISMA_SINGLETON } from "@/lib/db/client";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tableCounts } from "@/lib/testing/cloud";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { type Actor, runAs } from "@/lib/auth/session";
import { bundleUpload, chosenRelease } from "./upload";

vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const FIXTURES = path.join(__dirname, "fixtures");
const MB = 1024 * 1024;
const admin: Actor = { userId: "u-admin", name: "admin", role: "admin" };
const viewer: Actor = { userId: "u-viewer", name: "vera", role: "viewer" };

function post(body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/api/import/openstack", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);
}

/** A body of `chunks` MB that is never held in memory at once. */
function stream(chunks: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(MB);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent++ < chunks) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

describe("bundle upload", () => {
  let t: TestDatabase;
  let bundle: Uint8Array<ArrayBuffer>;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "upload-"));
  beforeAll(async () => {
    t = await createTestDatabase();
    // the mutation wrapper writes through the app's client: point it at the test database
    setProcessSingleton(PRISMA_SINGLETON, t.prisma);
    execFileSync("tar", ["-czf", path.join(tmp, "b.tar.gz"), "-C", FIXTURES, "modern"]);
    bundle = new Uint8Array(fs.readFileSync(path.join(tmp, "b.tar.gz")));
  });
  afterAll(async () => {
    setProcessSingleton(PRISMA_SINGLETON, undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
    await t?.cleanup();
  });

  it.each([
    ["a declared length over 200 MB", () => post("x", { "content-length": String(250 * MB) }), "250.0 MB"],
    ["a streamed body that passes 200 MB", () => post(stream(250)), "201.0 MB"],
  ])("refuses %s with 413", async (_name, req, size) => {
    const r = await bundleUpload(t.prisma, req(), "preview");
    expect(r.status).toBe(413);
    const message = expect.stringMatching(
      new RegExp(`^the upload: is ${size.replace(".", "\\.")}.*; a bundle may be at most 200\\.0 MB`),
    );
    expect(r.body).toEqual({ ok: false, error: message, fieldErrors: { bundle: [message] }, warnings: [] });
  });

  it("previews, refuses to apply another file, then applies the previewed one", async () => {
    const before = await tableCounts(t.prisma);
    const preview = await bundleUpload(t.prisma, post(bundle), "preview");
    expect(preview.status).toBe(200);
    if (!preview.body.ok || preview.body.mode !== "preview") throw new Error("no preview");
    expect(preview.body.preview.counts.hosts).toBe(3);
    expect(preview.body.preview).not.toHaveProperty("doc");
    expect(await tableCounts(t.prisma)).toEqual(before);

    const other = await bundleUpload(t.prisma, post(bundle), "apply", "0".repeat(64));
    expect(other.status).toBe(409);
    expect(await tableCounts(t.prisma)).toEqual(before);

    const sha256 = preview.body.ok && preview.body.mode === "preview" ? preview.body.sha256 : "";
    // replacing the cloud is an admin's write: a viewer is refused and nothing changes
    const refused = await runAs(viewer, () => bundleUpload(t.prisma, post(bundle), "apply", sha256));
    expect(refused.body).toMatchObject({ ok: false, error: expect.stringMatching(/needs the admin role/) });
    expect(await tableCounts(t.prisma)).toEqual(before);

    const applied = await runAs(admin, () => bundleUpload(t.prisma, post(bundle), "apply", sha256));
    expect(applied.body).toMatchObject({ ok: true, mode: "apply", summary: { hosts: 3, instances: 4 } });
    expect((await t.prisma.computeHost.findMany()).map((h) => h.name).sort()).toEqual([
      "cmp-001",
      "cmp-002",
      "gpu-001",
    ]);
  });

  it("a nova.conf with 2023.1 PCI aliases and no release: refused with the releases to choose; imported as the one chosen", async () => {
    const dir = path.join(tmp, "pci2023", "modern");
    fs.cpSync(path.join(FIXTURES, "modern"), dir, { recursive: true });
    fs.appendFileSync(
      path.join(dir, "nova.conf"),
      '\n[pci]\nalias = {"name": "l4", "resource_class": "CUSTOM_PCI_L4", "traits": "CUSTOM_L4"}\n',
    );
    execFileSync("tar", ["-czf", path.join(tmp, "pci2023.tar.gz"), "-C", path.dirname(dir), "modern"]);
    const file = new Uint8Array(fs.readFileSync(path.join(tmp, "pci2023.tar.gz")));
    const before = await tableCounts(t.prisma);

    const refused = await bundleUpload(t.prisma, post(file), "preview");
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      ok: false,
      fieldErrors: {
        bundle: [
          expect.stringMatching(/resource_class: not in Nova zed's \[pci\] alias schema.*choose its Nova release/),
          expect.stringMatching(/traits: not in Nova zed's \[pci\] alias schema.*choose its Nova release/),
        ],
      },
      releaseChoice: expect.arrayContaining(["2023.1", "2024.1"]),
    });
    expect(refused.body).not.toMatchObject({ releaseChoice: expect.arrayContaining(["zed"]) });

    const preview = await bundleUpload(t.prisma, post(file), "preview", null, { release: "2024.1" });
    if (!preview.body.ok || preview.body.mode !== "preview") throw new Error(JSON.stringify(preview.body));
    expect(preview.body.preview.novaConf?.report).toContainEqual(
      expect.objectContaining({ option: "[schedscope] nova_release", status: "kept" }),
    );
    expect(await tableCounts(t.prisma)).toEqual(before);
    const applied = await runAs(admin, () =>
      bundleUpload(
        t.prisma,
        post(file),
        "apply",
        preview.body.ok && preview.body.mode === "preview" ? preview.body.sha256 : "",
        {
          release: "2024.1",
        },
      ),
    );
    expect(applied.body).toMatchObject({ ok: true, mode: "apply" });
    const profile = await t.prisma.schedulerProfile.findUniqueOrThrow({ where: { name: "imported-nova-conf" } });
    expect(JSON.parse(profile.config)).toMatchObject({
      nova_release: "2024.1",
      pci_alias: expect.arrayContaining([{ name: "l4", resource_class: "CUSTOM_PCI_L4", traits: "CUSTOM_L4" }]),
    });
  });

  it.each([
    [null, {}],
    ["", {}],
    ["2023.1", { release: "2023.1" }],
    ["yoga", { error: expect.stringMatching(/^nova_release: must be one of zed, 2023\.1/) }],
  ])("the nova_release query %j", (raw, expected) => {
    expect(chosenRelease(raw)).toEqual(expected);
  });
});
