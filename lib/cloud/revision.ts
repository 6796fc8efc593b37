/**
 * The cloud's change counter (table CloudRevision, one row). Every write to
 * what the scheduler reads bumps it inside its own transaction; a process
 * that keeps the engine's snapshot in memory compares the revision it loaded
 * with the database's before using it. Because the counter lives in the
 * database, a write made by another app process (or a script) is seen too.
 */
import type { PrismaClient } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";

type Db = PrismaClient | Prisma.TransactionClient;

const ROW = 1;

/** Bump the revision (call inside the transaction that changes the cloud). */
export async function bumpCloudRevision(tx: Db): Promise<void> {
  await tx.cloudRevision.upsert({
    where: { id: ROW },
    create: { id: ROW, revision: 1 },
    update: { revision: { increment: 1 } },
  });
}

/** The current revision (0 before the first write). */
export async function readCloudRevision(db: Db): Promise<number> {
  const row = await db.cloudRevision.findUnique({ where: { id: ROW }, select: { revision: true } });
  return row?.revision ?? 0;
}
