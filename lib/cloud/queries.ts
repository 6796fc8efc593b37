/**
 * The read functions of the app: the screens' server components (overview,
 * hosts, aggregates, flavors, images, server groups, instances, scheduler
 * profiles), the host search API and tests. Server-only (Prisma). Each takes
 * the Prisma client last (default: the app's `prisma`) so tests can pass
 * their own. Hosts are filtered, sorted and paged in SQL (fast with 10,000
 * hosts); big JSON (scenario snapshots, run results) is only parsed by the
 * get* functions that need it.
 */
import { prisma, type PrismaClient } from "@/lib/db";
import type { ComputeHost } from "@/lib/generated/prisma/client";
import type { ScenarioConfig, ScenarioHost } from "@/lib/scheduler/scenario";
import { bumpCloudRevision } from "./revision";
import { loadScenarioHost } from "./snapshot";

type Db = PrismaClient;

const num = (v: unknown) => (typeof v === "bigint" ? Number(v) : Number(v ?? 0));

/** `LIKE` pattern for "contains q" (escaping % _ \). */
export function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

/** The 1-based page `page` clamped to the pages there are, and the rows to skip before it. */
function pageOf(total: number, pageSize: number, page?: number): { page: number; pages: number; skip: number } {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const p = Math.min(Math.max(1, Math.floor(page ?? 1)), pages);
  return { page: p, pages, skip: (p - 1) * pageSize };
}

export type KeyValue = { key: string; value: string };

// ---------------------------------------------------------------------------
// Hosts

export type HostState = "up" | "down" | "disabled" | "forced down";

/** nova-compute service state as Nova's ComputeFilter sees it (forced down > down > disabled). */
export function hostState(h: { serviceDisabled: boolean; serviceUp: boolean; forcedDown: boolean }): HostState {
  if (h.forcedDown) return "forced down";
  if (!h.serviceUp) return "down";
  if (h.serviceDisabled) return "disabled";
  return "up";
}

export const HOST_SORTS = {
  position: { label: "scenario order", sql: `h."position"` },
  /** unique: no tie-breakers, so SQLite walks the name index */
  name: { label: "name", sql: `h."name"`, unique: true },
  cell: { label: "cell", sql: `c."name"` },
  vcpus: { label: "vCPUs", sql: `h."vcpus"` },
  vcpu_usage: {
    label: "vCPU usage",
    sql: `CAST(h."vcpusUsed" AS REAL) / NULLIF(h."vcpus" * h."cpuAllocationRatio", 0)`,
  },
  ram: { label: "RAM", sql: `h."memoryMb"` },
  ram_usage: {
    label: "RAM usage",
    sql: `CAST(h."memoryMbUsed" AS REAL) / NULLIF(h."memoryMb" * h."ramAllocationRatio", 0)`,
  },
  freeRamMb: { label: "free RAM", sql: `COALESCE(h."freeRamMb", h."memoryMb" - h."memoryMbUsed")` },
  disk: { label: "disk", sql: `h."localGb"` },
  disk_usage: {
    label: "disk usage",
    sql: `CAST(h."localGbUsed" AS REAL) / NULLIF(h."localGb" * h."diskAllocationRatio", 0)`,
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
  up: `NOT h."forcedDown" AND h."serviceUp" AND NOT h."serviceDisabled"`,
  disabled: `h."serviceDisabled" AND h."serviceUp" AND NOT h."forcedDown"`,
  down: `NOT h."serviceUp" AND NOT h."forcedDown"`,
  "forced-down": `h."forcedDown"`,
  problem: `(h."serviceDisabled" OR NOT h."serviceUp" OR h."forcedDown")`,
} as const;
export type HostStateFilter = keyof typeof HOST_STATES;

export const HOST_PAGE_SIZES = [25, 50, 100, 200] as const;

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

function hostWhere(q: HostQuery): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const search = q.search?.trim();
  if (search) {
    const like = likeContains(search);
    if (q.searchNameOnly) {
      where.push(`h."name" LIKE ? ESCAPE '\\'`);
      params.push(like);
    } else {
      where.push(
        `(h."name" LIKE ? ESCAPE '\\' OR h."hypervisorHostname" LIKE ? ESCAPE '\\' OR h."hostIp" LIKE ? ESCAPE '\\')`,
      );
      params.push(like, like, like);
    }
  }
  if (q.state && HOST_STATES[q.state]) where.push(HOST_STATES[q.state]);
  if (q.cell) {
    where.push(`c."name" = ?`);
    params.push(q.cell);
  }
  if (q.aggregate) {
    where.push(
      `h."id" IN (SELECT ah."hostId" FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId" WHERE a."name" = ?)`,
    );
    params.push(q.aggregate);
  }
  if (q.availabilityZone) {
    where.push(
      `h."id" IN (SELECT ah."hostId" FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId" WHERE a."availabilityZone" = ?)`,
    );
    params.push(q.availabilityZone);
  }
  if (q.notInAggregate) {
    where.push(`NOT EXISTS (SELECT 1 FROM "AggregateHost" ah WHERE ah."hostId" = h."id" AND ah."aggregateId" = ?)`);
    params.push(q.notInAggregate);
  }
  return { sql: where.length ? `WHERE ${where.join(" AND ")}` : "", params };
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
  state: HostState;
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
    state: hostState(h),
    disabledReason: h.disabledReason,
  };
}

