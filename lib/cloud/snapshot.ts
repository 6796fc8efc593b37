/**
 * DB -> engine: the cloud as the scenario object the engine reads
 * (SCENARIO.md minus `request`), loaded in ONE read transaction with four
 * queries (hosts, aggregates, server groups, profile), whatever the size of
 * the cloud: SQLite assembles the JSON, no N+1.
 *
 * Hosts come in their `position` order (ties: id), aggregates and server
 * groups likewise; an aggregate's hosts, a host's metrics/traits/instances
 * and a group's members in insertion (id) order. Absent optional values
 * (free_ram_mb, uuid, host_ip, ...) are left out, so the engine applies the
 * same defaults the Nova reference does.
 */
import type { PrismaClient } from "@/lib/db-client";
import type {
  Scenario,
  ScenarioAggregate,
  ScenarioConfig,
  ScenarioHost,
  ScenarioServerGroup,
} from "@/lib/scheduler/scenario";

export type CloudScenario = Omit<Scenario, "request">;

export interface SnapshotOptions {
  /** Scheduler profile whose config to use; default: the active one (none: no `config`). */
  profileName?: string;
}

export interface LoadedSnapshot {
  scenario: CloudScenario;
  /** The profile whose config is in `scenario.config` (null: none). */
  profileName: string | null;
  /** The cloud's revision (lib/cloud/revision.ts) the snapshot was read at. */
  revision: number;
  loadMs: number;
}

export class ProfileNotFoundError extends Error {
  constructor(readonly profileName: string) {
    super(`scheduler profile "${profileName}" does not exist`);
  }
}

const bool = (col: string) => `json(CASE WHEN ${col} THEN 'true' ELSE 'false' END)`;
/**
 * SQLite's JSON renders REALs with 15 significant digits (0.1+0.2 -> 0.3):
 * print them with 17 (exact for a double) and embed that literal as is.
 */
const real = (col: string) => `json(printf('%!.17g', ${col}))`;

/**
 * Optional host keys and their columns: left out of a host's JSON when null
 * (the engine then applies the reference's defaults). json_remove drops them
 * in SQL; deleting them in JS would turn every host into a slow
 * dictionary-mode object for the engine's property reads.
 */
const HOST_OPTIONAL: ReadonlyArray<[string, string]> = [
  ["uuid", "uuid"],
  ["free_ram_mb", "freeRamMb"],
  ["free_disk_gb", "freeDiskGb"],
  ["disk_available_least", "diskAvailableLeast"],
  ["host_ip", "hostIp"],
  ["numa_topology", "numaTopology"],
  ["pci_device_pools", "pciDevicePools"],
  ["inventories", "inventories"],
];

/**
 * The snapshot's SQL. SQLite builds the scenario's JSON itself (json_object,
 * json_group_array ... ORDER BY, SQLite >= 3.44; better-sqlite3 bundles
 * 3.49): one JSON text per host with its metrics, traits and instances, and
 * one for all aggregates and one for all server groups. A 10,000-host demo
 * cloud is ~200,000 rows (128k instances); materialising them row by row
 * through the Prisma engine costs ~1 us per value (1-2 s), this ~0.3 s.
 * Optional host keys that are null are removed in SQL (json_remove).
 */
export const SNAPSHOT_SQL = {
  hosts: hostsSql(""),
} as const;

/** The hosts query (one JSON object per host, in position order), optionally restricted by a WHERE clause on h. */
export function hostsSql(where: string): string {
  return `SELECT json_remove(json_object(
      'name', h."name", 'node', h."hypervisorHostname", 'cell', c."name",
      'vcpus', h."vcpus", 'vcpus_used', h."vcpusUsed",
      'memory_mb', h."memoryMb", 'memory_mb_used', h."memoryMbUsed",
      'local_gb', h."localGb", 'local_gb_used', h."localGbUsed",
      'hypervisor_type', h."hypervisorType", 'hypervisor_version', h."hypervisorVersion",
      'supported_instances', json(h."supportedInstances"), 'cpu_info', json(h."cpuInfo"),
      'num_instances', h."numInstances", 'num_io_ops', h."numIoOps", 'failed_builds', h."failedBuilds",
      'cpu_allocation_ratio', ${real('h."cpuAllocationRatio"')},
      'ram_allocation_ratio', ${real('h."ramAllocationRatio"')},
      'disk_allocation_ratio', ${real('h."diskAllocationRatio"')},
      'service', json_patch(
        json_object('disabled', ${bool('h."serviceDisabled"')}, 'up', ${bool('h."serviceUp"')},
                    'forced_down', ${bool('h."forcedDown"')}),
        json_object('disabled_reason', h."disabledReason")),
      'metrics', json((SELECT json_group_array(json_object('name', m."name", 'value', ${real('m."value"')}) ORDER BY m."id")
                       FROM "HostMetric" m WHERE m."hostId" = h."id")),
      'instances', json((SELECT json_group_array(i."uuid" ORDER BY i."id") FROM "Instance" i WHERE i."hostId" = h."id")),
      'traits', json((SELECT json_group_array(t."name" ORDER BY t."id") FROM "HostTrait" t WHERE t."hostId" = h."id")),
      'reserved_vcpus', h."reservedVcpus", 'reserved_memory_mb', h."reservedMemoryMb",
      'reserved_disk_gb', h."reservedDiskGb",
      'pcpus', h."pcpus", 'pcpus_used', h."pcpusUsed",
      'uuid', h."uuid", 'free_ram_mb', h."freeRamMb", 'free_disk_gb', h."freeDiskGb",
      'disk_available_least', h."diskAvailableLeast", 'host_ip', h."hostIp",
      'numa_topology', json(h."numaTopology"), 'pci_device_pools', json(h."pciDevicePools"),
      'inventories', json(h."inventories")
    ), ${HOST_OPTIONAL.map(([key, col]) => `CASE WHEN h."${col}" IS NULL THEN '$.${key}' ELSE '$.none' END`).join(", ")}) AS "json"
    FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId" ${where} ORDER BY h."position", h."id"`;
}

