/**
 * Read functions of the screens where the scheduler's inputs are seen and
 * changed (issue 5): overview, hosts (paged / searched / sorted in SQL, fast
 * with 10,000 hosts), aggregates, flavors, images, server groups, instances,
 * scheduler profiles. Server-only (Prisma).
 */
import { prisma } from "@/lib/db";
import { hostState } from "./queries";

const num = (v: unknown) => (typeof v === "bigint" ? Number(v) : Number(v ?? 0));

/** `LIKE` pattern for "contains q" (escaping % _ \). */
export function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// ---------------------------------------------------------------------------
// Overview

export interface CapacityRow {
  name: string;
  hosts: number;
  vcpuUsed: number;
  vcpuTotal: number;
  ramUsedMb: number;
  ramTotalMb: number;
  diskUsedGb: number;
  diskTotalGb: number;
}

const CAPACITY_SUMS = `
  COUNT(*) AS "hosts",
  SUM(h."vcpusUsed") AS "vcpuUsed",
  SUM(h."vcpus" * h."cpuAllocationRatio") AS "vcpuTotal",
  SUM(h."memoryMbUsed") AS "ramUsedMb",
  SUM(h."memoryMb" * h."ramAllocationRatio") AS "ramTotalMb",
  SUM(h."localGbUsed") AS "diskUsedGb",
  SUM(h."localGb" * h."diskAllocationRatio") AS "diskTotalGb"`;

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
    vcpuUsed: num(r.vcpuUsed),
    vcpuTotal: Math.round(num(r.vcpuTotal)),
    ramUsedMb: num(r.ramUsedMb),
    ramTotalMb: Math.round(num(r.ramTotalMb)),
    diskUsedGb: num(r.diskUsedGb),
    diskTotalGb: Math.round(num(r.diskTotalGb)),
  }));
}

/** The active profile's default_availability_zone (Nova default "nova"). */
export async function defaultAvailabilityZone(): Promise<string> {
  const p = await prisma.schedulerProfile.findFirst({ where: { active: true }, select: { config: true } });
  try {
    const cfg = p ? (JSON.parse(p.config) as { default_availability_zone?: unknown }) : {};
    return typeof cfg.default_availability_zone === "string" && cfg.default_availability_zone
      ? cfg.default_availability_zone
      : "nova";
  } catch {
    return "nova";
  }
}

