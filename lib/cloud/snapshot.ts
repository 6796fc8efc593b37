/**
 * DB -> engine: the cloud as the scenario object the engine reads
 * (SCENARIO.md minus `request`), loaded in ONE read transaction with four
 * queries (hosts, aggregates, server groups, profile), whatever the size of
 * the cloud: the database (SQLite or PostgreSQL) assembles the JSON, no N+1.
 *
 * Hosts come in their `position` order (ties: id), aggregates and server
 * groups likewise; an aggregate's hosts, a host's metrics/traits/instances
 * and a group's members in insertion (id) order. Absent optional values
 * (free_ram_mb, uuid, host_ip, ...) are left out, so the engine applies the
 * same defaults the Nova reference does.
 */
import { SERVICE_IS_UP_SQL } from "@/lib/cloud/service";
import type { PrismaClient, Tx } from "@/lib/db/client";
import { type Dialect, DIALECTS, dialectOf, type SqlDialect, sqlFor } from "@/lib/db/dialect";
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

/**
 * Optional host keys and their columns: left out of a host's JSON when null
 * (the engine then applies the reference's defaults). They are removed in
 * SQL; deleting them in JS would turn every host into a slow dictionary-mode
 * object for the engine's property reads. [key, column, holds JSON text]
 */
const HOST_OPTIONAL: ReadonlyArray<[string, string, boolean]> = [
  ["uuid", "uuid", false],
  ["free_ram_mb", "freeRamMb", false],
  ["free_disk_gb", "freeDiskGb", false],
  ["disk_available_least", "diskAvailableLeast", false],
  ["host_ip", "hostIp", false],
  ["numa_topology", "numaTopology", true],
  ["pci_device_pools", "pciDevicePools", true],
  ["inventories", "inventories", true],
  ["child_providers", "childProviders", true],
];

/**
 * The hosts query: the database builds the scenario's JSON itself, one JSON
 * text per host with its metrics, traits and instances, in position order,
 * optionally restricted by a WHERE clause on h (SQLite >= 3.44 for ORDER BY
 * in json_group_array; better-sqlite3 bundles 3.49). A 10,000-host demo
 * cloud is ~200,000 rows (128k instances); materialising them row by row
 * through the Prisma engine costs ~1 us per value (1-2 s), this ~0.3 s.
 */
export function hostsSql(d: SqlDialect, where: string): string {
  const h = (col: string) => `h."${col}"`;
  const service = (withReason: boolean) =>
    d.object([
      ["disabled", d.bool(h("serviceDisabled"))],
      // a forced-down service is down (serviceIsUp), as Nova's servicegroup API says to ComputeFilter
      ["up", d.bool(SERVICE_IS_UP_SQL)],
      ["forced_down", d.bool(h("forcedDown"))],
      ...(withReason ? [["disabled_reason", h("disabledReason")] as const] : []),
    ]);
  const host = d.objectOmittingNulls(
    [
      // a second node of a service host is stored under its node's name
      ["name", `COALESCE(${h("serviceHost")}, ${h("name")})`],
      ["node", h("hypervisorHostname")],
      ["cell", `c."name"`],
      ["vcpus", h("vcpus")],
      ["vcpus_used", h("vcpusUsed")],
      ["memory_mb", h("memoryMb")],
      ["memory_mb_used", h("memoryMbUsed")],
      ["local_gb", h("localGb")],
      ["local_gb_used", h("localGbUsed")],
      ["hypervisor_type", h("hypervisorType")],
      ["hypervisor_version", h("hypervisorVersion")],
      ["supported_instances", d.json(h("supportedInstances"))],
      ["cpu_info", d.json(h("cpuInfo"))],
      ["num_instances", h("numInstances")],
      ["num_io_ops", h("numIoOps")],
      ["failed_builds", h("failedBuilds")],
      ["cpu_allocation_ratio", d.real(h("cpuAllocationRatio"))],
      ["ram_allocation_ratio", d.real(h("ramAllocationRatio"))],
      ["disk_allocation_ratio", d.real(h("diskAllocationRatio"))],
      // disabled_reason only when there is one
      ["service", `CASE WHEN ${h("disabledReason")} IS NULL THEN ${service(false)} ELSE ${service(true)} END`],
      [
        "metrics",
        d.sub(
          `SELECT ${d.arrayAgg(
            d.object([
              ["name", `m."name"`],
              ["value", d.real(`m."value"`)],
            ]),
            `m."id"`,
          )}
             FROM "HostMetric" m WHERE m."hostId" = h."id"`,
        ),
      ],
      ["instances", d.sub(`SELECT ${d.arrayAgg(`i."uuid"`, `i."id"`)} FROM "Instance" i WHERE i."hostId" = h."id"`)],
      ["traits", d.sub(`SELECT ${d.arrayAgg(`t."name"`, `t."id"`)} FROM "HostTrait" t WHERE t."hostId" = h."id"`)],
      ["reserved_vcpus", h("reservedVcpus")],
      ["reserved_memory_mb", h("reservedMemoryMb")],
      ["reserved_disk_gb", h("reservedDiskGb")],
      ["pcpus", h("pcpus")],
      ["pcpus_used", h("pcpusUsed")],
    ],
    HOST_OPTIONAL.map(([key, col, json]) => [key, json ? d.json(h(col)) : toJson(d, h(col)), h(col)]),
  );
  return `SELECT ${d.text(host)} AS "json"
    FROM "ComputeHost" h JOIN "Cell" c ON c."id" = h."cellId" ${where} ORDER BY h."position", h."id"`;
}

/** A plain column as a JSON value (SQLite's json_object takes columns as they are). */
const toJson = (d: SqlDialect, col: string) => (d.name === "postgresql" ? `to_json(${col})` : col);