/** Hosts matching `q`, sorted and paged in SQL; `ms` = time taken. */
export async function listHostsPage(q: HostQuery = {}, db: Db = prisma): Promise<Page<HostRow> & { ms: number }> {
  const t0 = performance.now();
  const { sql: where, params } = hostWhere(q);
  const sort: { sql: string; unique?: boolean } = HOST_SORTS[q.sort ?? "position"] ?? HOST_SORTS.position;
  const dir = q.dir === "desc" ? "DESC" : "ASC";
  const order = sort.unique ? `${sort.sql} ${dir}` : `${sort.sql} ${dir}, h."position" ${dir}, h."id" ${dir}`;
  const from = `FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId" ${where}`;
  const countRows = await db.$queryRawUnsafe<{ n: unknown }[]>(`SELECT COUNT(*) AS "n" ${from}`, ...params);
  const total = num(countRows[0]?.n);
  const pageSize = q.pageSize && q.pageSize > 0 ? Math.floor(q.pageSize) : Math.max(total, 1);
  const { page, pages, skip } = pageOf(total, pageSize, q.page);
  // raw rows come back with the model's JS types (numbers, booleans, dates)
  const hosts = await db.$queryRawUnsafe<
    (Pick<ComputeHost, (typeof HOST_ROW_COLUMNS)[number]> & { cellName: string })[]
  >(
    `SELECT ${HOST_ROW_COLUMNS.map((col) => `h."${col}"`).join(", ")}, c."name" AS "cellName" ${from}
      ORDER BY ${order}
      LIMIT ? OFFSET ?`,
    ...params,
    pageSize,
    skip,
  );
  const aggregates = new Map<number, { name: string; availabilityZone: string | null }[]>(
    hosts.map((h) => [num(h.id), []]),
  );
  if (hosts.length) {
    const links = await db.$queryRawUnsafe<{ hostId: unknown; name: string; availabilityZone: string | null }[]>(
      `SELECT ah."hostId" AS "hostId", a."name" AS "name", a."availabilityZone" AS "availabilityZone"
         FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId"
        WHERE ah."hostId" IN (${[...aggregates.keys()].join(",")})
        ORDER BY a."position", a."id"`,
    );
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
export async function listHosts(q: HostQuery = {}, db: Db = prisma): Promise<HostRow[]> {
  return (await listHostsPage(q, db)).rows;
}

export interface ProblemHost {
  name: string;
  cell: string;
  state: HostState;
  reason: string | null;
}

/** Hosts whose compute service is disabled, down or forced down (first `limit` in scenario order, and how many in all). */
export async function problemHosts(limit = 50, db: Db = prisma): Promise<{ total: number; rows: ProblemHost[] }> {
  const { total, rows } = await listHostsPage({ state: "problem", pageSize: limit }, db);
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
  state: HostState;
}

/** Host picker search: name contains q, optionally not already in an aggregate; by name, at most `limit` (≤ 100). */
export async function searchHosts(
  opts: { q?: string; notInAggregate?: number; limit?: number },
  db: Db = prisma,
): Promise<{ rows: HostSearchResult[]; total: number }> {
  const pageSize = Math.min(Math.max(1, opts.limit ?? 20), 100);
  const { total, rows } = await listHostsPage(
    { search: opts.q, searchNameOnly: true, notInAggregate: opts.notInAggregate, sort: "name", pageSize },
    db,
  );
  return { total, rows: rows.map((h) => ({ id: h.id, name: h.name, cell: h.cell, state: h.state })) };
}

export async function listCellNames(db: Db = prisma): Promise<string[]> {
  const cells = await db.cell.findMany({ orderBy: { name: "asc" }, select: { name: true } });
  return cells.map((c) => c.name);
}

/** A host page lists at most this many of the host's instances (`instanceCount` = all). */
export const HOST_INSTANCE_LIMIT = 500;

export type HostDetail = HostRow & {
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
export async function getHost(name: string, db: Db = prisma): Promise<HostDetail | null> {
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

// ---------------------------------------------------------------------------
// Capacity

/** Sums over the hosts of an AZ, cell or aggregate (capacities rounded). */
export type CapacityRow = ResourceFigures & {
  /** AZ, cell or aggregate name */
  name: string;
  hosts: number;
  /** up and not disabled (what ComputeFilter lets through) */
  enabledHosts: number;
};

const CAPACITY_COLUMNS = `count(*) AS "hosts",
  sum(CASE WHEN ${HOST_STATES.up} THEN 1 ELSE 0 END) AS "enabledHosts",
  sum(h."vcpus") AS "vcpus", sum(h."vcpusUsed") AS "vcpusUsed", sum(h."vcpus" * h."cpuAllocationRatio") AS "vcpusCapacity",
  sum(h."memoryMb") AS "memoryMb", sum(h."memoryMbUsed") AS "memoryMbUsed",
  sum(h."memoryMb" * h."ramAllocationRatio") AS "memoryMbCapacity",
  sum(h."localGb") AS "localGb", sum(h."localGbUsed") AS "localGbUsed",
  sum(h."localGb" * h."diskAllocationRatio") AS "localGbCapacity", sum(h."numInstances") AS "numInstances"`;

/** A host's availability zones: its aggregates' zones (comma joined, as Nova does). */
const HOST_ZONES = `
  SELECT ah."hostId" AS "hostId", group_concat(DISTINCT a."availabilityZone") AS "az"
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
  }));
}

/** The active profile's default_availability_zone (Nova default "nova"). */
export async function defaultAvailabilityZone(db: Db = prisma): Promise<string> {
  const az = (await getActiveProfile(db))?.config.default_availability_zone;
  return typeof az === "string" && az ? az : "nova";
}

export async function capacityByCell(db: Db = prisma): Promise<CapacityRow[]> {
  return capacityRows(
    await db.$queryRawUnsafe(
      `SELECT c."name" AS "name", ${CAPACITY_COLUMNS} FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId"
       GROUP BY c."id" ORDER BY c."name"`,
    ),
  );
}

export async function capacityByAggregate(db: Db = prisma): Promise<CapacityRow[]> {
  return capacityRows(
    await db.$queryRawUnsafe(
      `SELECT a."name" AS "name", ${CAPACITY_COLUMNS} FROM "Aggregate" a
       JOIN "AggregateHost" ah ON ah."aggregateId" = a."id" JOIN "ComputeHost" h ON h."id" = ah."hostId"
       GROUP BY a."id" ORDER BY a."position", a."id"`,
    ),
  );
}

/**
 * Per availability zone: a host's zone is its aggregates' zones, comma joined,
 * else `defaultAz` (nova.conf default_availability_zone; default: the active
 * profile's, else "nova").
 */
export async function capacityByAvailabilityZone(defaultAz?: string, db: Db = prisma): Promise<CapacityRow[]> {
  return capacityRows(
    await db.$queryRawUnsafe(
      `SELECT COALESCE(z."az", ?) AS "name", ${CAPACITY_COLUMNS}
         FROM "ComputeHost" h LEFT JOIN (${HOST_ZONES}) z ON z."hostId" = h."id"
        GROUP BY 1 ORDER BY 1`,
      defaultAz ?? (await defaultAvailabilityZone(db)),
    ),
  );
}

/** Capacity (after allocation ratios) and usage per availability zone, cell and aggregate. */
export async function capacityOverview(
  db: Db = prisma,
): Promise<{ byZone: CapacityRow[]; byCell: CapacityRow[]; byAggregate: CapacityRow[] }> {
  const defaultAz = await defaultAvailabilityZone(db);
  const [byZone, byCell, byAggregate] = await Promise.all([
    capacityByAvailabilityZone(defaultAz, db),
    capacityByCell(db),
    capacityByAggregate(db),
  ]);
  return { byZone, byCell, byAggregate };
}

// ---------------------------------------------------------------------------
// Aggregates

const keyValues = (rows: KeyValue[]): KeyValue[] => rows.map((m) => ({ key: m.key, value: m.value }));

export type AggregateRow = {
  id: number;
  position: number;
  name: string;
  uuid: string | null;
  availabilityZone: string | null;
  hostCount: number;
  metadata: KeyValue[];
};

function aggregateRow(
  a: Omit<AggregateRow, "hostCount" | "metadata"> & { metadata: KeyValue[]; _count: { hosts: number } },
): AggregateRow {
  return {
    id: a.id,
    position: a.position,
    name: a.name,
    uuid: a.uuid,
    availabilityZone: a.availabilityZone,
    hostCount: a._count.hosts,
    metadata: keyValues(a.metadata),
  };
}

/** Aggregates in scenario order, metadata by key. */
export async function listAggregates(db: Db = prisma): Promise<AggregateRow[]> {
  const aggs = await db.aggregate.findMany({
    orderBy: [{ position: "asc" }, { id: "asc" }],
    include: { metadata: { orderBy: { key: "asc" } }, _count: { select: { hosts: true } } },
  });
  return aggs.map(aggregateRow);
}

export const MEMBER_PAGE_SIZE = 50;

export type AggregateDetail = AggregateRow & {
  /** one page of the members (MEMBER_PAGE_SIZE), in the order they were added */
  hosts: { id: number; name: string; cell: string; state: HostState }[];
  /** members matching the search, and which page of them `hosts` is */
  hostPage: { matching: number; page: number; pages: number };
};

/** An aggregate with its metadata (in the order it was set) and one page of its hosts (searchable by name). */
export async function getAggregate(
  name: string,
  db: Db = prisma,
  members: { search?: string; page?: number } = {},
): Promise<AggregateDetail | null> {
  const agg = await db.aggregate.findUnique({
    where: { name },
    include: { metadata: { orderBy: { id: "asc" } }, _count: { select: { hosts: true } } },
  });
  if (!agg) return null;
  const search = members.search?.trim();
  const where = { aggregateId: agg.id, ...(search ? { host: { name: { contains: search } } } : {}) };
  const matching = await db.aggregateHost.count({ where });
  const { page, pages, skip } = pageOf(matching, MEMBER_PAGE_SIZE, members.page);
  const rows = await db.aggregateHost.findMany({
    where,
    orderBy: { id: "asc" },
    skip,
    take: MEMBER_PAGE_SIZE,
    select: {
      host: {
        select: {
          id: true,
          name: true,
          serviceDisabled: true,
          serviceUp: true,
          forcedDown: true,
          cell: { select: { name: true } },
        },
      },
    },
  });
  return {
    ...aggregateRow(agg),
    hosts: rows.map(({ host: h }) => ({ id: h.id, name: h.name, cell: h.cell.name, state: hostState(h) })),
    hostPage: { matching, page, pages },
  };
}

// ---------------------------------------------------------------------------
// Flavors, images

export type FlavorRow = {
  id: number;
  name: string;
  flavorid: string | null;
  vcpus: number;
  memoryMb: number;
  rootGb: number;
  ephemeralGb: number;
  swap: number;
  isPublic: boolean;
  description: string | null;
  extraSpecs: Record<string, string>;
  instanceCount: number;
};

function flavorRow(
  f: Omit<FlavorRow, "extraSpecs" | "instanceCount"> & { extraSpecs: KeyValue[]; _count: { instances: number } },
): FlavorRow {
  return {
    id: f.id,
    name: f.name,
    flavorid: f.flavorid,
    vcpus: f.vcpus,
    memoryMb: f.memoryMb,
    rootGb: f.rootGb,
    ephemeralGb: f.ephemeralGb,
    swap: f.swap,
    isPublic: f.isPublic,
    description: f.description,
    extraSpecs: Object.fromEntries(f.extraSpecs.map((s) => [s.key, s.value])),
    instanceCount: f._count.instances,
  };
}

/** Flavors (extra specs by key) by name, or by vCPUs, RAM, then name (the order Horizon lists them). */
export async function listFlavors(db: Db = prisma, order: "size" | "name" = "size"): Promise<FlavorRow[]> {
  const flavors = await db.flavor.findMany({
    orderBy: order === "name" ? [{ name: "asc" }] : [{ vcpus: "asc" }, { memoryMb: "asc" }, { name: "asc" }],
    include: { extraSpecs: { orderBy: { key: "asc" } }, _count: { select: { instances: true } } },
  });
  return flavors.map(flavorRow);
}

/** One flavor, extra specs in the order they were set. */
export async function getFlavor(name: string, db: Db = prisma): Promise<FlavorRow | null> {
  const f = await db.flavor.findUnique({
    where: { name },
    include: { extraSpecs: { orderBy: { id: "asc" } }, _count: { select: { instances: true } } },
  });
  return f ? flavorRow(f) : null;
}

export type ImageRow = {
  id: number;
  uuid: string;
  name: string | null;
  /** as stored: `json` = the value is the JSON text of a number / boolean / list */
  properties: (KeyValue & { json: boolean })[];
  instanceCount: number;
};

export async function listImages(db: Db = prisma): Promise<ImageRow[]> {
  const images = await db.image.findMany({
    orderBy: [{ name: "asc" }, { id: "asc" }],
    include: { properties: { orderBy: { id: "asc" } }, _count: { select: { instances: true } } },
  });
  return images.map((im) => ({
    id: im.id,
    uuid: im.uuid,
    name: im.name,
    properties: im.properties.map((p) => ({ key: p.key, value: p.value, json: p.json })),
    instanceCount: im._count.instances,
  }));
}

// ---------------------------------------------------------------------------
// Server groups, instances

/** A server group lists at most this many members (`memberCount` = all). */
export const GROUP_MEMBER_LIMIT = 200;

export type ServerGroupRow = {
  id: number;
  uuid: string;
  name: string;
  policy: string;
  rules: Record<string, string | number>;
  /** rules.max_server_per_host (anti-affinity), null = not set */
  maxServerPerHost: number | null;
  projectId: string | null;
  memberCount: number;
  /** the first GROUP_MEMBER_LIMIT members */
  members: { uuid: string; name: string | null; host: string | null }[];
  /** distinct hosts of those members, in member order */
  hosts: string[];
};

export async function listServerGroups(db: Db = prisma): Promise<ServerGroupRow[]> {
  const groups = await db.serverGroup.findMany({
    orderBy: [{ position: "asc" }, { id: "asc" }],
    include: {
      members: {
        orderBy: { id: "asc" },
        take: GROUP_MEMBER_LIMIT,
        select: { uuid: true, name: true, host: { select: { name: true } } },
      },
      _count: { select: { members: true } },
    },
  });
  return groups.map((g) => {
    const rules = JSON.parse(g.rules) as ServerGroupRow["rules"];
    const members = g.members.map((m) => ({ uuid: m.uuid, name: m.name, host: m.host?.name ?? null }));
    return {
      id: g.id,
      uuid: g.uuid,
      name: g.name,
      policy: g.policy,
      rules,
      maxServerPerHost: rules.max_server_per_host !== undefined ? Number(rules.max_server_per_host) : null,
      projectId: g.projectId,
      memberCount: g._count.members,
      members,
      hosts: [...new Set(members.flatMap((m) => (m.host ? [m.host] : [])))],
    };
  });
}

export type InstanceRow = {
  id: number;
  uuid: string;
  name: string | null;
  host: string | null;
  flavor: string | null;
  /** the image's name, else its id */
  image: string | null;
  projectId: string | null;
  serverGroup: string | null;
  serverGroupPolicy: string | null;
};

const INSTANCE_INCLUDE = {
  host: { select: { name: true } },
  flavor: { select: { name: true } },
  image: { select: { name: true, uuid: true } },
  serverGroup: { select: { name: true, uuid: true, policy: true } },
} as const;

function instanceRow(i: {
  id: number;
  uuid: string;
  name: string | null;
  projectId: string | null;
  host: { name: string } | null;
  flavor: { name: string } | null;
  image: { name: string | null; uuid: string } | null;
  serverGroup: { name: string; policy: string } | null;
}): InstanceRow {
  return {
    id: i.id,
    uuid: i.uuid,
    name: i.name,
    host: i.host?.name ?? null,
    flavor: i.flavor?.name ?? null,
    image: i.image ? (i.image.name ?? i.image.uuid) : null,
    projectId: i.projectId,
    serverGroup: i.serverGroup?.name ?? null,
    serverGroupPolicy: i.serverGroup?.policy ?? null,
  };
}

export interface InstanceQuery {
  host?: string;
  serverGroup?: string;
  projectId?: string;
  flavor?: string;
  /** substring of uuid, name or project id */
  search?: string;
  /** 1-based (clamped to the last page) */
  page?: number;
  /** default 100, at most 1000 */
  pageSize?: number;
}

export const INSTANCE_PAGE_SIZE = 50;

export async function listInstances(q: InstanceQuery = {}, db: Db = prisma): Promise<Page<InstanceRow>> {
  const search = q.search?.trim();
  const where = {
    ...(q.host ? { host: { name: q.host } } : {}),
    ...(q.serverGroup ? { serverGroup: { OR: [{ name: q.serverGroup }, { uuid: q.serverGroup }] } } : {}),
    ...(q.projectId ? { projectId: q.projectId } : {}),
    ...(q.flavor ? { flavor: { name: q.flavor } } : {}),
    ...(search
      ? { OR: [{ uuid: { contains: search } }, { name: { contains: search } }, { projectId: { contains: search } }] }
      : {}),
  };
  const pageSize = Math.min(Math.max(1, Math.floor(q.pageSize ?? 100)), 1000);
  const total = await db.instance.count({ where });
  const { page, pages, skip } = pageOf(total, pageSize, q.page);
  const rows = await db.instance.findMany({
    where,
    orderBy: { id: "asc" },
    skip,
    take: pageSize,
    include: INSTANCE_INCLUDE,
  });
  return { rows: rows.map(instanceRow), total, page, pageSize, pages };
}

/** One instance with the names / ids of what it refers to (the edit form's values). */
export async function getInstance(uuid: string, db: Db = prisma) {
  return db.instance.findUnique({ where: { uuid }, include: INSTANCE_INCLUDE });
}

/** Names for the instance form's selects (few rows each). */
export async function instanceFormChoices(db: Db = prisma) {
  const [flavors, images, groups] = await db.$transaction([
    db.flavor.findMany({ orderBy: { name: "asc" }, select: { name: true } }),
    db.image.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: { uuid: true, name: true } }),
    db.serverGroup.findMany({
      orderBy: [{ position: "asc" }, { id: "asc" }],
      select: { uuid: true, name: true, policy: true },
    }),
  ]);
  return { flavors: flavors.map((f) => f.name), images, groups };
}

// ---------------------------------------------------------------------------
// Scheduler profiles

export type ProfileRow = {
  id: number;
  name: string;
  description: string | null;
  active: boolean;
  config: ScenarioConfig & Record<string, unknown>;
  /** why the stored config could not be read ({} is used instead); null = fine */
  configError: string | null;
  updatedAt: Date;
};

function profileRow(p: {
  id: number;
  name: string;
  description: string | null;
  active: boolean;
  config: string;
  updatedAt: Date;
}): ProfileRow {
  let config: ProfileRow["config"] = {};
  let configError: string | null = null;
  try {
    const v = JSON.parse(p.config);
    if (v && typeof v === "object" && !Array.isArray(v)) config = v;
    else configError = "config is not a JSON object";
  } catch (e) {
    configError = `config is not valid JSON (${(e as Error).message})`;
  }
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    active: p.active,
    config,
    configError,
    updatedAt: p.updatedAt,
  };
}

/** Profiles by name. */
export async function listProfiles(db: Db = prisma): Promise<ProfileRow[]> {
  return (await db.schedulerProfile.findMany({ orderBy: [{ name: "asc" }] })).map(profileRow);
}

export async function getActiveProfile(db: Db = prisma): Promise<ProfileRow | null> {
  const p = await db.schedulerProfile.findFirst({ where: { active: true } });
  return p ? profileRow(p) : null;
}

export async function getProfile(name: string, db: Db = prisma): Promise<ProfileRow | null> {
  const p = await db.schedulerProfile.findUnique({ where: { name } });
  return p ? profileRow(p) : null;
}

/**
 * Make `name` the only active profile (the partial unique index
 * "SchedulerProfile_single_active" forbids two; deactivate first, one transaction).
 */
export async function activateProfile(name: string, db: Db = prisma): Promise<void> {
  await db.$transaction(async (tx) => {
    const p = await tx.schedulerProfile.findUnique({ where: { name }, select: { id: true } });
    if (!p) throw new Error(`scheduler profile "${name}" does not exist`);
    await tx.schedulerProfile.updateMany({ where: { active: true, NOT: { id: p.id } }, data: { active: false } });
    await tx.schedulerProfile.update({ where: { id: p.id }, data: { active: true } });
    await bumpCloudRevision(tx);
  });
}

// Scheduling runs are read through lib/runs/queries.ts.

/** Row counts of the cloud (for the dashboard / a quick sanity check). */
export async function cloudCounts(db: Db = prisma) {
  const [hosts, aggregates, serverGroups, instances, flavors, images, profiles, runs] = await db.$transaction([
    db.computeHost.count(),
    db.aggregate.count(),
    db.serverGroup.count(),
    db.instance.count(),
    db.flavor.count(),
    db.image.count(),
    db.schedulerProfile.count(),
    db.schedulingRun.count(),
  ]);
  return { hosts, aggregates, serverGroups, instances, flavors, images, profiles, runs };
}