/** Capacity (after allocation ratios) and usage per availability zone, cell and aggregate: 3 grouped queries. */
export async function capacityOverview(): Promise<{ byZone: CapacityRow[]; byCell: CapacityRow[]; byAggregate: CapacityRow[] }> {
  const defaultAz = await defaultAvailabilityZone();
  const [byZone, byCell, byAggregate] = await prisma.$transaction([
    prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT COALESCE(z."az", ?) AS "name", ${CAPACITY_SUMS}
         FROM "ComputeHost" h LEFT JOIN (${HOST_ZONES}) z ON z."hostId" = h."id"
        GROUP BY 1 ORDER BY 1`,
      defaultAz,
    ),
    prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT c."name" AS "name", ${CAPACITY_SUMS}
         FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId"
        GROUP BY c."id" ORDER BY c."name"`,
    ),
    prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT a."name" AS "name", ${CAPACITY_SUMS}
         FROM "Aggregate" a JOIN "AggregateHost" ah ON ah."aggregateId" = a."id" JOIN "ComputeHost" h ON h."id" = ah."hostId"
        GROUP BY a."id" ORDER BY a."position", a."id"`,
    ),
  ]);
  return { byZone: capacityRows(byZone), byCell: capacityRows(byCell), byAggregate: capacityRows(byAggregate) };
}

export interface ProblemHost {
  name: string;
  cell: string;
  state: string;
  reason: string | null;
}

/** Hosts whose compute service is disabled, down or forced down (first `limit`, and how many in all). */
export async function problemHosts(limit = 50): Promise<{ total: number; rows: ProblemHost[] }> {
  const where = { OR: [{ serviceDisabled: true }, { serviceUp: false }, { forcedDown: true }] };
  const [total, rows] = await prisma.$transaction([
    prisma.computeHost.count({ where }),
    prisma.computeHost.findMany({
      where,
      orderBy: [{ position: "asc" }, { id: "asc" }],
      take: limit,
      select: { name: true, serviceDisabled: true, serviceUp: true, forcedDown: true, disabledReason: true, cell: { select: { name: true } } },
    }),
  ]);
  return {
    total,
    rows: rows.map((h) => ({
      name: h.name,
      cell: h.cell.name,
      state: hostState(h),
      reason: h.disabledReason ?? (h.forcedDown ? "service forced down" : !h.serviceUp ? "service not reporting (down)" : null),
    })),
  };
}

export interface RunSummary {
  id: number;
  createdAt: Date;
  profileName: string | null;
  flavorName: string;
  numInstances: number;
  error: string | null;
  chosenHosts: string[];
  hostCount: number;
}

export async function latestRuns(limit = 10): Promise<RunSummary[]> {
  const rows = await prisma.schedulingRun.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, createdAt: true, profileName: true, flavorName: true, numInstances: true, error: true, chosenHosts: true, hostCount: true },
  });
  return rows.map((r) => {
    let chosen: string[] = [];
    try {
      const v = JSON.parse(r.chosenHosts);
      if (Array.isArray(v)) chosen = v.map((x) => String(x));
    } catch {
      /* shown as none */
    }
    return { ...r, chosenHosts: chosen };
  });
}

export async function cloudCounts() {
  const [hosts, aggregates, flavors, images, serverGroups, instances, runs] = await prisma.$transaction([
    prisma.computeHost.count(),
    prisma.aggregate.count(),
    prisma.flavor.count(),
    prisma.image.count(),
    prisma.serverGroup.count(),
    prisma.instance.count(),
    prisma.schedulingRun.count(),
  ]);
  return { hosts, aggregates, flavors, images, serverGroups, instances, runs };
}

// ---------------------------------------------------------------------------
// Hosts

export const HOST_SORTS = {
  position: { label: "scenario order", sql: `h."position"` },
  name: { label: "name", sql: `h."name"` },
  cell: { label: "cell", sql: `c."name"` },
  vcpus: { label: "vCPUs", sql: `h."vcpus"` },
  vcpu_usage: { label: "vCPU usage", sql: `CAST(h."vcpusUsed" AS REAL) / NULLIF(h."vcpus" * h."cpuAllocationRatio", 0)` },
  ram: { label: "RAM", sql: `h."memoryMb"` },
  ram_usage: { label: "RAM usage", sql: `CAST(h."memoryMbUsed" AS REAL) / NULLIF(h."memoryMb" * h."ramAllocationRatio", 0)` },
  disk: { label: "disk", sql: `h."localGb"` },
  disk_usage: { label: "disk usage", sql: `CAST(h."localGbUsed" AS REAL) / NULLIF(h."localGb" * h."diskAllocationRatio", 0)` },
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

export interface HostListParams {
  q?: string;
  sort?: HostSort;
  dir?: "asc" | "desc";
  page?: number;
  size?: number;
  state?: HostStateFilter;
  cell?: string;
}

export interface HostListRow {
  id: number;
  name: string;
  cell: string;
  zones: string;
  vcpus: number;
  vcpusUsed: number;
  vcpuCapacity: number;
  memoryMb: number;
  memoryMbUsed: number;
  ramCapacity: number;
  localGb: number;
  localGbUsed: number;
  diskCapacity: number;
  numInstances: number;
  state: string;
  disabledReason: string | null;
}

export interface HostListPage {
  rows: HostListRow[];
  total: number;
  page: number;
  pages: number;
  size: number;
  ms: number;
}

/** One page of hosts: filtered, sorted and paged in SQL (two queries + one for the page's zones). */
export async function listHostsPage(params: HostListParams): Promise<HostListPage> {
  const t0 = performance.now();
  const size = HOST_PAGE_SIZES.includes(params.size as 50) ? params.size! : 50;
  const where: string[] = [];
  const args: unknown[] = [];
  const q = params.q?.trim();
  if (q) {
    where.push(`(h."name" LIKE ? ESCAPE '\\' OR h."hypervisorHostname" LIKE ? ESCAPE '\\' OR h."hostIp" LIKE ? ESCAPE '\\')`);
    const p = likeContains(q);
    args.push(p, p, p);
  }
  if (params.state && HOST_STATES[params.state]) where.push(HOST_STATES[params.state]);
  if (params.cell) {
    where.push(`c."name" = ?`);
    args.push(params.cell);
  }
  const whereSql = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const sort = HOST_SORTS[params.sort ?? "position"] ?? HOST_SORTS.position;
  const dir = params.dir === "desc" ? "DESC" : "ASC";
  const from = `FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId" ${whereSql}`;

  const countRows = await prisma.$queryRawUnsafe<{ n: unknown }[]>(`SELECT COUNT(*) AS "n" ${from}`, ...args);
  const total = num(countRows[0]?.n);
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(Math.max(1, Math.floor(params.page ?? 1)), pages);
  const rows = await prisma.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT h."id", h."name", c."name" AS "cell", h."vcpus", h."vcpusUsed", h."cpuAllocationRatio", h."memoryMb", h."memoryMbUsed",
            h."ramAllocationRatio", h."localGb", h."localGbUsed", h."diskAllocationRatio", h."numInstances",
            h."serviceDisabled", h."serviceUp", h."forcedDown", h."disabledReason"
       ${from}
      ORDER BY ${sort.sql} ${dir}, h."position" ${dir}, h."id" ${dir}
      LIMIT ? OFFSET ?`,
    ...args,
    size,
    (page - 1) * size,
  );
  const ids = rows.map((r) => num(r.id));
  const zones = new Map<number, string>();
  if (ids.length) {
    const z = await prisma.$queryRawUnsafe<{ hostId: unknown; az: string }[]>(
      `SELECT ah."hostId" AS "hostId", group_concat(DISTINCT a."availabilityZone") AS "az"
         FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId"
        WHERE a."availabilityZone" IS NOT NULL AND ah."hostId" IN (${ids.map(() => "?").join(",")})
        GROUP BY ah."hostId"`,
      ...ids,
    );
    for (const r of z) zones.set(num(r.hostId), r.az);
  }
  const defaultAz = zones.size < ids.length ? await defaultAvailabilityZone() : "nova";
  return {
    total,
    page,
    pages,
    size,
    ms: performance.now() - t0,
    rows: rows.map((r) => {
      const flags = { serviceDisabled: Boolean(r.serviceDisabled), serviceUp: Boolean(r.serviceUp), forcedDown: Boolean(r.forcedDown) };
      return {
        id: num(r.id),
        name: String(r.name),
        cell: String(r.cell),
        zones: zones.get(num(r.id)) ?? defaultAz,
        vcpus: num(r.vcpus),
        vcpusUsed: num(r.vcpusUsed),
        vcpuCapacity: num(r.vcpus) * num(r.cpuAllocationRatio),
        memoryMb: num(r.memoryMb),
        memoryMbUsed: num(r.memoryMbUsed),
        ramCapacity: num(r.memoryMb) * num(r.ramAllocationRatio),
        localGb: num(r.localGb),
        localGbUsed: num(r.localGbUsed),
        diskCapacity: num(r.localGb) * num(r.diskAllocationRatio),
        numInstances: num(r.numInstances),
        state: hostState(flags),
        disabledReason: (r.disabledReason as string | null) ?? null,
      };
    }),
  };
}

export async function listCellNames(): Promise<string[]> {
  const cells = await prisma.cell.findMany({ orderBy: { name: "asc" }, select: { name: true } });
  return cells.map((c) => c.name);
}

/** Everything the host page shows. */
export async function getHostDetail(name: string) {
  const host = await prisma.computeHost.findUnique({
    where: { name },
    include: {
      cell: { select: { name: true } },
      metrics: { orderBy: { id: "asc" } },
      traits: { orderBy: { name: "asc" } },
      aggregates: {
        orderBy: { id: "asc" },
        include: { aggregate: { include: { metadata: { orderBy: { key: "asc" } } } } },
      },
      instances: {
        orderBy: { id: "asc" },
        take: 500,
        include: {
          flavor: { select: { name: true } },
          image: { select: { name: true, uuid: true } },
          serverGroup: { select: { name: true, policy: true } },
        },
      },
      _count: { select: { instances: true } },
    },
  });
  if (!host) return null;
  const defaultAz = await defaultAvailabilityZone();
  const zones = [...new Set(host.aggregates.map((a) => a.aggregate.availabilityZone).filter((z): z is string => !!z))];
  return { ...host, state: hostState(host), zones: zones.length ? zones : [defaultAz], zoneIsDefault: zones.length === 0 };
}

export interface HostSearchResult {
  id: number;
  name: string;
  cell: string;
  state: string;
}

/** Host picker search: name contains q, optionally not already in an aggregate. */
export async function searchHosts(opts: { q?: string; notInAggregate?: number; limit?: number }): Promise<{ rows: HostSearchResult[]; total: number }> {
  const limit = Math.min(Math.max(1, opts.limit ?? 20), 100);
  const where: string[] = [];
  const args: unknown[] = [];
  if (opts.q?.trim()) {
    where.push(`h."name" LIKE ? ESCAPE '\\'`);
    args.push(likeContains(opts.q.trim()));
  }
  if (opts.notInAggregate) {
    where.push(`NOT EXISTS (SELECT 1 FROM "AggregateHost" ah WHERE ah."hostId" = h."id" AND ah."aggregateId" = ?)`);
    args.push(opts.notInAggregate);
  }
  const from = `FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId" ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`;
  const [count, rows] = await prisma.$transaction([
    prisma.$queryRawUnsafe<{ n: unknown }[]>(`SELECT COUNT(*) AS "n" ${from}`, ...args),
    prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT h."id", h."name", c."name" AS "cell", h."serviceDisabled", h."serviceUp", h."forcedDown" ${from}
        ORDER BY h."name" LIMIT ?`,
      ...args,
      limit,
    ),
  ]);
  return {
    total: num(count[0]?.n),
    rows: rows.map((r) => ({
      id: num(r.id),
      name: String(r.name),
      cell: String(r.cell),
      state: hostState({ serviceDisabled: Boolean(r.serviceDisabled), serviceUp: Boolean(r.serviceUp), forcedDown: Boolean(r.forcedDown) }),
    })),
  };
}

// ---------------------------------------------------------------------------
// Aggregates

export async function listAggregates() {
  const rows = await prisma.aggregate.findMany({
    orderBy: [{ position: "asc" }, { id: "asc" }],
    include: { metadata: { orderBy: { key: "asc" } }, _count: { select: { hosts: true } } },
  });
  return rows.map((a) => ({
    id: a.id,
    name: a.name,
    uuid: a.uuid,
    availabilityZone: a.availabilityZone,
    hosts: a._count.hosts,
    metadata: a.metadata.map((m) => ({ key: m.key, value: m.value })),
  }));
}

export const MEMBER_PAGE_SIZE = 50;

/** An aggregate with its metadata and one page of its hosts (searchable). */
export async function getAggregateDetail(name: string, opts: { hq?: string; hpage?: number } = {}) {
  const agg = await prisma.aggregate.findUnique({
    where: { name },
    include: { metadata: { orderBy: { id: "asc" } }, _count: { select: { hosts: true } } },
  });
  if (!agg) return null;
  const hostWhere = {
    aggregateId: agg.id,
    ...(opts.hq?.trim() ? { host: { name: { contains: opts.hq.trim() } } } : {}),
  };
  const matching = await prisma.aggregateHost.count({ where: hostWhere });
  const pages = Math.max(1, Math.ceil(matching / MEMBER_PAGE_SIZE));
  const hpage = Math.min(Math.max(1, Math.floor(opts.hpage ?? 1)), pages);
  const members = await prisma.aggregateHost.findMany({
    where: hostWhere,
    orderBy: { id: "asc" },
    skip: (hpage - 1) * MEMBER_PAGE_SIZE,
    take: MEMBER_PAGE_SIZE,
    select: {
      host: {
        select: { id: true, name: true, serviceDisabled: true, serviceUp: true, forcedDown: true, cell: { select: { name: true } } },
      },
    },
  });
  return {
    id: agg.id,
    name: agg.name,
    uuid: agg.uuid,
    availabilityZone: agg.availabilityZone,
    metadata: agg.metadata.map((m) => ({ key: m.key, value: m.value })),
    hostCount: agg._count.hosts,
    members: {
      matching,
      page: hpage,
      pages,
      rows: members.map((m) => ({ id: m.host.id, name: m.host.name, cell: m.host.cell.name, state: hostState(m.host) })),
    },
  };
}

// ---------------------------------------------------------------------------
// Flavors

export async function listFlavors() {
  const rows = await prisma.flavor.findMany({
    orderBy: [{ name: "asc" }],
    include: { extraSpecs: { orderBy: { key: "asc" } }, _count: { select: { instances: true } } },
  });
  return rows.map((f) => ({
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
    extraSpecs: f.extraSpecs.map((s) => ({ key: s.key, value: s.value })),
    instances: f._count.instances,
  }));
}

export async function getFlavorDetail(name: string) {
  const f = await prisma.flavor.findUnique({
    where: { name },
    include: { extraSpecs: { orderBy: { id: "asc" } }, _count: { select: { instances: true } } },
  });
  if (!f) return null;
  return { ...f, extraSpecs: f.extraSpecs.map((s) => ({ key: s.key, value: s.value })), instances: f._count.instances };
}

// ---------------------------------------------------------------------------
// Images, server groups, instances

export async function listImages() {
  const rows = await prisma.image.findMany({
    orderBy: [{ name: "asc" }, { id: "asc" }],
    include: { properties: { orderBy: { id: "asc" } }, _count: { select: { instances: true } } },
  });
  return rows.map((im) => ({
    id: im.id,
    uuid: im.uuid,
    name: im.name,
    instances: im._count.instances,
    properties: im.properties.map((p) => ({ key: p.key, value: p.value, json: p.json })),
  }));
}

export async function listServerGroups() {
  const rows = await prisma.serverGroup.findMany({
    orderBy: [{ position: "asc" }, { id: "asc" }],
    include: {
      members: { orderBy: { id: "asc" }, take: 200, select: { uuid: true, name: true, host: { select: { name: true } } } },
      _count: { select: { members: true } },
    },
  });
  return rows.map((g) => {
    let maxServerPerHost: number | null = null;
    try {
      const rules = JSON.parse(g.rules) as Record<string, unknown>;
      if (rules.max_server_per_host !== undefined) maxServerPerHost = Number(rules.max_server_per_host);
    } catch {
      /* no rules */
    }
    return {
      id: g.id,
      uuid: g.uuid,
      name: g.name,
      policy: g.policy,
      projectId: g.projectId,
      maxServerPerHost,
      memberCount: g._count.members,
      members: g.members.map((m) => ({ uuid: m.uuid, name: m.name, host: m.host?.name ?? null })),
    };
  });
}

export const INSTANCE_PAGE_SIZE = 50;

export async function listInstancesPage(opts: { q?: string; host?: string; page?: number }) {
  const and: object[] = [];
  const q = opts.q?.trim();
  if (q) and.push({ OR: [{ uuid: { contains: q } }, { name: { contains: q } }, { projectId: { contains: q } }] });
  if (opts.host?.trim()) and.push({ host: { name: opts.host.trim() } });
  const where = and.length ? { AND: and } : {};
  const total = await prisma.instance.count({ where });
  const pages = Math.max(1, Math.ceil(total / INSTANCE_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(opts.page ?? 1)), pages);
  const rows = await prisma.instance.findMany({
    where,
    orderBy: { id: "asc" },
    skip: (page - 1) * INSTANCE_PAGE_SIZE,
    take: INSTANCE_PAGE_SIZE,
    include: {
      host: { select: { name: true } },
      flavor: { select: { name: true } },
      image: { select: { name: true, uuid: true } },
      serverGroup: { select: { name: true, uuid: true } },
    },
  });
  return { total, page, pages, rows };
}

export async function getInstance(uuid: string) {
  return prisma.instance.findUnique({
    where: { uuid },
    include: {
      host: { select: { name: true } },
      flavor: { select: { name: true } },
      image: { select: { uuid: true, name: true } },
      serverGroup: { select: { uuid: true, name: true } },
    },
  });
}

/** Names for the instance form's selects (few rows each). */
export async function instanceFormChoices() {
  const [flavors, images, groups] = await prisma.$transaction([
    prisma.flavor.findMany({ orderBy: { name: "asc" }, select: { name: true } }),
    prisma.image.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: { uuid: true, name: true } }),
    prisma.serverGroup.findMany({ orderBy: [{ position: "asc" }, { id: "asc" }], select: { uuid: true, name: true, policy: true } }),
  ]);
  return { flavors: flavors.map((f) => f.name), images, groups };
}

// ---------------------------------------------------------------------------
// Scheduler profiles

export async function listProfiles() {
  const rows = await prisma.schedulerProfile.findMany({ orderBy: [{ name: "asc" }] });
  return rows.map((p) => {
    let config: Record<string, unknown> = {};
    let configError: string | null = null;
    try {
      const v = JSON.parse(p.config);
      if (v && typeof v === "object" && !Array.isArray(v)) config = v as Record<string, unknown>;
      else configError = "config is not a JSON object";
    } catch (e) {
      configError = `config is not valid JSON (${(e as Error).message})`;
    }
    return { id: p.id, name: p.name, description: p.description, active: p.active, updatedAt: p.updatedAt, config, configError };
  });
}
