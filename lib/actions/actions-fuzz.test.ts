/**
 * Every server action is an endpoint any client can call with any argument.
 * Each exported function of every "use server" module under lib/ (found by
 * scanning, so a new one is covered without an edit) is called, as an
 * admin, with arguments of the wrong type: a refusal in the one answer
 * shape comes back, nothing is written, never an exception.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runAs } from "@/lib/auth/session";
import { PRISMA_SINGLETON } from "@/lib/db/client";
import { peekProcessSingleton, setProcessSingleton } from "@/lib/process-singleton";
import { createTestDatabaseOf, type TestDatabase } from "@/lib/testing/test-db";

vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/navigation", () => ({ redirect: () => undefined }));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
vi.mock("next/server", () => ({ after: () => undefined }));

const ROOT = path.resolve(__dirname, "../..");

function serverActionModules(dir = path.join(ROOT, "lib"), out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== "generated") serverActionModules(p, out);
    else if (
      /\.tsx?$/.test(e.name) &&
      !e.name.includes(".test.") &&
      /^\s*["']use server["']/.test(fs.readFileSync(p, "utf8"))
    )
      out.push(path.relative(ROOT, p));
  }
  return out.sort();
}

const formMissingFields = () => new FormData();
const formWithJunk = () => {
  const f = new FormData();
  f.set("id", "not a number");
  f.set("version", "-3");
  f.set("name", "");
  return f;
};

/** Arguments of the wrong type, by what they are. */
const WRONG: Array<[string, () => unknown]> = [
  ["undefined", () => undefined],
  ["null", () => null],
  ["a number", () => -1],
  ["a string", () => "x"],
  ["a plain object", () => ({ id: "1", name: { nested: true } })],
  ["an array", () => [1, "two"]],
  ["a form with wrong values", formWithJunk],
];

const MODULES = serverActionModules();

/** A refusal in the one shape: an ActionResult that is not ok, or a sign-in state with a message. */
function isRefusal(r: unknown): boolean {
  if (!r || typeof r !== "object") return false;
  const o = r as { ok?: unknown; formError?: unknown; fieldErrors?: Record<string, unknown>; message?: unknown };
  if (o.ok === false)
    return (typeof o.formError === "string" && o.formError !== "") || Object.keys(o.fieldErrors ?? {}).length > 0;
  return o.ok === undefined && typeof o.message === "string" && o.message !== "";
}

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabaseOf("sqlite", undefined);
  await peekProcessSingleton<{ $disconnect(): Promise<void> }>(PRISMA_SINGLETON)?.$disconnect();
  setProcessSingleton(PRISMA_SINGLETON, undefined);
  process.env.DATABASE_URL = db.url;
});

afterAll(async () => {
  await peekProcessSingleton<{ $disconnect(): Promise<void> }>(PRISMA_SINGLETON)?.$disconnect();
  setProcessSingleton(PRISMA_SINGLETON, undefined);
  await db?.cleanup();
});

describe("every server action checks the shape of its argument", () => {
  it("finds the server actions", () => {
    expect(MODULES).toEqual(expect.arrayContaining(["lib/flavors/actions.ts", "lib/runs/actions.ts"]));
  });

  describe.each(MODULES)("%s", (file) => {
    // a form whose fields are all optional (a new image, a new instance) is a valid form: answered, never thrown
    it("answers a form missing its fields in the one shape, never a throw", async () => {
      const mod = (await import(`@/${file}`)) as Record<string, unknown>;
      const admin = { userId: "u-admin", name: "admin", role: "admin" as const };
      for (const [name, fn] of Object.entries(mod)) {
        if (typeof fn !== "function" || fn.length < 2) continue;
        const answer = await runAs(admin, () =>
          (fn as (...a: unknown[]) => Promise<unknown>)(null, formMissingFields()),
        );
        const ok = (answer as { ok?: unknown } | null)?.ok === true;
        expect(ok || isRefusal(answer), `${name}: ${JSON.stringify(answer)}`).toBe(true);
      }
    });

    it.each(WRONG)("answers %s with a refusal, never a throw, and writes nothing", async (_what, make) => {
      const mod = (await import(`@/${file}`)) as Record<string, unknown>;
      const admin = { userId: "u-admin", name: "admin", role: "admin" as const };
      const auditBefore = await db.prisma.auditEntry.count();
      for (const [name, fn] of Object.entries(mod)) {
        if (typeof fn !== "function" || fn.length === 0) continue;
        // form actions take (previous state, form); the others take their input first
        const calls = fn.length >= 2 ? [[null, make()]] : [[make()], [make(), make()]];
        for (const args of calls) {
          let answer: unknown;
          try {
            answer = await runAs(admin, () => (fn as (...a: unknown[]) => Promise<unknown>)(...args));
          } catch (e) {
            throw new Error(`${name}(${args.map((a) => typeof a).join(", ")}) threw: ${String(e)}`);
          }
          expect(isRefusal(answer), `${name}: ${JSON.stringify(answer)}`).toBe(true);
        }
      }
      expect(await db.prisma.auditEntry.count()).toBe(auditBefore);
    });
  });
});
