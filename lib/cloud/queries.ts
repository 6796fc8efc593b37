/**
 * Read functions for the UI's server components. Each takes the Prisma
 * client last (default: the app's `prisma`) so tests can pass their own.
 * Lists are small typed rows; big JSON (scenario snapshots, run results) is
 * only parsed by the get* functions that need it.
 */
import { prisma, type PrismaClient } from "@/lib/db";
import type { ScenarioConfig, ScenarioHost } from "@/lib/scheduler/scenario";
import { loadScenarioHost } from "./snapshot";

type Db = PrismaClient;

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

/** One row of the Hosts page. */
export type HostRow = {
  id: number;
  position: number;
  name: string;
  node: string;
  cell: string;
  /** AZ of the host's first aggregate that has one; null = the default AZ */
  availabilityZone: string | null;
  aggregates: string[];
  vcpus: number;
  vcpusUsed: number;
  memoryMb: number;
  memoryMbUsed: number;
  /** free_ram_mb as Nova computes it (the override when set, else total - used) */
  freeRamMb: number;
  localGb: number;
  localGbUsed: number;
  freeDiskGb: number;
  cpuAllocationRatio: number;
  ramAllocationRatio: number;
  diskAllocationRatio: number;
  numInstances: number;
  numIoOps: number;
  failedBuilds: number;
  hypervisorType: string;
  hypervisorVersion: number;
  hostIp: string | null;
  /** "up", "down", "disabled" or "forced down" (nova-compute service state) */
  state: HostState;
  disabledReason: string | null;
};

export const HOST_SORT_KEYS = [
  "position",
  "name",
  "cell",
  "vcpus",
  "vcpusUsed",
  "memoryMb",
  "freeRamMb",
  "localGb",
  "freeDiskGb",
  "numInstances",
  "numIoOps",
  "state",
] as const;
export type HostSortKey = (typeof HOST_SORT_KEYS)[number];

const HOST_SORT_SQL: Record<HostSortKey, string> = {
  position: `h."position"`,
  name: `h."name"`,
  cell: `c."name"`,
  vcpus: `h."vcpus"`,
  vcpusUsed: `h."vcpusUsed"`,
  memoryMb: `h."memoryMb"`,
  freeRamMb: `COALESCE(h."freeRamMb", h."memoryMb" - h."memoryMbUsed")`,
  localGb: `h."localGb"`,
  freeDiskGb: `COALESCE(h."freeDiskGb", h."localGb" - h."localGbUsed")`,
  numInstances: `h."numInstances"`,
  numIoOps: `h."numIoOps"`,
  state: `(CASE WHEN h."forcedDown" THEN 3 WHEN NOT h."serviceUp" THEN 2 WHEN h."serviceDisabled" THEN 1 ELSE 0 END)`,
};

export interface HostQuery {
  /** substring of name, node or host IP (case-insensitive) */
  search?: string;
  cell?: string;
  /** hosts in an aggregate with this AZ */
  availabilityZone?: string;
  aggregate?: string;
  state?: HostState;
  sort?: HostSortKey;
  dir?: "asc" | "desc";
  /** 1-based; with pageSize */
  page?: number;
  /** default: all hosts */
  pageSize?: number;
}

export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

function hostWhere(q: HostQuery): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.search && q.search.trim()) {
    const like = `%${q.search.trim().toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    where.push(`(lower(h."name") LIKE ? ESCAPE '\\' OR lower(h."hypervisorHostname") LIKE ? ESCAPE '\\' OR h."hostIp" LIKE ? ESCAPE '\\')`);
    params.push(like, like, like);
  }
  if (q.cell) {
    where.push(`c."name" = ?`);
    params.push(q.cell);
  }
  if (q.aggregate) {
    where.push(`h."id" IN (SELECT ah."hostId" FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId" WHERE a."name" = ?)`);
    params.push(q.aggregate);
  }
  if (q.availabilityZone) {
    where.push(
      `h."id" IN (SELECT ah."hostId" FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId" WHERE a."availabilityZone" = ?)`,
    );
    params.push(q.availabilityZone);
  }
  if (q.state) {
    where.push(`${HOST_SORT_SQL.state} = ?`);
    params.push({ up: 0, disabled: 1, down: 2, "forced down": 3 }[q.state]);
  }
  return { sql: where.length ? `WHERE ${where.join(" AND ")}` : "", params };
}

