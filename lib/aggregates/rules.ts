/**
 * Rules of aggregates the schema alone cannot check, called by the server
 * actions inside their transaction: the aggregate still exists, names are
 * unique, and a host is in one availability zone only.
 */
import "server-only";
import { existing, MutationError } from "@/lib/actions/mutation";
import type { Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";

export async function aggregateById(tx: Tx, id: number) {
  return existing(await tx.aggregate.findUnique({ where: { id } }), "aggregate");
}

/** Aggregate names are unique (Nova refuses a duplicate name). */
export async function assertAggregateNameFree(tx: Tx, name: string, exceptId?: number) {
  const other = await tx.aggregate.findUnique({ where: { name }, select: { id: true } });
  if (other && other.id !== exceptId)
    throw new MutationError("name", `name: an aggregate named "${name}" already exists`);
}

/**
 * Nova: a host is in at most one availability zone. Returns the first
 * "host X is already in zone Y (aggregate Z)" conflict of giving `zone` to
 * hosts `hostIds` through aggregate `aggregateId`, or null.
 */
export async function zoneConflict(
  tx: Tx,
  aggregateId: number,
  zone: string | null,
  hostIds: number[] | "members",
): Promise<string | null> {
  if (!zone) return null;
  const hosts =
    hostIds === "members"
      ? Prisma.sql`(SELECT "hostId" FROM "AggregateHost" WHERE "aggregateId" = ${aggregateId})`
      : hostIds.length
        ? Prisma.sql`(${Prisma.join(hostIds)})`
        : Prisma.sql`(NULL)`;
  const rows = await tx.$queryRaw<{ host: string; zone: string; aggregate: string }[]>`
    SELECT h."name" AS "host", a."availabilityZone" AS "zone", a."name" AS "aggregate"
      FROM "AggregateHost" ah
      JOIN "Aggregate" a ON a."id" = ah."aggregateId"
      JOIN "ComputeHost" h ON h."id" = ah."hostId"
     WHERE a."id" <> ${aggregateId} AND a."availabilityZone" IS NOT NULL AND a."availabilityZone" <> ${zone}
       AND ah."hostId" IN ${hosts}
     ORDER BY h."position", h."id", a."position", a."id"
     LIMIT 1`;
  const c = rows[0];
  return c
    ? `host ${c.host} is already in availability zone "${c.zone}" (aggregate ${c.aggregate}); a host can be in one zone only`
    : null;
}
