/**
 * Hosts: the Hosts page (filtered, sorted and paged in SQL, fast with 10,000
 * hosts), which also serves the host search and the hosts out of rotation,
 * and the host page.
 */
import { SERVICE_IS_UP_SQL } from "@/lib/cloud/service";
import "server-only";
import type { Db } from "@/lib/db/client";
import { type SqlDialect, sqlFor } from "@/lib/db/dialect";
import { type ComputeHost, Prisma } from "@/lib/generated/prisma/client";
import type { ScenarioHost } from "@/lib/scheduler/scenario";
import { loadScenarioHost } from "../snapshot";
import { INSTANCE_INCLUDE, type InstanceRow, instanceRow } from "./instances";
import { defaultAvailabilityZone } from "./profiles";
import { type KeyValue, keyValues, likeContains, num, type Page, pageOf } from "./shared";

export type HostServiceState = "up" | "down" | "disabled" | "forced down";

/** nova-compute service state as Nova's ComputeFilter sees it (forced down > down > disabled). */
export function hostServiceState(h: {
  serviceDisabled: boolean;
  serviceUp: boolean;
  forcedDown: boolean;
}): HostServiceState {
  if (h.forcedDown) return "forced down";
  if (!h.serviceUp) return "down";
  if (h.serviceDisabled) return "disabled";
  return "up";
}

export const HOST_SORTS = {
  position: { label: "scenario order", sql: `h."position"` },
  /** unique: no tie-breakers, so the database walks the name index */
  name: { label: "name", sql: `h."name"`, unique: true },
  cell: { label: "cell", sql: `c."name"` },
  vcpus: { label: "vCPUs", sql: `h."vcpus"` },
  vcpu_usage: {
    label: "vCPU usage",
    sql: `h."vcpusUsed" * 1.0 / NULLIF(h."vcpus" * h."cpuAllocationRatio", 0)`,
  },
  ram: { label: "RAM", sql: `h."memoryMb"` },
  ram_usage: {
    label: "RAM usage",
    sql: `h."memoryMbUsed" * 1.0 / NULLIF(h."memoryMb" * h."ramAllocationRatio", 0)`,
  },
  freeRamMb: { label: "free RAM", sql: `COALESCE(h."freeRamMb", h."memoryMb" - h."memoryMbUsed")` },
  disk: { label: "disk", sql: `h."localGb"` },
  disk_usage: {
    label: "disk usage",
    sql: `h."localGbUsed" * 1.0 / NULLIF(h."localGb" * h."diskAllocationRatio", 0)`,
  },
  freeDiskGb: { label: "free disk", sql: `COALESCE(h."freeDiskGb", h."localGb" - h."localGbUsed")` },
  instances: { label: "instances", sql: `h."numInstances"` },
  state: {
    label: "state",
    sql: `CASE WHEN h."forcedDown" THEN 3 WHEN NOT h."serviceUp" THEN 2 WHEN h."serviceDisabled" THEN 1 ELSE 0 END`,
  },
} as const;
export type HostSort = keyof typeof HOST_SORTS;

export const HOST_STATES = {
  up: `${SERVICE_IS_UP_SQL} AND NOT h."serviceDisabled"`,
  disabled: `h."serviceDisabled" AND ${SERVICE_IS_UP_SQL}`,
  down: `NOT h."serviceUp" AND NOT h."forcedDown"`,
  "forced-down": `h."forcedDown"`,
  problem: `(h."serviceDisabled" OR NOT ${SERVICE_IS_UP_SQL})`,
} as const;
export type HostStateFilter = keyof typeof HOST_STATES;

export const HOST_PAGE_SIZES = [25, 50, 100, 200] as const;

/**
 * A `?sort=` value from the address bar, or undefined for the default order.
 * Own keys only: `constructor`, `toString` or `__proto__` are not sort keys.
 */
export function parseHostSort(raw: string | undefined): HostSort | undefined {
  return raw && Object.hasOwn(HOST_SORTS, raw) ? (raw as HostSort) : undefined;
}

/** A `?state=` value from the address bar, or undefined for every state (own keys only). */
export function parseHostState(raw: string | undefined): HostStateFilter | undefined {
  return raw && Object.hasOwn(HOST_STATES, raw) ? (raw as HostStateFilter) : undefined;
}

export interface HostQuery {
  /** substring of name, hypervisor hostname or host IP (case-insensitive) */
  search?: string;
  /** match `search` against the name only */
  searchNameOnly?: boolean;
  cell?: string;
  /** hosts in an aggregate with this AZ */
  availabilityZone?: string;
  aggregate?: string;
  /** hosts not in the aggregate with this id */
  notInAggregate?: number;
  state?: HostStateFilter;
  sort?: HostSort;
  /** ties (unless the sort key is unique): by position, then id, in the same direction */
  dir?: "asc" | "desc";
  /** 1-based (clamped to the last page); with pageSize */
  page?: number;
  /** default: all hosts */
  pageSize?: number;
}

