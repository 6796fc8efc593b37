/**
 * The /connections actions: admins only, bad input refused naming the field
 * with nothing written, secrets sealed and never in the audit trail, a blank
 * password on a change keeps the stored one, a removal audited.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/auth/session";
import { runAs } from "@/lib/auth/session";
import { PRISMA_SINGLETON } from "@/lib/db/client";
import { peekProcessSingleton, setProcessSingleton } from "@/lib/process-singleton";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { deleteConnectionAction, saveConnectionAction } from "./actions";
import { connectionSettings } from "./connections";

vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const admin: Actor = { userId: "u-a", name: "ada", role: "admin" };
const operator: Actor = { userId: "u-o", name: "otto", role: "operator" };
const SECRET = "Sup3r-secret-pw";
const ENTRY = `clouds:\n  prod:\n    auth:\n      auth_url: https://keystone.example:5000/v3\n      username: admin\n      password: ${SECRET}\n      project_name: admin\n    region_name: RegionOne\n`;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await peekProcessSingleton<{ $disconnect(): Promise<void> }>(PRISMA_SINGLETON)?.$disconnect();
  setProcessSingleton(PRISMA_SINGLETON, undefined);
  process.env.DATABASE_URL = db.url;
});
afterAll(async () => {
  await peekProcessSingleton<{ $disconnect(): Promise<void> }>(PRISMA_SINGLETON)?.$disconnect();
  setProcessSingleton(PRISMA_SINGLETON, undefined);
  await db.cleanup();
});

const form = (o: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(o)) f.set(k, v);
  return f;
};
const save = (actor: Actor, o: Record<string, string>) => runAs(actor, () => saveConnectionAction(null, form(o)));

describe("connections", () => {
  it.each([
    [{ name: "x", source: "yaml", clouds_yaml: "" }, "clouds_yaml", /paste a clouds\.yaml entry/],
    [{ name: "x", source: "yaml", clouds_yaml: ENTRY, cloud: "nope" }, "clouds_yaml", /has no cloud "nope"/],
    [{ name: "bad name!", source: "yaml", clouds_yaml: ENTRY }, "name", /letters, digits/],
    [
      { name: "x", source: "fields", auth_url: "ftp://k", username: "u", password: "p" },
      "auth_url",
      /http:\/\/ or https:\/\//,
    ],
    [{ name: "x", source: "fields", auth_url: "http://k/v3", username: "u" }, "password", /password: is required/],
  ])("refuses %j on its field, writing nothing", async (input, field, msg) => {
    const r = await save(admin, input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.fieldErrors[field]?.join(" ")).toMatch(msg);
    expect(await db.prisma.cloudConnection.count()).toBe(0);
  });

  it("an operator may not add one", async () => {
    const r = await save(operator, { name: "prod", source: "yaml", clouds_yaml: ENTRY });
    expect(r).toMatchObject({ ok: false, formError: expect.stringMatching(/admin/) });
  });

  it("saves sealed, audits without the secret, keeps it when the change leaves it blank, audits the removal", async () => {
    const r = await save(admin, { name: "prod", source: "yaml", clouds_yaml: ENTRY });
    expect(r.ok).toBe(true);
    const row = await db.prisma.cloudConnection.findUniqueOrThrow({ where: { name: "prod" } });
    expect(row.settings + row.secret).not.toContain(SECRET);
    expect((await connectionSettings(db.prisma, row)).password).toBe(SECRET);

    const changed = await save(admin, {
      id: String(row.id),
      name: "prod",
      source: "fields",
      auth_url: "https://keystone.example:5000/v3",
      username: "reader",
      project_name: "admin",
    });
    expect(changed.ok).toBe(true);
    const after = await db.prisma.cloudConnection.findUniqueOrThrow({ where: { name: "prod" } });
    expect(await connectionSettings(db.prisma, after)).toMatchObject({ username: "reader", password: SECRET });

    expect((await runAs(admin, () => deleteConnectionAction(null, form({ id: String(row.id) })))).ok).toBe(true);
    const audit = await db.prisma.auditEntry.findMany({ where: { entity: "connection" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["connection.save", "connection.save", "connection.delete"]);
    expect(audit.every((a) => a.userName === "ada")).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });
});