const GROUPS_SQL = {
  aggregates: `SELECT json_group_array(json("obj") ORDER BY "position", "id") AS "json" FROM (
    SELECT a."position", a."id", json_object(
      'name', a."name", 'uuid', a."uuid", 'availability_zone', a."availabilityZone",
      'hosts', json((SELECT json_group_array(h."name" ORDER BY ah."id") FROM "AggregateHost" ah
                     JOIN "ComputeHost" h ON h."id" = ah."hostId" WHERE ah."aggregateId" = a."id")),
      'metadata', json((SELECT json_group_object(md."key", md."value" ORDER BY md."id") FROM "AggregateMetadata" md
                        WHERE md."aggregateId" = a."id"))
    ) AS "obj" FROM "Aggregate" a)`,
  serverGroups: `SELECT json_group_array(json("obj") ORDER BY "position", "id") AS "json" FROM (
    SELECT g."position", g."id", json_object(
      'uuid', g."uuid", 'name', g."name", 'policy', g."policy", 'rules', json(g."rules"),
      'members', json((SELECT json_group_array(i."uuid" ORDER BY i."id") FROM "Instance" i WHERE i."serverGroupId" = g."id")),
      'project_id', g."projectId"
    ) AS "obj" FROM "ServerGroup" g)`,
} as const;

function dropNull(obj: Record<string, unknown>, keys: readonly string[]) {
  for (const k of keys) if (obj[k] === null) delete obj[k];
}

/** Rows of hostsSql() -> scenario hosts (the SQL already left out null optional keys). */
export function parseHostRows(rows: { json: string }[]): ScenarioHost[] {
  return JSON.parse(`[${rows.map((r) => r.json).join(",")}]`) as ScenarioHost[];
}

/** One host as the engine sees it (null: no such host). */
export async function loadScenarioHost(prisma: PrismaClient, name: string): Promise<ScenarioHost | null> {
  const rows = await prisma.$queryRawUnsafe<{ json: string }[]>(hostsSql(`WHERE h."name" = ?`), name);
  return rows.length ? parseHostRows(rows)[0] : null;
}

/** Load the cloud (+ profile config) as a scenario without `request`, in one read transaction. */
export async function loadSnapshot(prisma: PrismaClient, opts: SnapshotOptions = {}): Promise<LoadedSnapshot> {
  const t0 = performance.now();
  const q = (sql: string) => prisma.$queryRawUnsafe<{ json: string }[]>(sql);
  const [revision, hostsJson, aggregatesJson, groupsJson, profile] = await prisma.$transaction([
    // first: SQLite's read transaction starts here, so the rows below are this revision's
    prisma.cloudRevision.findUnique({ where: { id: 1 }, select: { revision: true } }),
    q(SNAPSHOT_SQL.hosts),
    q(GROUPS_SQL.aggregates),
    q(GROUPS_SQL.serverGroups),
    opts.profileName !== undefined
      ? prisma.schedulerProfile.findUnique({ where: { name: opts.profileName }, select: { name: true, config: true } })
      : prisma.schedulerProfile.findFirst({ where: { active: true }, select: { name: true, config: true } }),
  ]);
  if (opts.profileName !== undefined && !profile) throw new ProfileNotFoundError(opts.profileName);

  const hosts = parseHostRows(hostsJson);
  const aggregates = JSON.parse(aggregatesJson[0].json) as ScenarioAggregate[];
  for (const a of aggregates) dropNull(a as unknown as Record<string, unknown>, ["uuid", "availability_zone"]);
  const serverGroups = JSON.parse(groupsJson[0].json) as ScenarioServerGroup[];
  for (const g of serverGroups) dropNull(g as unknown as Record<string, unknown>, ["project_id"]);

  const scenario: CloudScenario = { hosts, aggregates, server_groups: serverGroups };
  if (profile) scenario.config = JSON.parse(profile.config) as ScenarioConfig;
  return {
    scenario,
    profileName: profile?.name ?? null,
    revision: revision?.revision ?? 0,
    loadMs: performance.now() - t0,
  };
}

/** `loadSnapshot(...).scenario`: the engine's input minus `request`. */
export async function loadCloudSnapshot(prisma: PrismaClient, opts: SnapshotOptions = {}): Promise<CloudScenario> {
  return (await loadSnapshot(prisma, opts)).scenario;
}