function hostWhere(d: SqlDialect, q: HostQuery): Prisma.Sql {
  const where: Prisma.Sql[] = [];
  const search = q.search?.trim();
  if (search) {
    const like = likeContains(search);
    const match = (col: string) => Prisma.sql`${Prisma.raw(col)} ${Prisma.raw(d.ilike)} ${like} ESCAPE '\\'`;
    where.push(
      q.searchNameOnly
        ? match(`h."name"`)
        : Prisma.sql`(${match(`h."name"`)} OR ${match(`h."hypervisorHostname"`)} OR ${match(`h."hostIp"`)})`,
    );
  }
  const state = parseHostState(q.state);
  if (state) where.push(Prisma.raw(HOST_STATES[state]));
  if (q.cell) where.push(Prisma.sql`c."name" = ${q.cell}`);
  if (q.aggregate) {
    where.push(
      Prisma.sql`h."id" IN (SELECT ah."hostId" FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId" WHERE a."name" = ${q.aggregate})`,
    );
  }
  if (q.availabilityZone) {
    where.push(
      Prisma.sql`h."id" IN (SELECT ah."hostId" FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId" WHERE a."availabilityZone" = ${q.availabilityZone})`,
    );
  }
  if (q.notInAggregate) {
    where.push(
      Prisma.sql`NOT EXISTS (SELECT 1 FROM "AggregateHost" ah WHERE ah."hostId" = h."id" AND ah."aggregateId" = ${q.notInAggregate})`,
    );
  }
  return where.length ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty;
}

/** A host's resources, or their sums over a group of hosts (CapacityRow). Capacity = total × allocation ratio. */
export type ResourceFigures = {
  vcpus: number;
  vcpusUsed: number;
  vcpusCapacity: number;
  memoryMb: number;
  memoryMbUsed: number;
  memoryMbCapacity: number;
  localGb: number;
  localGbUsed: number;
  localGbCapacity: number;
  numInstances: number;
};

/** One row of the Hosts page. */
export type HostRow = ResourceFigures & {
  id: number;
  position: number;
  name: string;
  node: string;
  cell: string;
  /**
   * The host's availability zone: its aggregates' zones, comma joined (as
   * Nova shows them), or the default zone when it is in no zone aggregate.
   */
  availabilityZone: string;
  aggregates: string[];
  /** free_ram_mb as Nova computes it (the override when set, else total - used) */
  freeRamMb: number;
  freeDiskGb: number;
  cpuAllocationRatio: number;
  ramAllocationRatio: number;
  diskAllocationRatio: number;
  numIoOps: number;
  failedBuilds: number;
  hypervisorType: string;
  hypervisorVersion: number;
  hostIp: string | null;
  /** "up", "down", "disabled" or "forced down" (nova-compute service state) */
  state: HostServiceState;
  disabledReason: string | null;
};

/** The distinct availability zones of a host's aggregates, in the order given. */
function zonesOf(aggregates: { availabilityZone: string | null }[]): string[] {
  return [...new Set(aggregates.flatMap((a) => (a.availabilityZone ? [a.availabilityZone] : [])))];
}

/** The host columns a HostRow is made of. */
const HOST_ROW_COLUMNS = [
  "id",
  "position",
  "name",
  "hypervisorHostname",
  "vcpus",
  "vcpusUsed",
  "cpuAllocationRatio",
  "memoryMb",
  "memoryMbUsed",
  "ramAllocationRatio",
  "freeRamMb",
  "localGb",
  "localGbUsed",
  "diskAllocationRatio",
  "freeDiskGb",
  "numInstances",
  "numIoOps",
  "failedBuilds",
  "hypervisorType",
  "hypervisorVersion",
  "hostIp",
  "serviceDisabled",
  "serviceUp",
  "forcedDown",
  "disabledReason",
] as const;