/** Hosts matching `q`, sorted and paged in SQL (stable: ties by position, id). */
export async function listHostsPage(q: HostQuery = {}, db: Db = prisma): Promise<Page<HostRow>> {
  const { sql: where, params } = hostWhere(q);
  const sortKey: HostSortKey = q.sort && HOST_SORT_KEYS.includes(q.sort) ? q.sort : "position";
  const dir = q.dir === "desc" ? "DESC" : "ASC";
  const pageSize = q.pageSize && q.pageSize > 0 ? Math.floor(q.pageSize) : undefined;
  const page = Math.max(1, Math.floor(q.page ?? 1));
  const from = `FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId" ${where}`;
  const limit = pageSize ? `LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}` : "";
  const [countRows, idRows] = await db.$transaction([
    db.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT count(*) AS "n" ${from}`, ...params),
    db.$queryRawUnsafe<{ id: number | bigint }[]>(
      `SELECT h."id" AS "id" ${from} ORDER BY ${HOST_SORT_SQL[sortKey]} ${dir}, h."position", h."id" ${limit}`,
      ...params,
    ),
  ]);
  const total = Number(countRows[0]?.n ?? 0);
  const ids = idRows.map((r) => Number(r.id));
  const hosts = await db.computeHost.findMany({
    where: { id: { in: ids } },
    include: {
      cell: { select: { name: true } },
      aggregates: {
        orderBy: { aggregate: { position: "asc" } },
        select: { aggregate: { select: { name: true, availabilityZone: true } } },
      },
    },
  });
  const byId = new Map(hosts.map((h) => [h.id, h]));
  const rows = ids.map((id) => {
    const h = byId.get(id)!;
    return {
      id: h.id,
      position: h.position,
      name: h.name,
      node: h.hypervisorHostname,
      cell: h.cell.name,
      availabilityZone: h.aggregates.find((a) => a.aggregate.availabilityZone !== null)?.aggregate.availabilityZone ?? null,
      aggregates: h.aggregates.map((a) => a.aggregate.name),
      vcpus: h.vcpus,
      vcpusUsed: h.vcpusUsed,
      memoryMb: h.memoryMb,
      memoryMbUsed: h.memoryMbUsed,
      freeRamMb: h.freeRamMb ?? h.memoryMb - h.memoryMbUsed,
      localGb: h.localGb,
      localGbUsed: h.localGbUsed,
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
    } satisfies HostRow;
  });
  const size = pageSize ?? Math.max(total, 1);
  return { rows, total, page: pageSize ? page : 1, pageSize: size, pages: Math.max(1, Math.ceil(total / size)) };
}

/** The rows of listHostsPage (every host in scenario order when called without arguments). */
export async function listHosts(q: HostQuery = {}, db: Db = prisma): Promise<HostRow[]> {
  return (await listHostsPage(q, db)).rows;
}

export type HostDetail = HostRow & {
  uuid: string | null;
  reservedVcpus: number;
  reservedMemoryMb: number;
  reservedDiskGb: number;
  diskAvailableLeast: number | null;
  /** the stored overrides (null = derived) */
  freeRamMbOverride: number | null;
  freeDiskGbOverride: number | null;
  forcedDown: boolean;
  supportedInstances: [string, string, string][];
  cpuInfo: Record<string, unknown>;
  metrics: { name: string; value: number }[];
  traits: string[];
  aggregateDetails: { name: string; availabilityZone: string | null; metadata: Record<string, string> }[];
  instances: { uuid: string; name: string | null; flavor: string | null; projectId: string | null; serverGroup: string | null }[];
  /** the host exactly as the engine sees it */
  scenario: ScenarioHost;
};

export async function getHost(name: string, db: Db = prisma): Promise<HostDetail | null> {
  const h = await db.computeHost.findUnique({
    where: { name },
    include: {
      cell: { select: { name: true } },
      metrics: { orderBy: { id: "asc" } },
      traits: { orderBy: { id: "asc" } },
      aggregates: {
        orderBy: { aggregate: { position: "asc" } },
        include: { aggregate: { include: { metadata: { orderBy: { id: "asc" } } } } },
      },
      instances: {
        orderBy: { id: "asc" },
        include: { flavor: { select: { name: true } }, serverGroup: { select: { name: true } } },
      },
    },
  });
  if (!h) return null;
  const scenario = (await loadScenarioHost(db, name))!;
  const aggregateDetails = h.aggregates.map((ah) => ({
    name: ah.aggregate.name,
    availabilityZone: ah.aggregate.availabilityZone,
    metadata: Object.fromEntries(ah.aggregate.metadata.map((m) => [m.key, m.value])),
  }));
  return {
    id: h.id,
    position: h.position,
    name: h.name,
    node: h.hypervisorHostname,
    uuid: h.uuid,
    cell: h.cell.name,
    availabilityZone: aggregateDetails.find((a) => a.availabilityZone !== null)?.availabilityZone ?? null,
    aggregates: aggregateDetails.map((a) => a.name),
    vcpus: h.vcpus,
    vcpusUsed: h.vcpusUsed,
    memoryMb: h.memoryMb,
    memoryMbUsed: h.memoryMbUsed,
    freeRamMb: h.freeRamMb ?? h.memoryMb - h.memoryMbUsed,
    freeRamMbOverride: h.freeRamMb,
    localGb: h.localGb,
    localGbUsed: h.localGbUsed,
    freeDiskGb: h.freeDiskGb ?? h.localGb - h.localGbUsed,
    freeDiskGbOverride: h.freeDiskGb,
    diskAvailableLeast: h.diskAvailableLeast,
    reservedVcpus: h.reservedVcpus,
    reservedMemoryMb: h.reservedMemoryMb,
    reservedDiskGb: h.reservedDiskGb,
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
    forcedDown: h.forcedDown,
    supportedInstances: JSON.parse(h.supportedInstances),
    cpuInfo: JSON.parse(h.cpuInfo),
    metrics: h.metrics.map((m) => ({ name: m.name, value: m.value })),
    traits: h.traits.map((t) => t.name),
    aggregateDetails,
    instances: h.instances.map((i) => ({
      uuid: i.uuid,
      name: i.name,
      flavor: i.flavor?.name ?? null,
      projectId: i.projectId,
      serverGroup: i.serverGroup?.name ?? null,
    })),
    scenario,
  };
}

// ---------------------------------------------------------------------------
// Aggregates

export type AggregateRow = {
  id: number;
  position: number;
  name: string;
  uuid: string | null;
  availabilityZone: string | null;
  hostCount: number;
  metadata: Record<string, string>;
};

export async function listAggregates(db: Db = prisma): Promise<AggregateRow[]> {
  const aggs = await db.aggregate.findMany({
    orderBy: [{ position: "asc" }, { id: "asc" }],
    include: { metadata: { orderBy: { id: "asc" } }, _count: { select: { hosts: true } } },
  });
  return aggs.map((a) => ({
    id: a.id,
    position: a.position,
    name: a.name,
    uuid: a.uuid,
    availabilityZone: a.availabilityZone,
    hostCount: a._count.hosts,
    metadata: Object.fromEntries(a.metadata.map((m) => [m.key, m.value])),
  }));
}

export type AggregateDetail = AggregateRow & { hosts: { name: string; cell: string; state: HostState }[] };

export async function getAggregate(name: string, db: Db = prisma): Promise<AggregateDetail | null> {
  const a = await db.aggregate.findUnique({
    where: { name },
    include: {
      metadata: { orderBy: { id: "asc" } },
      hosts: {
        orderBy: { id: "asc" },
        include: {
          host: {
            select: { name: true, serviceDisabled: true, serviceUp: true, forcedDown: true, cell: { select: { name: true } } },
          },
        },
      },
    },
  });
  if (!a) return null;
  return {
    id: a.id,
    position: a.position,
    name: a.name,
    uuid: a.uuid,
    availabilityZone: a.availabilityZone,
    hostCount: a.hosts.length,
    metadata: Object.fromEntries(a.metadata.map((m) => [m.key, m.value])),
    hosts: a.hosts.map((ah) => ({ name: ah.host.name, cell: ah.host.cell.name, state: hostState(ah.host) })),
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

function flavorRow(f: {
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
  extraSpecs: { key: string; value: string }[];
  _count: { instances: number };
}): FlavorRow {
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

const FLAVOR_INCLUDE = {
  extraSpecs: { orderBy: { key: "asc" as const } },
  _count: { select: { instances: true } },
};

/** Flavors by vCPUs, RAM, then name (the order Horizon lists them). */
export async function listFlavors(db: Db = prisma): Promise<FlavorRow[]> {
  const flavors = await db.flavor.findMany({
    orderBy: [{ vcpus: "asc" }, { memoryMb: "asc" }, { name: "asc" }],
    include: FLAVOR_INCLUDE,
  });
  return flavors.map(flavorRow);
}

export async function getFlavor(name: string, db: Db = prisma): Promise<FlavorRow | null> {
  const f = await db.flavor.findUnique({ where: { name }, include: FLAVOR_INCLUDE });
  return f ? flavorRow(f) : null;
}

export type ImageRow = {
  id: number;
  uuid: string;
  name: string | null;
  /** values as in the scenario (non-string values parsed back) */
  properties: Record<string, string | number | boolean>;
  instanceCount: number;
};

export async function listImages(db: Db = prisma): Promise<ImageRow[]> {
  const images = await db.image.findMany({
    orderBy: [{ name: "asc" }, { uuid: "asc" }],
    include: { properties: { orderBy: { key: "asc" } }, _count: { select: { instances: true } } },
  });
  return images.map((im) => ({
    id: im.id,
    uuid: im.uuid,
    name: im.name,
    properties: Object.fromEntries(im.properties.map((p) => [p.key, p.json ? JSON.parse(p.value) : p.value])),
    instanceCount: im._count.instances,
  }));
}

// ---------------------------------------------------------------------------
// Server groups, instances

export type ServerGroupRow = {
  id: number;
  uuid: string;
  name: string;
  policy: string;
  rules: Record<string, string | number>;
  projectId: string | null;
  members: { uuid: string; name: string | null; host: string | null }[];
  /** distinct hosts of the members, in member order */
  hosts: string[];
};

export async function listServerGroups(db: Db = prisma): Promise<ServerGroupRow[]> {
  const groups = await db.serverGroup.findMany({
    orderBy: [{ position: "asc" }, { id: "asc" }],
    include: { members: { orderBy: { id: "asc" }, include: { host: { select: { name: true } } } } },
  });
  return groups.map((g) => {
    const members = g.members.map((m) => ({ uuid: m.uuid, name: m.name, host: m.host?.name ?? null }));
    return {
      id: g.id,
      uuid: g.uuid,
      name: g.name,
      policy: g.policy,
      rules: JSON.parse(g.rules),
      projectId: g.projectId,
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
  image: string | null;
  projectId: string | null;
  serverGroup: string | null;
};

export interface InstanceQuery {
  host?: string;
  serverGroup?: string;
  projectId?: string;
  flavor?: string;
  /** substring of uuid or name */
  search?: string;
  page?: number;
  pageSize?: number;
}

export async function listInstances(q: InstanceQuery = {}, db: Db = prisma): Promise<Page<InstanceRow>> {
  const where = {
    ...(q.host ? { host: { name: q.host } } : {}),
    ...(q.serverGroup ? { serverGroup: { OR: [{ name: q.serverGroup }, { uuid: q.serverGroup }] } } : {}),
    ...(q.projectId ? { projectId: q.projectId } : {}),
    ...(q.flavor ? { flavor: { name: q.flavor } } : {}),
    ...(q.search ? { OR: [{ uuid: { contains: q.search } }, { name: { contains: q.search } }] } : {}),
  };
  const pageSize = Math.min(Math.max(1, Math.floor(q.pageSize ?? 100)), 1000);
  const page = Math.max(1, Math.floor(q.page ?? 1));
  const [total, rows] = await db.$transaction([
    db.instance.count({ where }),
    db.instance.findMany({
      where,
      orderBy: { id: "asc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      include: {
        host: { select: { name: true } },
        flavor: { select: { name: true } },
        image: { select: { name: true, uuid: true } },
        serverGroup: { select: { name: true } },
      },
    }),
  ]);
  return {
    rows: rows.map((i) => ({
      id: i.id,
      uuid: i.uuid,
      name: i.name,
      host: i.host?.name ?? null,
      flavor: i.flavor?.name ?? null,
      image: i.image ? (i.image.name ?? i.image.uuid) : null,
      projectId: i.projectId,
      serverGroup: i.serverGroup?.name ?? null,
    })),
    total,
    page,
    pageSize,
    pages: Math.max(1, Math.ceil(total / pageSize)),
  };
}

// ---------------------------------------------------------------------------
// Scheduler profiles

export type ProfileRow = {
  id: number;
  name: string;
  description: string | null;
  active: boolean;
  config: ScenarioConfig;
  updatedAt: Date;
};

function profileRow(p: { id: number; name: string; description: string | null; active: boolean; config: string; updatedAt: Date }): ProfileRow {
  return { id: p.id, name: p.name, description: p.description, active: p.active, config: JSON.parse(p.config), updatedAt: p.updatedAt };
}

export async function listProfiles(db: Db = prisma): Promise<ProfileRow[]> {
  return (await db.schedulerProfile.findMany({ orderBy: [{ active: "desc" }, { name: "asc" }] })).map(profileRow);
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
  });
}

// ---------------------------------------------------------------------------
// Scheduling runs

export type RunRow = {
  id: number;
  createdAt: Date;
  profileName: string | null;
  flavorName: string;
  numInstances: number;
  error: string | null;
  chosenHosts: string[];
  hostCount: number;
  engineMs: number | null;
};

const RUN_SUMMARY = {
  id: true,
  createdAt: true,
  profileName: true,
  flavorName: true,
  numInstances: true,
  error: true,
  chosenHosts: true,
  hostCount: true,
  engineMs: true,
} as const;

export async function listRuns(q: { page?: number; pageSize?: number } = {}, db: Db = prisma): Promise<Page<RunRow>> {
  const pageSize = Math.min(Math.max(1, Math.floor(q.pageSize ?? 50)), 500);
  const page = Math.max(1, Math.floor(q.page ?? 1));
  const [total, rows] = await db.$transaction([
    db.schedulingRun.count(),
    db.schedulingRun.findMany({
      orderBy: { id: "desc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: RUN_SUMMARY,
    }),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, chosenHosts: JSON.parse(r.chosenHosts) as string[] })),
    total,
    page,
    pageSize,
    pages: Math.max(1, Math.ceil(total / pageSize)),
  };
}

export type RunDetail = RunRow & {
  request: unknown;
  config: ScenarioConfig;
  /** the full scenario the engine saw (cloud + config + request) */
  snapshot: unknown;
  result: unknown;
};

export async function getRun(id: number, db: Db = prisma): Promise<RunDetail | null> {
  const r = await db.schedulingRun.findUnique({ where: { id } });
  if (!r) return null;
  return {
    id: r.id,
    createdAt: r.createdAt,
    profileName: r.profileName,
    flavorName: r.flavorName,
    numInstances: r.numInstances,
    error: r.error,
    chosenHosts: JSON.parse(r.chosenHosts),
    hostCount: r.hostCount,
    engineMs: r.engineMs,
    request: JSON.parse(r.request),
    config: JSON.parse(r.config),
    snapshot: JSON.parse(r.snapshot),
    result: JSON.parse(r.result),
  };
}

// ---------------------------------------------------------------------------
// Capacity

export type CapacityRow = {
  /** AZ, cell or aggregate name */
  name: string;
  hosts: number;
  /** up and not disabled (what ComputeFilter lets through) */
  enabledHosts: number;
  vcpus: number;
  vcpusUsed: number;
  /** sum of vcpus * cpu_allocation_ratio */
  vcpusCapacity: number;
  memoryMb: number;
  memoryMbUsed: number;
  /** sum of memory_mb * ram_allocation_ratio */
  memoryMbCapacity: number;
  localGb: number;
  localGbUsed: number;
  numInstances: number;
};

const CAPACITY_COLUMNS = `count(*) AS "hosts",
  sum(CASE WHEN h."serviceUp" AND NOT h."forcedDown" AND NOT h."serviceDisabled" THEN 1 ELSE 0 END) AS "enabledHosts",
  sum(h."vcpus") AS "vcpus", sum(h."vcpusUsed") AS "vcpusUsed", sum(h."vcpus" * h."cpuAllocationRatio") AS "vcpusCapacity",
  sum(h."memoryMb") AS "memoryMb", sum(h."memoryMbUsed") AS "memoryMbUsed",
  sum(h."memoryMb" * h."ramAllocationRatio") AS "memoryMbCapacity",
  sum(h."localGb") AS "localGb", sum(h."localGbUsed") AS "localGbUsed", sum(h."numInstances") AS "numInstances"`;

function capacityRows(rows: Record<string, unknown>[]): CapacityRow[] {
  return rows.map((r) => ({
    name: String(r.name),
    hosts: Number(r.hosts ?? 0),
    enabledHosts: Number(r.enabledHosts ?? 0),
    vcpus: Number(r.vcpus ?? 0),
    vcpusUsed: Number(r.vcpusUsed ?? 0),
    vcpusCapacity: Number(r.vcpusCapacity ?? 0),
    memoryMb: Number(r.memoryMb ?? 0),
    memoryMbUsed: Number(r.memoryMbUsed ?? 0),
    memoryMbCapacity: Number(r.memoryMbCapacity ?? 0),
    localGb: Number(r.localGb ?? 0),
    localGbUsed: Number(r.localGbUsed ?? 0),
    numInstances: Number(r.numInstances ?? 0),
  }));
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
 * Per availability zone: a host's AZ is that of its first aggregate (by
 * position) that has one, else `defaultAz` (nova.conf default_availability_zone;
 * default: the active profile's, else "nova").
 */
export async function capacityByAvailabilityZone(defaultAz?: string, db: Db = prisma): Promise<CapacityRow[]> {
  const dflt = defaultAz ?? (await getActiveProfile(db))?.config.default_availability_zone ?? "nova";
  return capacityRows(
    await db.$queryRawUnsafe(
      `WITH "hostAz" AS (
         SELECT h."id" AS "hostId", COALESCE((
           SELECT a."availabilityZone" FROM "AggregateHost" ah JOIN "Aggregate" a ON a."id" = ah."aggregateId"
           WHERE ah."hostId" = h."id" AND a."availabilityZone" IS NOT NULL ORDER BY a."position", a."id" LIMIT 1), ?) AS "az"
         FROM "ComputeHost" h)
       SELECT z."az" AS "name", ${CAPACITY_COLUMNS} FROM "ComputeHost" h JOIN "hostAz" z ON z."hostId" = h."id"
       GROUP BY z."az" ORDER BY z."az"`,
      dflt,
    ),
  );
}

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
