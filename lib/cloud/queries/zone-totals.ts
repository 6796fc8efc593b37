/** Capacity (after allocation ratios) and usage per availability zone, cell and aggregate. */
import "server-only";
import type { Db } from "@/lib/db/client";
import { type SqlDialect, sqlFor } from "@/lib/db/dialect";
import { Prisma } from "@/lib/generated/prisma/client";
import { HOST_STATES, type ResourceFigures } from "./hosts";
import { defaultAvailabilityZone } from "./profiles";
import { num } from "./shared";

/** Sums over the hosts of an AZ, cell or aggregate (capacities rounded). */
export type CapacityRow = ResourceFigures & {
  /** AZ, cell or aggregate name */
  name: string;
  hosts: number;
  /** up and not disabled (what ComputeFilter lets through) */
  enabledHosts: number;
  /** Bare-metal nodes (no vCPU, a custom resource class: Ironic's), and those holding an instance */
  bareMetalNodes: number;
  bareMetalUsed: number;
};

const CAPACITY_COLUMNS = `count(*) AS "hosts",
  sum(CASE WHEN ${HOST_STATES.up} THEN 1 ELSE 0 END) AS "enabledHosts",
  sum(h."vcpus") AS "vcpus", sum(h."vcpusUsed") AS "vcpusUsed", sum(h."vcpus" * h."cpuAllocationRatio") AS "vcpusCapacity",
  sum(h."memoryMb") AS "memoryMb", sum(h."memoryMbUsed") AS "memoryMbUsed",
  sum(h."memoryMb" * h."ramAllocationRatio") AS "memoryMbCapacity",
  sum(h."localGb") AS "localGb", sum(h."localGbUsed") AS "localGbUsed",
  sum(h."localGb" * h."diskAllocationRatio") AS "localGbCapacity", sum(h."numInstances") AS "numInstances",
  sum(CASE WHEN h."vcpus" = 0 AND h."inventories" IS NOT NULL THEN 1 ELSE 0 END) AS "bareMetalNodes",
  sum(CASE WHEN h."vcpus" = 0 AND h."inventories" IS NOT NULL AND h."numInstances" > 0 THEN 1 ELSE 0 END) AS "bareMetalUsed"`;

/**
 * A service host's other compute nodes (Ironic's: rows named by their node,
 * with serviceHost set) belong where its first node's row does: aggregates
 * and zones list that row only.
 */
const FIRST_ROW = `COALESCE((SELECT f."id" FROM "ComputeHost" f WHERE f."name" = h."serviceHost"), h."id")`;

/** A host's availability zones: its aggregates' zones (comma joined, as Nova does; sorted). */
const hostZones = (d: SqlDialect) => `
  SELECT ah."hostId" AS "hostId", ${d.distinctList(`a."availabilityZone"`)} AS "az"
    FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId"
   WHERE a."availabilityZone" IS NOT NULL
   GROUP BY ah."hostId"`;

function capacityRows(rows: Record<string, unknown>[]): CapacityRow[] {
  return rows.map((r) => ({
    name: String(r.name),
    hosts: num(r.hosts),
    enabledHosts: num(r.enabledHosts),
    vcpus: num(r.vcpus),
    vcpusUsed: num(r.vcpusUsed),
    vcpusCapacity: Math.round(num(r.vcpusCapacity)),
    memoryMb: num(r.memoryMb),
    memoryMbUsed: num(r.memoryMbUsed),
    memoryMbCapacity: Math.round(num(r.memoryMbCapacity)),
    localGb: num(r.localGb),
    localGbUsed: num(r.localGbUsed),
    localGbCapacity: Math.round(num(r.localGbCapacity)),
    numInstances: num(r.numInstances),
    bareMetalNodes: num(r.bareMetalNodes),
    bareMetalUsed: num(r.bareMetalUsed),
  }));
}

export async function capacityByCell(db: Db): Promise<CapacityRow[]> {
  return capacityRows(
    await db.$queryRawUnsafe(
      `SELECT c."name" AS "name", ${CAPACITY_COLUMNS} FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId"
       GROUP BY c."id", c."name" ORDER BY c."name"`,
    ),
  );
}

export async function capacityByAggregate(db: Db): Promise<CapacityRow[]> {
  return capacityRows(
    await db.$queryRawUnsafe(
      `SELECT a."name" AS "name", ${CAPACITY_COLUMNS} FROM "Aggregate" a
       JOIN "AggregateHost" ah ON ah."aggregateId" = a."id" JOIN "ComputeHost" h ON ${FIRST_ROW} = ah."hostId"
       GROUP BY a."id", a."name", a."position" ORDER BY a."position", a."id"`,
    ),
  );
}

/**
 * Per availability zone: a host's zone is its aggregates' zones, comma joined,
 * else `defaultAz` (nova.conf default_availability_zone; default: the active
 * profile's, else "nova").
 */
export async function capacityByAvailabilityZone(db: Db, defaultAz?: string): Promise<CapacityRow[]> {
  return capacityRows(
    await db.$queryRaw`SELECT COALESCE(z."az", ${defaultAz ?? (await defaultAvailabilityZone(db))}) AS "name",
        ${Prisma.raw(CAPACITY_COLUMNS)}
        FROM "ComputeHost" h LEFT JOIN (${Prisma.raw(hostZones(sqlFor(db)))}) z ON z."hostId" = ${Prisma.raw(FIRST_ROW)}
       GROUP BY 1 ORDER BY 1`,
  );
}

/** Capacity (after allocation ratios) and usage per availability zone, cell and aggregate. */
export async function capacityOverview(
  db: Db,
): Promise<{ byZone: CapacityRow[]; byCell: CapacityRow[]; byAggregate: CapacityRow[] }> {
  const defaultAz = await defaultAvailabilityZone(db);
  const [byZone, byCell, byAggregate] = await Promise.all([
    capacityByAvailabilityZone(db, defaultAz),
    capacityByCell(db),
    capacityByAggregate(db),
  ]);
  return { byZone, byCell, byAggregate };
}