function hostRow(
  h: Pick<ComputeHost, (typeof HOST_ROW_COLUMNS)[number]>,
  cell: string,
  aggregates: { name: string }[],
  availabilityZone: string,
): HostRow {
  return {
    id: h.id,
    position: h.position,
    name: h.name,
    node: h.hypervisorHostname,
    cell,
    availabilityZone,
    aggregates: aggregates.map((a) => a.name),
    vcpus: h.vcpus,
    vcpusUsed: h.vcpusUsed,
    vcpusCapacity: h.vcpus * h.cpuAllocationRatio,
    memoryMb: h.memoryMb,
    memoryMbUsed: h.memoryMbUsed,
    memoryMbCapacity: h.memoryMb * h.ramAllocationRatio,
    freeRamMb: h.freeRamMb ?? h.memoryMb - h.memoryMbUsed,
    localGb: h.localGb,
    localGbUsed: h.localGbUsed,
    localGbCapacity: h.localGb * h.diskAllocationRatio,
    freeDiskGb: h.freeDiskGb ?? h.localGb - h.localGbUsed,
    cpuAllocationRatio: h.cpuAllocationRatio,
    ramAllocationRatio: h.ramAllocationRatio,
    diskAllocationRatio: h.diskAllocationRatio,
    numInstances: h.numInstances,
    numIoOps: h.numIoOps,
    failedBuilds: h.failedBuilds,
    hypervisorType: h.hypervisorType,
    hypervisorVersion: h.hypervisorVersion,
    hostIp: h.hostIp,
    state: hostServiceState(h),
    disabledReason: h.disabledReason,
  };
}

/** Hosts matching `q`, sorted and paged in SQL; `ms` = time taken. */
export async function listHostsPage(db: Db, q: HostQuery = {}): Promise<Page<HostRow> & { ms: number }> {
  const t0 = performance.now();
  const d = sqlFor(db);
  const where = hostWhere(d, q);
  const sort: { sql: string; unique?: boolean } = HOST_SORTS[parseHostSort(q.sort) ?? "position"];
  const dir = q.dir === "desc" ? "DESC" : "ASC";
  // a unique key is never NULL: its plain direction lets either database walk its index
  const order = sort.unique ? `${sort.sql} ${dir}` : `${sort.sql} ${d.order(dir)}, h."position" ${dir}, h."id" ${dir}`;
  const from = Prisma.sql`FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId" ${where}`;
  const countRows = await db.$queryRaw<{ n: unknown }[]>`SELECT COUNT(*) AS "n" ${from}`;
  const total = num(countRows[0]?.n);
  const pageSize = q.pageSize && q.pageSize > 0 ? Math.floor(q.pageSize) : Math.max(total, 1);
  const { page, pages, skip } = pageOf(total, pageSize, q.page);
  // raw rows come back with the model's JS types (numbers, booleans, dates)
  const hosts = await db.$queryRaw<(Pick<ComputeHost, (typeof HOST_ROW_COLUMNS)[number]> & { cellName: string })[]>`
    SELECT ${Prisma.raw(HOST_ROW_COLUMNS.map((col) => `h."${col}"`).join(", "))}, c."name" AS "cellName" ${from}
     ORDER BY ${Prisma.raw(order)}
     LIMIT ${pageSize} OFFSET ${skip}`;
  const aggregates = new Map<number, { name: string; availabilityZone: string | null }[]>(
    hosts.map((h) => [num(h.id), []]),
  );
  if (hosts.length) {
    const links = await db.$queryRaw<{ hostId: unknown; name: string; availabilityZone: string | null }[]>`
      SELECT ah."hostId" AS "hostId", a."name" AS "name", a."availabilityZone" AS "availabilityZone"
        FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId"
       WHERE ah."hostId" IN (${Prisma.join([...aggregates.keys()])})
       ORDER BY a."position", a."id"`;
    for (const l of links) aggregates.get(num(l.hostId))!.push({ name: l.name, availabilityZone: l.availabilityZone });
  }
  const defaultAz = [...aggregates.values()].some((a) => !zonesOf(a).length)
    ? await defaultAvailabilityZone(db)
    : "nova";
  const rows = hosts.map((h) => {
    const aggs = aggregates.get(num(h.id))!;
    return hostRow(h, h.cellName, aggs, zonesOf(aggs).join(",") || defaultAz);
  });
  return { rows, total, page, pageSize, pages, ms: performance.now() - t0 };
}

/** The rows of listHostsPage (every host in scenario order when called without arguments). */
export async function listHosts(db: Db, q: HostQuery = {}): Promise<HostRow[]> {
  return (await listHostsPage(db, q)).rows;
}

export interface ProblemHost {
  name: string;
  cell: string;
  state: HostServiceState;
  reason: string | null;
}

/** Hosts whose compute service is disabled, down or forced down (first `limit` in scenario order, and how many in all). */
export async function problemHosts(db: Db, limit = 50): Promise<{ total: number; rows: ProblemHost[] }> {
  const { total, rows } = await listHostsPage(db, { state: "problem", pageSize: limit });
  return {
    total,
    rows: rows.map((h) => ({
      name: h.name,
      cell: h.cell,
      state: h.state,
      reason:
        h.disabledReason ??
        (h.state === "forced down"
          ? "service forced down"
          : h.state === "down"
            ? "service not reporting (down)"
            : null),
    })),
  };
}