function groupsSql(d: SqlDialect) {
  const list = (obj: string, from: string) =>
    `SELECT ${d.text(d.arrayAgg(d.json(`"obj"`), `"position", "id"`))} AS "json" FROM (${obj} AS "obj" ${from}) x`;
  return {
    aggregates: list(
      `SELECT a."position", a."id", ${d.object([
        ["name", `a."name"`],
        ["uuid", `a."uuid"`],
        ["availability_zone", `a."availabilityZone"`],
        [
          "hosts",
          d.sub(`SELECT ${d.arrayAgg(`h."name"`, `ah."id"`)} FROM "AggregateHost" ah
                   JOIN "ComputeHost" h ON h."id" = ah."hostId"
                   WHERE ah."aggregateId" = a."id" AND h."serviceHost" IS NULL`),
        ],
        [
          "metadata",
          d.sub(`SELECT ${d.objectAgg(`md."key"`, `md."value"`, `md."id"`)} FROM "AggregateMetadata" md
                   WHERE md."aggregateId" = a."id"`),
        ],
      ])}`,
      `FROM "Aggregate" a`,
    ),
    serverGroups: list(
      `SELECT g."position", g."id", ${d.object([
        ["uuid", `g."uuid"`],
        ["name", `g."name"`],
        ["policy", `g."policy"`],
        ["rules", d.json(`g."rules"`)],
        [
          "members",
          d.sub(`SELECT ${d.arrayAgg(`i."uuid"`, `i."id"`)} FROM "Instance" i WHERE i."serverGroupId" = g."id"`),
        ],
        ["project_id", `g."projectId"`],
      ])}`,
      `FROM "ServerGroup" g`,
    ),
  };
}

/** The snapshot's SQL for each database, built once. */
const SNAPSHOT_SQL = Object.fromEntries(
  Object.values(DIALECTS).map((d) => [d.name, { hosts: hostsSql(d, ""), ...groupsSql(d) }]),
) as Record<Dialect, { hosts: string; aggregates: string; serverGroups: string }>;

function dropNull(obj: Record<string, unknown>, keys: readonly string[]) {
  for (const k of keys) if (obj[k] === null) delete obj[k];
}

/** Rows of hostsSql() -> scenario hosts (the SQL already left out null optional keys). */
export function parseHostRows(rows: { json: string }[]): ScenarioHost[] {
  return JSON.parse(`[${rows.map((r) => r.json).join(",")}]`) as ScenarioHost[];
}

/** One host as the engine sees it (null: no such host). */
export async function loadScenarioHost(prisma: PrismaClient, name: string): Promise<ScenarioHost | null> {
  const d = sqlFor(prisma);
  const rows = await prisma.$queryRawUnsafe<{ json: string }[]>(
    hostsSql(d, `WHERE h."name" = ${d.name === "postgresql" ? "$1" : "?"}`),
    name,
  );
  return rows.length ? parseHostRows(rows)[0] : null;
}

/** Load the cloud (+ profile config) as a scenario without `request`, in one read transaction. */
export async function loadSnapshot(prisma: PrismaClient | Tx, opts: SnapshotOptions = {}): Promise<LoadedSnapshot> {
  const t0 = performance.now();
  const d = dialectOf(prisma);
  const sql = SNAPSHOT_SQL[d];
  const q = (text: string) => prisma.$queryRawUnsafe<{ json: string }[]>(text);
  const reads = [
    // first: the read transaction starts here, so the rows below are this revision's
    prisma.cloudRevision.findUnique({ where: { id: 1 }, select: { revision: true } }),
    q(sql.hosts),
    q(sql.aggregates),
    q(sql.serverGroups),
    opts.profileName !== undefined
      ? prisma.schedulerProfile.findUnique({
          where: { name: opts.profileName },
          select: { name: true, config: true },
        })
      : prisma.schedulerProfile.findFirst({ where: { active: true }, select: { name: true, config: true } }),
  ] as const;
  // Inside the caller's transaction (an import recording its history), the reads go in it, in turn.
  const together: ReturnType<typeof Promise.all<typeof reads>> = !("$transaction" in prisma)
    ? Promise.all(reads)
    : (prisma.$transaction(
        reads as never,
        // PostgreSQL's default (read committed) gives each statement its own
        // snapshot; one snapshot for all five needs repeatable read. SQLite's
        // transactions always see one state.
        // (the SQLite client's types know only Serializable; the PostgreSQL client gets this)
        d === "postgresql"
          ? ({ isolationLevel: "RepeatableRead" } as unknown as { isolationLevel: "Serializable" })
          : undefined,
      ) as unknown as ReturnType<typeof Promise.all<typeof reads>>);
  const [revision, hostsJson, aggregatesJson, groupsJson, profile] = await together;
  if (opts.profileName !== undefined && !profile) throw new ProfileNotFoundError(opts.profileName);

  const hosts = parseHostRows(hostsJson);
  const aggregates = JSON.parse(aggregatesJson[0].json) as ScenarioAggregate[];
  for (const a of aggregates) dropNull(a as unknown as Record<string, unknown>, ["uuid", "availability_zone"]);
  const serverGroups = JSON.parse(groupsJson[0].json) as ScenarioServerGroup[];
  for (const g of serverGroups) dropNull(g as unknown as Record<string, unknown>, ["project_id"]);

  const scenario: CloudScenario = { hosts, aggregates, server_groups: serverGroups };
  // A stored profile may keep filters and weighers Schedscope does not simulate (out-of-tree ones from a
  // real nova.conf): the engine lets them pass every host / weigh 0 and names them on every result.
  if (profile)
    scenario.config = { ...(JSON.parse(profile.config) as ScenarioConfig), not_simulated: "pass" } as ScenarioConfig;
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
