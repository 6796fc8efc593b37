/** Credentials at rest: sealed with AES-256-GCM, bound to the connection's name, refused with another key. */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { publicConnection, sealSecrets } from "./connections";
import { credentialsKey, seal, UnsealError, unseal } from "./seal";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

describe("seal", () => {
  it("round-trips, and the sealed text does not contain the secret", () => {
    const key = randomBytes(32);
    const s = seal(key, "hunter2-Pa55", "cloud-a");
    expect(s).toMatch(/^v1:/);
    expect(s).not.toContain("hunter2");
    expect(unseal(key, s, "cloud-a")).toBe("hunter2-Pa55");
  });
  it.each([
    ["another key", (_k: Buffer, s: string) => unseal(randomBytes(32), s, "cloud-a")],
    ["another connection's name", (k: Buffer, s: string) => unseal(k, s, "cloud-b")],
    [
      "a changed byte",
      (k: Buffer, s: string) => unseal(k, `${s.slice(0, -2)}${s.endsWith("A") ? "B" : "A"}A`, "cloud-a"),
    ],
  ])("refuses %s", (_n, open) => {
    const key = randomBytes(32);
    const s = seal(key, "pw", "cloud-a");
    expect(() => open(key, s)).toThrow(UnsealError);
  });
  it("keeps one generated key per database, or derives it from SCHEDSCOPE_CREDENTIALS_KEY", async () => {
    const a = await credentialsKey(db.prisma);
    expect(await credentialsKey(db.prisma)).toEqual(a);
    process.env.SCHEDSCOPE_CREDENTIALS_KEY = "from the environment";
    try {
      expect(await credentialsKey(db.prisma)).not.toEqual(a);
    } finally {
      delete process.env.SCHEDSCOPE_CREDENTIALS_KEY;
    }
  });
  it("what goes to a browser names the stored secret, never its value", async () => {
    const secret = await sealSecrets(db.prisma, "c1", { password: "never-shown-Pa55" });
    const row = await db.prisma.cloudConnection.create({
      data: { name: "c1", settings: JSON.stringify({ auth_url: "http://k/v3", username: "admin" }), secret },
    });
    const pub = await publicConnection(db.prisma, row);
    expect(pub.secretsSet).toEqual(["password"]);
    expect(JSON.stringify(pub)).not.toContain("never-shown");
    expect(JSON.stringify(pub)).not.toContain(secret);
  });
});