export interface HostSearchResult {
  id: number;
  name: string;
  cell: string;
  state: HostServiceState;
}

/** Host picker search: name contains q, optionally not already in an aggregate; by name, at most `limit` (≤ 100). */
export async function searchHosts(
  db: Db,
  opts: { q?: string; notInAggregate?: number; limit?: number },
): Promise<{ rows: HostSearchResult[]; total: number }> {
  const pageSize = Math.min(Math.max(1, opts.limit ?? 20), 100);
  const { total, rows } = await listHostsPage(db, {
    search: opts.q,
    searchNameOnly: true,
    notInAggregate: opts.notInAggregate,
    sort: "name",
    pageSize,
  });
  return { total, rows: rows.map((h) => ({ id: h.id, name: h.name, cell: h.cell, state: h.state })) };
}

export async function listCellNames(db: Db): Promise<string[]> {
  const cells = await db.cell.findMany({ orderBy: { name: "asc" }, select: { name: true } });
  return cells.map((c) => c.name);
}

/** A host page lists at most this many of the host's instances (`instanceCount` = all). */
export const HOST_INSTANCE_LIMIT = 500;

export type HostDetail = HostRow & {
  /** optimistic concurrency: forms send it back (lib/audit/trail.ts) */
  version: number;
  uuid: string | null;
  reservedVcpus: number;
  reservedMemoryMb: number;
  reservedDiskGb: number;
  diskAvailableLeast: number | null;
  /** the stored overrides (null = derived) */
  freeRamMbOverride: number | null;
  freeDiskGbOverride: number | null;
  serviceDisabled: boolean;
  serviceUp: boolean;
  forcedDown: boolean;
  supportedInstances: [string, string, string][];
  cpuInfo: Record<string, unknown>;
  metrics: { name: string; value: number }[];
  /** by name */
  traits: string[];
  /** in the order the host was added to them; metadata by key */
  aggregateDetails: { name: string; availabilityZone: string | null; metadata: KeyValue[] }[];
  /** the host's zones (the default zone when it is in no zone aggregate: zoneIsDefault) */
  zones: string[];
  zoneIsDefault: boolean;
  /** the first HOST_INSTANCE_LIMIT instance records */
  instances: InstanceRow[];
  instanceCount: number;
  /** the host exactly as the engine sees it */
  scenario: ScenarioHost;
};

/** Everything the host page shows. */
export async function getHost(db: Db, name: string): Promise<HostDetail | null> {
  const h = await db.computeHost.findUnique({
    where: { name },
    include: {
      cell: { select: { name: true } },
      metrics: { orderBy: { id: "asc" } },
      traits: { orderBy: { name: "asc" } },
      aggregates: {
        orderBy: { id: "asc" },
        include: { aggregate: { include: { metadata: { orderBy: { key: "asc" } } } } },
      },
      instances: { orderBy: { id: "asc" }, take: HOST_INSTANCE_LIMIT, include: INSTANCE_INCLUDE },
      _count: { select: { instances: true } },
    },
  });
  if (!h) return null;
  const aggregateDetails = h.aggregates.map(({ aggregate: a }) => ({
    name: a.name,
    availabilityZone: a.availabilityZone,
    metadata: keyValues(a.metadata),
  }));
  const found = zonesOf(aggregateDetails);
  const zones = found.length ? found : [await defaultAvailabilityZone(db)];
  return {
    ...hostRow(h, h.cell.name, aggregateDetails, zones.join(",")),
    uuid: h.uuid,
    reservedVcpus: h.reservedVcpus,
    reservedMemoryMb: h.reservedMemoryMb,
    reservedDiskGb: h.reservedDiskGb,
    diskAvailableLeast: h.diskAvailableLeast,
    freeRamMbOverride: h.freeRamMb,
    freeDiskGbOverride: h.freeDiskGb,
    serviceDisabled: h.serviceDisabled,
    version: h.version,
    serviceUp: h.serviceUp,
    forcedDown: h.forcedDown,
    supportedInstances: JSON.parse(h.supportedInstances),
    cpuInfo: JSON.parse(h.cpuInfo),
    metrics: h.metrics.map((m) => ({ name: m.name, value: m.value })),
    traits: h.traits.map((t) => t.name),
    aggregateDetails,
    zones,
    zoneIsDefault: found.length === 0,
    instances: h.instances.map(instanceRow),
    instanceCount: h._count.instances,
    scenario: (await loadScenarioHost(db, name))!,
  };
}
