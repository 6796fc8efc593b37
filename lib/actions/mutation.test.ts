/**
 * The mutation wrapper as a team uses it: who may write (before anything is
 * parsed or written), the audit entry written with each change, and the
 * version check that refuses a form opened before someone else's save.
 */
import { peekProcessSingleton, setProcessSingleton } from "@/lib/process-singleton";
import { PRISMA_SINGLETON } from "@/lib/db/client";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { z } from "zod";
import type { Actor } from "@/lib/auth/session";
import { runAs } from "@/lib/auth/session";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { deleteAggregate } from "@/lib/aggregates/actions";
import { activateProfile, deleteProfile } from "@/lib/profiles/actions";
import { MutationError, mutate } from "./mutation";

vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// a delete that succeeds redirects to the list; here it only has to return
vi.mock("next/navigation", () => ({ redirect: () => undefined }));

const MetadataSchema = z.object({ id: z.coerce.number().int(), key: z.string().min(1), value: z.string() });

const alice: Actor = { userId: "u-alice", name: "alice", role: "admin" };
const bob: Actor = { userId: "u-bob", name: "bob", role: "admin" };
const olga: Actor = { userId: "u-olga", name: "olga", role: "operator" };
const vera: Actor = { userId: "u-vera", name: "vera", role: "viewer" };

let db: TestDatabase;
let aggId: number;

/** The aggregate-metadata write, through the wrapper, as a given actor (null: nobody signed in). */
function saveMetadata(actor: Actor | null, input: Record<string, unknown>) {
  const call = () =>
    mutate("aggregate.metadata.save", MetadataSchema, input, async (tx, d) => {
      await tx.aggregateMetadata.upsert({
        where: { aggregateId_key: { aggregateId: d.id, key: d.key } },
        create: { aggregateId: d.id, key: d.key, value: d.value },
        update: { value: d.value },
      });
      return { key: d.key };
    });
  return actor ? runAs(actor, call) : call();
}

/** Point the app's lazily created client (lib/db/index.ts) at `url`, closing the previous one. */
async function useAppClientOn(url: string | undefined) {
  await peekProcessSingleton<{ $disconnect(): Promise<void> }>(PRISMA_SINGLETON)?.$disconnect();
  setProcessSingleton(PRISMA_SINGLETON, undefined);
  if (url) process.env.DATABASE_URL = url;
}

async function profileId(name: string): Promise<number> {
  return (await db.prisma.schedulerProfile.findUniqueOrThrow({ where: { name } })).id;
}

async function gpuValue() {
  const row = await db.prisma.aggregateMetadata.findFirst({ where: { aggregateId: aggId, key: "gpu" } });
  return row?.value;
}

