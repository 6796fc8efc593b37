/**
 * Sign-in, sessions and users against a real (temporary) database: what a
 * person trying to get in sees, and what is (not) written.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { actorFromHeaders } from "./session";
import { FAILURE_DELAY_MS, MAX_FAILURES, signInWithPassword, WRONG_CREDENTIALS } from "./sign-in";
import { addUser, listUsers, removeUser, setRole } from "./users";

describe.each(PROVIDERS)("on %s", (provider) => {
  let db: TestDatabase;
  const PASSWORD = "correct horse battery";

  beforeAll(async () => {
    db = await createTestDatabaseOf(provider, inject("postgresUrl"));
    await addUser(db.prisma, "alice", "admin", PASSWORD);
    await addUser(db.prisma, "vera", "viewer", PASSWORD);
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  /** The session of these cookies, read from this test's database. */
  const actorOf = (cookie: string) => actorFromHeaders(new Headers({ cookie }), db.prisma);

  /** The session cookie pair ("name=value") from a Set-Cookie header. */
  function cookiePair(setCookie: string | null): string {
    const m = /(schedscope\.session_token=[^;]+)/.exec(setCookie ?? "");
    if (!m) throw new Error(`no session cookie in ${setCookie}`);
    return m[1];
  }

  async function signedInCookie(name: string): Promise<string> {
    const r = await signInWithPassword(db.prisma, { name, password: PASSWORD });
    if (!r.ok) throw new Error(r.message);
    return cookiePair(r.setCookie);
  }

  describe("signing in", () => {
    it("the right password gives a session the server recognises, with the user's role", async () => {
      const cookie = await signedInCookie("Alice"); // names are case-insensitive
      expect(await actorOf(cookie)).toMatchObject({ name: "alice", role: "admin" });
      expect(await db.prisma.session.count()).toBeGreaterThan(0);
    });

    it("a wrong password and an unknown name get the same answer, after a delay, and no session", async () => {
      const sessions = await db.prisma.session.count();
      const answers = [];
      for (const name of ["vera", "nobody-here"]) {
        const t0 = Date.now();
        const r = await signInWithPassword(db.prisma, { name, password: "wrong password" });
        answers.push({ r, ms: Date.now() - t0 });
      }
      for (const { r, ms } of answers) {
        expect(r).toEqual({ ok: false, message: WRONG_CREDENTIALS });
        expect(ms).toBeGreaterThanOrEqual(FAILURE_DELAY_MS - 5);
      }
      expect(await db.prisma.session.count()).toBe(sessions);
    });

    it(`after ${MAX_FAILURES} failures the name is locked, even for the right password, known name or not`, async () => {
      for (const name of ["alice", "ghost"]) {
        for (let i = 0; i < MAX_FAILURES; i++) await signInWithPassword(db.prisma, { name, password: `guess-${i}` });
        const r = await signInWithPassword(db.prisma, { name, password: PASSWORD });
        expect(r.ok).toBe(false);
        expect(!r.ok && r.message).toMatch(/^Too many failed sign-ins for this name: try again in \d+ s\.$/);
      }
      // the lock is per name: others still get in
      expect((await signInWithPassword(db.prisma, { name: "vera", password: PASSWORD })).ok).toBe(true);
    });

    it("40 guesses at once, the right password as number 30: the first 5 are checked, the rest refused, no session", async () => {
      await addUser(db.prisma, "petra", "operator", PASSWORD);
      const sessions = await db.prisma.session.count();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          signInWithPassword(db.prisma, { name: "petra", password: i === 29 ? PASSWORD : `guess-${i}` }),
        ),
      );
      expect(answers.filter((r) => r.ok)).toEqual([]);
      expect(answers.filter((r) => !r.ok && r.message === WRONG_CREDENTIALS)).toHaveLength(MAX_FAILURES);
      expect(answers.filter((r) => !r.ok && /^Too many failed sign-ins/.test(r.message))).toHaveLength(
        40 - MAX_FAILURES,
      );
      expect(await db.prisma.session.count()).toBe(sessions);
      // and the name stays locked for the right password afterwards
      const after = await signInWithPassword(db.prisma, { name: "petra", password: PASSWORD });
      expect(!after.ok && after.message).toMatch(/^Too many failed sign-ins/);
    });

    it("empty fields are named, nothing else is said", async () => {
      expect(await signInWithPassword(db.prisma, { name: "", password: "" })).toMatchObject({
        ok: false,
        fieldErrors: { name: ["name: is required"], password: ["password: is required"] },
      });
    });
  });

  describe("sessions the server refuses", () => {
    it("a tampered cookie (token or signature changed) is no session", async () => {
      const cookie = await signedInCookie("vera");
      const [name, value] = cookie.split("=");
      const decoded = decodeURIComponent(value);
      const [token, sig] = decoded.split(".");
      const flip = (s: string) => (s[0] === "A" ? `B${s.slice(1)}` : `A${s.slice(1)}`);
      for (const bad of [`${flip(token)}.${sig}`, `${token}.${flip(sig)}`, token, "garbage"]) {
        expect(await actorOf(`${name}=${encodeURIComponent(bad)}`)).toBeNull();
      }
    });

    it("an expired session is no session", async () => {
      const cookie = await signedInCookie("vera");
      const token = decodeURIComponent(cookie.split("=")[1]).split(".")[0];
      await db.prisma.session.update({ where: { token }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect(await actorOf(cookie)).toBeNull();
    });

    it("a removed user's sessions end at once; a changed role applies on the next request", async () => {
      await addUser(db.prisma, "temp.user", "viewer", PASSWORD);
      const cookie = await signedInCookie("temp.user");
      await setRole(db.prisma, "temp.user", "operator");
      expect(await actorOf(cookie)).toMatchObject({ role: "operator" });
      await removeUser(db.prisma, "temp.user");
      expect(await actorOf(cookie)).toBeNull();
    });
  });

  describe("users CLI operations", () => {
    it.each([
      ["a role that does not exist", "newbie", "superuser", PASSWORD, /^role: must be one of admin, operator, viewer/],
      ["a short password", "newbie", "viewer", "short", /^password: must be at least 8 characters/],
      ["a bad name", "a b", "viewer", PASSWORD, /^NAME: must be 3 to 30 letters/],
      ["a taken name", "ALICE", "viewer", PASSWORD, /^NAME: a user named "alice" already exists/],
    ])("refuses %s and writes nothing", async (_n, name, role, pw, message) => {
      const before = await db.prisma.user.count();
      await expect(addUser(db.prisma, name, role, pw)).rejects.toThrow(message);
      expect(await db.prisma.user.count()).toBe(before);
    });

    it("set-role refuses a role that does not exist", async () => {
      await expect(setRole(db.prisma, "vera", "root")).rejects.toThrow(/^role: must be one of/);
      expect((await listUsers(db.prisma)).find((u) => u.name === "vera")?.role).toBe("viewer");
    });

    it("the password is stored only as a scrypt hash, never in clear, and the audit has no password", async () => {
      const accounts = await db.prisma.account.findMany();
      for (const a of accounts) {
        expect(a.password).not.toContain(PASSWORD);
        expect(a.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      }
      const audit = await db.prisma.auditEntry.findMany({ where: { entity: "user" } });
      expect(audit.length).toBeGreaterThan(0);
      for (const e of audit) expect(`${e.before}${e.after}`).not.toContain(PASSWORD);
    });
  });
});
