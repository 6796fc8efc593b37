/**
 * One sync at a time across every instance on one database: instances (one
 * Prisma client each) that try at the same moment get exactly one lease.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "@/lib/db/client";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { currentLease, SyncBusyError, takeLease } from "./lock";

describe.each(PROVIDERS)("on %s", (provider) => {
  let db: TestDatabase;
  let instances: PrismaClient[];
  beforeAll(async () => {
    db = await createTestDatabaseOf(provider, inject("postgresUrl"));
    instances = Array.from({ length: 4 }, () => createPrismaClient(db.url));
  });
  afterAll(async () => {
    await Promise.all(instances.map((c) => c.$disconnect()));
    await db.cleanup();
  });

  it("four instances at once: one lease, three refusals naming the holder", async () => {
    for (let round = 0; round < 3; round++) {
      const tries = await Promise.allSettled(instances.map((c, i) => takeLease(c, `instance ${i}`)));
      const won = tries.filter((t) => t.status === "fulfilled");
      expect(won).toHaveLength(1);
      for (const t of tries) if (t.status === "rejected") expect(t.reason).toBeInstanceOf(SyncBusyError);
      expect((await currentLease(db.prisma))?.label).toMatch(/^instance \d$/);
      await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof takeLease>>>).value.release();
      expect(await currentLease(db.prisma)).toBeNull();
    }
  });
});