describe.each(PROVIDERS)("on %s", (provider) => {
  beforeAll(async () => {
    db = await createTestDatabaseOf(provider, inject("postgresUrl"));
    // the wrapper writes through the app's client, created from DATABASE_URL on first use
    await useAppClientOn(db.url);
  });
  afterAll(async () => {
    await useAppClientOn(undefined);
    await db?.cleanup();
  });
  beforeEach(async () => {
    await db.prisma.auditEntry.deleteMany();
    await db.prisma.aggregate.deleteMany();
    const agg = await db.prisma.aggregate.create({
      data: { name: "agg-gpu", position: 0, metadata: { create: [{ key: "gpu", value: "true" }] } },
    });
    aggId = agg.id;
  });

  describe("roles are enforced in the wrapper, before validation", () => {
    it.each([
      ["nobody signed in", null, /Sign in/],
      ["a viewer", vera, /needs the admin role.*vera \(viewer\)/],
      ["an operator", olga, /needs the admin role.*olga \(operator\)/],
    ] as const)("%s cannot change aggregate metadata; nothing is written", async (_n, actor, message) => {
      // invalid input too: the refusal comes first, so it leaks nothing about validation
      for (const input of [{ id: aggId, key: "gpu", value: "false" }, { id: "x" }]) {
        const r = await saveMetadata(actor, input);
        expect(r.ok).toBe(false);
        expect(!r.ok && r.formError).toMatch(message);
      }
      expect(await gpuValue()).toBe("true");
      expect(await db.prisma.auditEntry.count()).toBe(0);
    });

    it("an admin can, and the audit trail has who, what, before and after", async () => {
      const r = await saveMetadata(alice, { id: aggId, key: "gpu", value: "false", version: 1 });
      expect(r.ok).toBe(true);
      expect(await gpuValue()).toBe("false");
      const entries = await db.prisma.auditEntry.findMany();
      expect(entries).toHaveLength(1);
      const e = entries[0];
      expect(e).toMatchObject({ userName: "alice", role: "admin", entity: "aggregate", entityKey: "agg-gpu" });
      expect(JSON.parse(e.before!).metadata).toEqual({ gpu: "true" });
      expect(JSON.parse(e.after!).metadata).toEqual({ gpu: "false" });
      const agg = await db.prisma.aggregate.findUniqueOrThrow({ where: { id: aggId } });
      expect(agg.version).toBe(2);
    });

    it.each([
      ["nobody signed in", null, { id: 1, key: "gpu", value: "x" }, /Sign in/],
      ["a viewer", vera, { id: 1, key: "gpu", value: "x" }, /needs the admin role/],
      ["an admin with invalid input", alice, { id: "x" }, /expected number/],
    ] as const)("expensive preparation (the scheduler) never runs for %s", async (_n, actor, input, message) => {
      let prepared = 0;
      const call = () =>
        mutate("aggregate.metadata.save", MetadataSchema, input, async () => ({ written: true }), {
          prepare: async () => {
            prepared++;
          },
        });
      const r = await (actor ? runAs(actor, call) : call());
      expect(r.ok).toBe(false);
      expect(JSON.stringify(r)).toMatch(message);
      expect(prepared).toBe(0);
    });

    it("a refusal from the preparation is the form's error and nothing is written", async () => {
      const r = await runAs(alice, () =>
        mutate(
          "aggregate.metadata.save",
          MetadataSchema,
          { id: aggId, key: "gpu", value: "false" },
          async (tx, d, prepared: string) => {
            await tx.aggregateMetadata.updateMany({ where: { aggregateId: d.id }, data: { value: prepared } });
            return prepared;
          },
          {
            prepare: async () => {
              throw new MutationError("flavor", 'unknown flavor "m9.huge"');
            },
          },
        ),
      );
      expect(r).toEqual({ ok: false, fieldErrors: { flavor: ['unknown flavor "m9.huge"'] } });
      expect(await gpuValue()).toBe("true");
      expect(await db.prisma.auditEntry.count()).toBe(0);
    });

    it("a write that fails leaves neither the change nor an audit entry", async () => {
      const r = await runAs(alice, () =>
        mutate(
          "aggregate.metadata.save",
          MetadataSchema,
          { id: aggId, key: "gpu", value: "x", version: 1 },
          async (tx, d) => {
            await tx.aggregateMetadata.updateMany({ where: { aggregateId: d.id }, data: { value: d.value } });
            throw new Error("disk full");
          },
        ),
      ).catch((e: Error) => e);
      expect(r).toBeInstanceOf(Error);
      expect(await gpuValue()).toBe("true");
      expect(await db.prisma.auditEntry.count()).toBe(0);
    });
  });

  describe("a form opened before someone else's save is refused", () => {
    it("second save with the old version: conflict naming who and when, both values, nothing overwritten", async () => {
      const first = await saveMetadata(alice, { id: aggId, key: "gpu", value: "false", version: "1" });
      expect(first.ok).toBe(true);
      const second = await saveMetadata(bob, { id: aggId, key: "gpu", value: "maybe", version: "1" });
      expect(second.ok).toBe(false);
      if (second.ok) return;
      const at = (await db.prisma.auditEntry.findFirstOrThrow()).at.toISOString().slice(11, 16);
      expect(second.formError).toContain(`changed by alice at ${at} since you opened it`);
      expect(second.conflict?.fields).toEqual([{ field: "gpu", yours: "maybe", theirs: "false" }]);
      expect(await gpuValue()).toBe("false");
      expect(await db.prisma.auditEntry.count()).toBe(1);
    });

    it("a save at the current version goes through", async () => {
      expect((await saveMetadata(alice, { id: aggId, key: "gpu", value: "a", version: "1" })).ok).toBe(true);
      expect((await saveMetadata(bob, { id: aggId, key: "gpu", value: "b", version: "2" })).ok).toBe(true);
      expect(await gpuValue()).toBe("b");
    });

    /** FormData as the page's hidden fields send it. */
    const form = (fields: Record<string, string | number>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.set(k, String(v));
      return f;
    };

    it("deleting an aggregate changed since the page was opened is refused; at its current version it goes", async () => {
      expect((await saveMetadata(alice, { id: aggId, key: "gpu", value: "false", version: "1" })).ok).toBe(true);
      const stale = await runAs(bob, () => deleteAggregate(null, form({ id: aggId, version: 1 })));
      expect(stale.ok).toBe(false);
      expect(!stale.ok && stale.formError).toMatch(/changed by alice at \d\d:\d\d since you opened it/);
      expect(await db.prisma.aggregate.count({ where: { id: aggId } })).toBe(1);
      await runAs(bob, () => deleteAggregate(null, form({ id: aggId, version: 2 })));
      expect(await db.prisma.aggregate.count({ where: { id: aggId } })).toBe(0);
    });

    it.each([
      ["activating", activateProfile],
      ["deleting", deleteProfile],
    ] as const)("%s a profile changed since the page was opened is refused", async (_what, action) => {
      await db.prisma.schedulerProfile.deleteMany();
      await db.prisma.schedulerProfile.create({ data: { name: "a", config: "{}", active: true } });
      const b = await db.prisma.schedulerProfile.create({ data: { name: "b", config: "{}" } });
      // alice activates b (b moves to version 2), then a again; bob's page still shows b at version 1
      expect((await runAs(alice, () => activateProfile(null, form({ id: b.id, version: 1 })))).ok).toBe(true);
      const a = await db.prisma.schedulerProfile.findUniqueOrThrow({ where: { name: "a" } });
      expect((await runAs(alice, () => activateProfile(null, form({ id: a.id, version: a.version })))).ok).toBe(true);
      const before = await db.prisma.schedulerProfile.findMany({ orderBy: { name: "asc" } });
      const r = await runAs(olga, () => action(null, form({ id: b.id, version: 1 })));
      expect(r.ok).toBe(false);
      expect(!r.ok && r.formError).toMatch(/changed by alice at \d\d:\d\d since you opened it/);
      expect(await db.prisma.schedulerProfile.findMany({ orderBy: { name: "asc" } })).toEqual(before);
    });

    it.each([
      ["saving metadata", () => saveMetadata(alice, { id: aggId, key: "gpu", value: "false" })],
      ["deleting the aggregate", () => runAs(alice, () => deleteAggregate(null, form({ id: aggId })))],
      [
        "activating a profile",
        () => runAs(alice, async () => activateProfile(null, form({ id: await profileId("b") }))),
      ],
    ] as const)(
      "%s without the version the form was opened at is refused on its field, nothing written",
      async (_w, act) => {
        await db.prisma.schedulerProfile.deleteMany();
        await db.prisma.schedulerProfile.create({ data: { name: "a", config: "{}", active: true } });
        await db.prisma.schedulerProfile.create({ data: { name: "b", config: "{}" } });
        const r = await act();
        expect(r).toMatchObject({
          ok: false,
          fieldErrors: { version: [expect.stringMatching(/^version: is required/)] },
        });
        expect(await gpuValue()).toBe("true");
        expect(await db.prisma.aggregate.count({ where: { id: aggId } })).toBe(1);
        expect((await db.prisma.schedulerProfile.findUniqueOrThrow({ where: { name: "a" } })).active).toBe(true);
        expect(await db.prisma.auditEntry.count()).toBe(0);
      },
    );

    it("20 parallel saves at one version: one is kept, 19 are refused as conflicts, none lost silently", async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          saveMetadata(i % 2 ? alice : bob, { id: aggId, key: "gpu", value: `v${i}`, version: 1 }),
        ),
      );
      const saved = answers.filter((r) => r.ok);
      expect(saved).toHaveLength(1);
      expect(answers.filter((r) => !r.ok && r.conflict)).toHaveLength(19);
      expect(await db.prisma.auditEntry.count()).toBe(1);
    });

    it.each([["abc"], ["0"], ["1.5"]])("a malformed version %j is refused on its field", async (version) => {
      const r = await saveMetadata(alice, { id: aggId, key: "gpu", value: "false", version });
      expect(r).toMatchObject({ ok: false, fieldErrors: { version: ["version: must be a whole number >= 1"] } });
      expect(await gpuValue()).toBe("true");
    });
  });
});
