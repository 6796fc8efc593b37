/**
 * Scenario JSON <-> database.
 *
 * importCloud: validates the whole document first (zod shape + cross
 * references, lib/scenario/schema.ts), then REPLACES the cloud in ONE
 * transaction: cells, hosts (metrics, traits), aggregates, server groups,
 * instances, flavors and images are deleted and recreated from the document.
 * The document's `config` becomes a scheduler profile ("imported" unless
 * named) that is made the active one; other profiles and the scheduling-run
 * history are kept. A document that fails validation changes nothing.
 *
 * exportCloud: the inverse, plus `request` when given; deterministic
 * (stableStringify sorts keys), so exporting twice gives identical bytes.
 */
import type { Tx } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/client";
import type { Flavor, FlavorExtraSpec } from "@/lib/generated/prisma/client";
import { dialectOf, sqlFor } from "@/lib/db/dialect";
import { flavorSizes } from "@/lib/core/flavor-sizes";
import { stableUuid } from "@/lib/scheduler/nova-uuid";
import type { ScenarioRequest } from "@/lib/scheduler/scenario";
import {
  type CloudDocument,
  formatZodError,
  HOST_DEFAULTS,
  MoveRequestSchema,
  RequestSchema,
  type ScenarioFlavorInput,
  type ScenarioImageInput,
  validateCloud,
} from "@/lib/scenario/schema";
import { migrateProfileConfig } from "@/lib/scenario/profile-config";
import { bumpCloudRevision } from "./revision";
import { loadSnapshot, type CloudScenario } from "./snapshot";

export const DEFAULT_IMPORT_PROFILE = "imported";

export class CloudValidationError extends Error {
  constructor(
    readonly errors: string[],
    readonly warnings: string[] = [],
    /** the Nova releases under which the document would be valid, when choosing one is the way out */
    readonly releaseChoice?: readonly string[],
  ) {
    super(
      `invalid cloud document (${errors.length} error${errors.length === 1 ? "" : "s"}):\n  ${errors.slice(0, 50).join("\n  ")}${errors.length > 50 ? `\n  ... and ${errors.length - 50} more` : ""}`,
    );
    this.name = "CloudValidationError";
  }
}

/** A request naming a flavor or image the cloud does not have: the field and the reason as data, for a form to show on its field. */
export class UnknownInRequestError extends CloudValidationError {
  constructor(
    readonly field: "flavor" | "image",
    readonly reason: string,
  ) {
    super([`request.${field}: ${reason}`]);
  }
}

export interface ImportOptions {
  /** Name of the scheduler profile the document's config becomes (default "imported"). */
  profileName?: string;
  /** Leave the scheduler profiles alone (the document's config is ignored). */
  keepProfiles?: boolean;
  /** Interactive transaction timeout (ms). */
  timeoutMs?: number;
  /** Write in this transaction (e.g. the mutation wrapper's) instead of opening one. */
  tx?: Tx;
  /** Who imports what: recorded in the audit trail in the same transaction as the import. */
  audit?: CloudImportAudit;
}

/** The audit entry of a whole-cloud import: who, which file (name, sha256, bytes). */
export interface CloudImportAudit {
  userId: string | null;
  userName: string;
  role: string;
  action: string;
  source: string;
  sha256: string;
  bytes: number;
}

export interface ImportSummary {
  cells: number;
  hosts: number;
  aggregates: number;
  serverGroups: number;
  instances: number;
  flavors: number;
  images: number;
  profile: string | null;
  warnings: string[];
  validateMs: number;
  writeMs: number;
}

export type { Tx };
type SqlValue = string | number | boolean | null;

/** Rows per INSERT statement (each statement binds one JSON text). */
const ROWS_PER_STATEMENT = 20000;

/**
 * Prisma's DateTime text form in SQLite ("2026-01-01T00:00:00.000+00:00");
 * PostgreSQL reads the same text into its timestamp (UTC, as Prisma keeps it).
 */
function nowText(): string {
  return new Date().toISOString().replace("Z", "+00:00");
}

/**
 * Bulk INSERT through the transaction's own connection: the rows go in as
 * ONE JSON text parameter that the database unpacks, in array order (so ids
 * follow the rows' order): SQLite with json_each, PostgreSQL with
 * json_populate_recordset into the table's own row type (each value is read
 * as its column's type: JSON true into a boolean, the date text into a
 * timestamp). Prisma's createMany costs ~0.2 ms per row in its JS engine
 * (40 s for the 10,000-host demo cloud), binding each value through the
 * driver adapter ~25 us; this is ~1 us. Keys are Prisma field names
 * (= column names); booleans become 0/1 in SQLite (JSON true ->> 1).
 */
export async function bulkInsert(
  tx: Tx | PrismaClient,
  table: string,
  rows: Record<string, SqlValue>[],
): Promise<void> {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]);
  const into = `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(", ")}) `;
  const sql =
    dialectOf(tx) === "postgresql"
      ? `${into}SELECT ${cols.map((c) => `r."${c}"`).join(", ")} ` +
        `FROM json_populate_recordset(NULL::"${table}", $1::json) WITH ORDINALITY AS r ORDER BY r."ordinality"`
      : `${into}SELECT ${cols.map((c) => `value ->> '$.${c}'`).join(", ")} FROM json_each(?) ORDER BY key`;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await tx.$executeRawUnsafe(sql, JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT)));
  }
}

/** The request's flavor/image become rows too (unless the lists already have them). */
function flavorsOf(doc: CloudDocument): ScenarioFlavorInput[] {
  const list = [...(doc.flavors ?? [])];
  const rf = doc.request?.flavor;
  if (rf && !list.some((f) => f.name === rf.name)) {
    const idTaken = rf.id !== undefined && list.some((f) => f.id === rf.id);
    list.push(idTaken ? { ...rf, id: undefined } : rf);
  }
  return list;
}

function imagesOf(doc: CloudDocument): (ScenarioImageInput & { id: string })[] {
  const list = (doc.images ?? []).filter((i): i is ScenarioImageInput & { id: string } => i.id !== undefined);
  const ri = doc.request?.image;
  if (ri) {
    const id = ri.id ?? stableUuid("image"); // what the Nova reference assumes
    if (!list.some((i) => i.id === id)) list.push({ ...ri, id });
  }
  return list;
}

function idMap<K extends string>(rows: ({ id: number } & Record<K, string>)[], key: K): Map<string, number> {
  return new Map(rows.map((r) => [r[key], r.id]));
}

/** A group given without uuid gets the reference's stable uuid; it must not be another group's. */
function inventedUuidClashes(doc: CloudDocument): string[] {
  const groups = doc.server_groups ?? [];
  const taken = new Map(groups.flatMap((g, i) => (g.uuid !== undefined ? [[g.uuid, i] as const] : [])));
  const errors: string[] = [];
  groups.forEach((g, i) => {
    if (g.uuid !== undefined) return;
    const invented = stableUuid(`sg-${g.name}`);
    const other = taken.get(invented);
    if (other !== undefined) {
      errors.push(
        `server_groups[${i}].uuid: is left out, and the uuid the reference invents for it (from its name) is server_groups[${other}]'s`,
      );
    } else taken.set(invented, i);
  });
  return errors;
}

/**
 * The database name of each host entry: its name, or, for a second compute
 * node of the same service host (Ironic), its node. Aggregates name the
 * service host and go to its first node's row.
 */
export function rowNamesOf(hosts: readonly { name: string; node?: string }[]): string[] {
  const seen = new Set<string>();
  return hosts.map((h) => {
    if (!seen.has(h.name)) {
      seen.add(h.name);
      return h.name;
    }
    return h.node ?? h.name;
  });
}

/** Run `write` in `tx` when the caller has one open, else in a new transaction of `prisma`. */
function transactionOf(prisma: PrismaClient, tx: Tx | undefined) {
  return <T>(write: (tx: Tx) => Promise<T>, options: { timeout: number; maxWait: number }): Promise<T> =>
    tx ? write(tx) : prisma.$transaction(write, options);
}

/** Validate (throws CloudValidationError) and replace the cloud in one transaction. */
export async function importCloud(
  prisma: PrismaClient,
  input: unknown,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  const t0 = performance.now();
  const v = validateCloud(input, { forImport: true });
  if (!v.ok) throw new CloudValidationError(v.errors, v.warnings);
  const doc = v.value;
  const raw = input as { config?: unknown };
  const validateMs = performance.now() - t0;

  const groupErrors = inventedUuidClashes(doc);
  if (groupErrors.length) throw new CloudValidationError(groupErrors, v.warnings);
  const flavors = flavorsOf(doc);
  const images = imagesOf(doc);
  const profileName = opts.profileName ?? DEFAULT_IMPORT_PROFILE;

  const t1 = performance.now();
  const counts = await transactionOf(prisma, opts.tx)(
    async (tx) => {
      await deleteCloud(tx);
      const now = nowText();

      // cells
      const cellNames = [...new Set(doc.hosts.map((h) => h.cell ?? HOST_DEFAULTS.cell))];
      await tx.cell.createMany({ data: cellNames.map((name) => ({ name })) });
      const cellId = idMap(await tx.cell.findMany({ select: { id: true, name: true } }), "name");

      // hosts, their metrics and traits; a second node of a service host is kept under its node's name
      const rowName = rowNamesOf(doc.hosts);
      const hostRows = doc.hosts.map((h, i) => ({
        position: i,
        name: rowName[i],
        serviceHost: rowName[i] === h.name ? null : h.name,
        childProviders: h.child_providers !== undefined ? JSON.stringify(h.child_providers) : null,
        hypervisorHostname: h.node ?? h.name,
        uuid: h.uuid ?? null,
        cellId: cellId.get(h.cell ?? HOST_DEFAULTS.cell)!,
        vcpus: h.vcpus,
        vcpusUsed: h.vcpus_used ?? 0,
        memoryMb: h.memory_mb,
        memoryMbUsed: h.memory_mb_used ?? 0,
        localGb: h.local_gb,
        localGbUsed: h.local_gb_used ?? 0,
        freeRamMb: h.free_ram_mb ?? null,
        freeDiskGb: h.free_disk_gb ?? null,
        diskAvailableLeast: h.disk_available_least ?? null,
        reservedVcpus: h.reserved_vcpus ?? 0,
        reservedMemoryMb: h.reserved_memory_mb ?? 0,
        reservedDiskGb: h.reserved_disk_gb ?? 0,
        // kept verbatim (list order matters to Nova), validated by HostSchema
        numaTopology: h.numa_topology !== undefined ? JSON.stringify(h.numa_topology) : null,
        pciDevicePools: h.pci_device_pools !== undefined ? JSON.stringify(h.pci_device_pools) : null,
        pcpus: h.pcpus ?? 0,
        pcpusUsed: h.pcpus_used ?? 0,
        inventories: h.inventories !== undefined ? JSON.stringify(h.inventories) : null,
        cpuAllocationRatio: h.cpu_allocation_ratio ?? HOST_DEFAULTS.cpu_allocation_ratio,
        ramAllocationRatio: h.ram_allocation_ratio ?? HOST_DEFAULTS.ram_allocation_ratio,
        diskAllocationRatio: h.disk_allocation_ratio ?? HOST_DEFAULTS.disk_allocation_ratio,
        hypervisorType: h.hypervisor_type ?? HOST_DEFAULTS.hypervisor_type,
        hypervisorVersion: h.hypervisor_version ?? HOST_DEFAULTS.hypervisor_version,
        hostIp: h.host_ip ?? null,
        supportedInstances: JSON.stringify(h.supported_instances ?? []),
        cpuInfo: JSON.stringify(h.cpu_info ?? {}),
        numInstances: h.num_instances ?? 0,
        numIoOps: h.num_io_ops ?? 0,
        failedBuilds: h.failed_builds ?? 0,
        serviceDisabled: h.service?.disabled ?? false,
        disabledReason: h.service?.disabled_reason ?? null,
        serviceUp: h.service?.up ?? true,
        forcedDown: h.service?.forced_down ?? false,
        createdAt: now,
        updatedAt: now,
      }));
      await bulkInsert(tx, "ComputeHost", hostRows);
      const hostId = idMap(await tx.computeHost.findMany({ select: { id: true, name: true } }), "name");
      await bulkInsert(
        tx,
        "HostMetric",
        doc.hosts.flatMap((h, i) =>
          (h.metrics ?? []).map((m) => ({ hostId: hostId.get(rowName[i])!, name: m.name, value: m.value })),
        ),
      );
      await bulkInsert(
        tx,
        "HostTrait",
        doc.hosts.flatMap((h, i) => (h.traits ?? []).map((name) => ({ hostId: hostId.get(rowName[i])!, name }))),
      );

      const rowsOfHost = new Map<string, string[]>();
      doc.hosts.forEach((h, i) => {
        rowsOfHost.set(h.name, [...(rowsOfHost.get(h.name) ?? []), rowName[i]]);
      });

      // aggregates: the AZ goes to its column, the other metadata to rows
      const aggregates = doc.aggregates ?? [];
      const aggregateRows = aggregates.map((a, i) => ({
        position: i,
        name: a.name,
        uuid: a.uuid ?? null,
        availabilityZone: a.availability_zone ?? a.metadata?.availability_zone ?? null,
        createdAt: now,
        updatedAt: now,
      }));
      await bulkInsert(tx, "Aggregate", aggregateRows);
      const aggId = idMap(await tx.aggregate.findMany({ select: { id: true, name: true } }), "name");
      await bulkInsert(
        tx,
        "AggregateHost",
        aggregates.flatMap((a) =>
          // every node of a listed service host is a member (Nova goes by service host)
          (a.hosts ?? []).flatMap((h) =>
            (rowsOfHost.get(h) ?? []).map((row) => ({ aggregateId: aggId.get(a.name)!, hostId: hostId.get(row)! })),
          ),
        ),
      );
      await bulkInsert(
        tx,
        "AggregateMetadata",
        aggregates.flatMap((a) =>
          Object.entries(a.metadata ?? {})
            .filter(([key]) => key !== "availability_zone")
            .map(([key, value]) => ({ aggregateId: aggId.get(a.name)!, key, value })),
        ),
      );

      // flavors, images
      const flavorRows = flavors.map((f) => ({
        name: f.name,
        flavorid: f.id ?? null,
        vcpus: f.vcpus,
        memoryMb: f.memory_mb,
        rootGb: f.root_gb ?? 0,
        ephemeralGb: f.ephemeral_gb ?? 0,
        swap: f.swap ?? 0,
        isPublic: f.is_public ?? true,
        description: f.description ?? null,
      }));
      await bulkInsert(tx, "Flavor", flavorRows);
      const flavorId = idMap(await tx.flavor.findMany({ select: { id: true, name: true } }), "name");
      await bulkInsert(
        tx,
        "FlavorExtraSpec",
        flavors.flatMap((f) =>
          Object.entries(f.extra_specs ?? {}).map(([key, value]) => ({ flavorId: flavorId.get(f.name)!, key, value })),
        ),
      );
      await bulkInsert(
        tx,
        "Image",
        images.map((im) => ({ uuid: im.id, name: im.name ?? null, diskFormat: im.disk_format ?? null })),
      );
      const imageId = idMap(await tx.image.findMany({ select: { id: true, uuid: true } }), "uuid");
      await bulkInsert(
        tx,
        "ImageProperty",
        images.flatMap((im) =>
          Object.entries(im.properties ?? {}).map(([key, value]) =>
            typeof value === "string"
              ? { imageId: imageId.get(im.id)!, key, value, json: false }
              : { imageId: imageId.get(im.id)!, key, value: JSON.stringify(value), json: true },
          ),
        ),
      );

      // server groups (a group given without uuid gets the one the reference invents)
      const groups = doc.server_groups ?? [];
      const groupUuid = groups.map((g) => g.uuid ?? stableUuid(`sg-${g.name}`));
      const groupRows = groups.map((g, i) => ({
        position: i,
        uuid: groupUuid[i],
        name: g.name,
        policy: g.policy,
        rules: JSON.stringify(g.rules ?? {}),
        projectId: g.project_id ?? null,
      }));
      await bulkInsert(tx, "ServerGroup", groupRows);
      const groupId = idMap(await tx.serverGroup.findMany({ select: { id: true, uuid: true } }), "uuid");
      const memberOf = new Map<string, number>();
      groups.forEach((g, i) => {
        for (const u of g.members ?? []) memberOf.set(u, groupId.get(groupUuid[i])!);
      });

      // instances: those on hosts (in host order), then the ones on no host
      const attrs = new Map((doc.instances ?? []).map((i) => [i.uuid, i]));
      const instanceRow = (uuid: string, host: number | null) => {
        const a = attrs.get(uuid);
        return {
          uuid,
          hostId: host,
          serverGroupId: memberOf.get(uuid) ?? null,
          name: a?.name ?? null,
          flavorId: a?.flavor != null ? (flavorId.get(a.flavor) ?? null) : null,
          imageId: a?.image != null ? (imageId.get(a.image) ?? null) : null,
          projectId: a?.project_id ?? null,
          availabilityZone: a?.availability_zone ?? null,
          created: a?.created ?? null,
        };
      };
      const placed = new Set<string>();
      const instanceRows = doc.hosts.flatMap((h, i) =>
        (h.instances ?? []).map((u) => {
          placed.add(u);
          return instanceRow(u, hostId.get(rowName[i])!);
        }),
      );
      for (const i of doc.instances ?? []) if (!placed.has(i.uuid)) instanceRows.push(instanceRow(i.uuid, null));
      await bulkInsert(tx, "Instance", instanceRows);

      // scheduler profile
      let profile: string | null = null;
      if (!opts.keepProfiles) {
        await tx.schedulerProfile.updateMany({
          where: { active: true, NOT: { name: profileName } },
          data: { active: false },
        });
        const config = JSON.stringify(migrateProfileConfig((raw.config ?? {}) as Record<string, unknown>));
        await tx.schedulerProfile.upsert({
          where: { name: profileName },
          create: { name: profileName, config, active: true, description: "imported from a scenario file" },
          update: { config, active: true },
        });
        profile = profileName;
      }
      await bumpCloudRevision(tx);
      const summary = {
        cells: cellNames.length,
        hosts: doc.hosts.length,
        aggregates: aggregates.length,
        serverGroups: groups.length,
        instances: instanceRows.length,
        flavors: flavors.length,
        images: images.length,
        profile,
      };
      if (opts.audit) await auditCloudImport(tx, opts.audit, summary);
      return summary;
    },
    { timeout: opts.timeoutMs ?? 600_000, maxWait: 60_000 },
  );
  return { ...counts, warnings: v.warnings, validateMs, writeMs: performance.now() - t1 };
}

/** One audit entry for a whole-cloud import: entity "cloud", keyed by the file, its hash and what it brought. */
async function auditCloudImport(tx: Tx, a: CloudImportAudit, summary: Record<string, unknown>): Promise<void> {
  await tx.auditEntry.create({
    data: {
      userId: a.userId,
      userName: a.userName,
      role: a.role,
      action: a.action,
      entity: "cloud",
      entityKey: a.source,
      before: null,
      after: JSON.stringify({ file: a.source, sha256: a.sha256, bytes: a.bytes, summary }),
    },
  });
}

/** Delete the whole cloud (not profiles, not run history), children first. */
export async function deleteCloud(tx: Tx | PrismaClient): Promise<void> {
  await tx.instance.deleteMany();
  await tx.serverGroup.deleteMany();
  await tx.aggregateMetadata.deleteMany();
  await tx.aggregateHost.deleteMany();
  await tx.aggregate.deleteMany();
  await tx.hostMetric.deleteMany();
  await tx.hostTrait.deleteMany();
  await tx.computeHost.deleteMany();
  await tx.cell.deleteMany();
  await tx.flavorExtraSpec.deleteMany();
  await tx.flavor.deleteMany();
  await tx.imageProperty.deleteMany();
  await tx.image.deleteMany();
}

// ---------------------------------------------------------------------------
// Export

export interface ExportOptions {
  /** Profile whose config becomes `config` (default: the active one). */
  profileName?: string;
  /** A request object, or a whole scenario whose `request` is taken. */
  request?: unknown;
}

export type ExportedCloud = CloudScenario & {
  flavors: Record<string, unknown>[];
  images: Record<string, unknown>[];
  instances: Record<string, unknown>[];
  request?: ScenarioRequest;
};

/** Take `request` out of a whole scenario, or accept a bare request; validated. */
export function pickRequest(input: unknown): ScenarioRequest {
  const candidate =
    input !== null && typeof input === "object" && "request" in input && !("flavor" in input)
      ? (input as { request: unknown }).request
      : input;
  // a move (SCENARIO.md "Moves") keeps the instance's flavor: its own schema
  const isMove = candidate !== null && typeof candidate === "object" && "operation" in candidate;
  const parsed = (isMove ? MoveRequestSchema : RequestSchema).safeParse(candidate);
  if (!parsed.success) {
    throw new CloudValidationError(
      formatZodError(parsed.error).map((m) => `request.${m}`.replace("request.(document)", "request")),
    );
  }
  return candidate as ScenarioRequest; // verbatim: keep the file's own value forms
}

/**
 * Run reads in one read transaction, or, inside the caller's transaction
 * (an import recording its snapshot), one after the other in it.
 */
function readTogether<T extends readonly unknown[]>(
  db: PrismaClient | Tx,
  reads: [...{ [K in keyof T]: Promise<T[K]> }],
): Promise<T> {
  return "$transaction" in db
    ? (db.$transaction(reads as never) as unknown as Promise<T>)
    : (Promise.all(reads) as unknown as Promise<T>);
}

/** The cloud (+ active or named profile as `config`, + optional request) as a scenario document. */
export async function exportCloud(prisma: PrismaClient | Tx, opts: ExportOptions = {}): Promise<ExportedCloud> {
  const request = opts.request !== undefined ? pickRequest(opts.request) : undefined;
  const { scenario } = await loadSnapshot(prisma, { profileName: opts.profileName });
  // the engine-side pass of unsimulated classes is not part of the profile
  if (scenario.config) delete (scenario.config as { not_simulated?: unknown }).not_simulated;
  const d = sqlFor(prisma);
  const [flavors, images, instanceRows] = await readTogether(prisma, [
    prisma.flavor.findMany({ orderBy: { name: "asc" }, include: { extraSpecs: { orderBy: { key: "asc" } } } }),
    prisma.image.findMany({ orderBy: { uuid: "asc" }, include: { properties: { orderBy: { key: "asc" } } } }),
    // instances with attributes beyond placement, or on no host; one JSON text per row (fast at 100k+)
    prisma.$queryRawUnsafe<{ json: string }[]>(
      `SELECT ${d.text(
        d.object([
          ["uuid", `i."uuid"`],
          ["name", `i."name"`],
          ["flavor", `f."name"`],
          ["image", `im."uuid"`],
          ["project_id", `i."projectId"`],
          ["availability_zone", `i."availabilityZone"`],
          ["created", `i."created"`],
        ]),
      )} AS "json"
       FROM "Instance" i LEFT JOIN "Flavor" f ON f."id" = i."flavorId" LEFT JOIN "Image" im ON im."id" = i."imageId"
       WHERE i."hostId" IS NULL OR i."name" IS NOT NULL OR i."flavorId" IS NOT NULL OR i."imageId" IS NOT NULL
          OR i."projectId" IS NOT NULL OR i."availabilityZone" IS NOT NULL OR i."created" IS NOT NULL
       ORDER BY i."id"`,
    ),
  ]);
  const instances = JSON.parse(`[${instanceRows.map((r) => r.json).join(",")}]`) as Record<string, unknown>[];
  for (const i of instances)
    for (const k of ["name", "flavor", "image", "project_id", "availability_zone", "created"])
      if (i[k] === null) delete i[k];
  const out: ExportedCloud = {
    ...scenario,
    flavors: flavors.map((f) => {
      const o: Record<string, unknown> = {
        name: f.name,
        ...flavorSizes(f),
        is_public: f.isPublic,
        extra_specs: Object.fromEntries(f.extraSpecs.map((s) => [s.key, s.value])),
      };
      if (f.flavorid !== null) o.id = f.flavorid;
      if (f.description !== null) o.description = f.description;
      return o;
    }),
    images: images.map((im) => {
      const o: Record<string, unknown> = {
        id: im.uuid,
        properties: Object.fromEntries(im.properties.map((p) => [p.key, p.json ? JSON.parse(p.value) : p.value])),
      };
      if (im.name !== null) o.name = im.name;
      if (im.diskFormat !== null) o.disk_format = im.diskFormat;
      return o;
    }),
    instances,
  };
  if (request !== undefined) out.request = request;
  return out;
}

export interface RequestFromDbOptions {
  flavor: string;
  /** image name or uuid */
  image?: string;
  numInstances?: number;
  availabilityZone?: string;
  projectId?: string;
  /** server group name or uuid */
  serverGroup?: string;
}

/** The flavor of a request, as the scenario format has it, from its database row (null: no such flavor). */
export async function flavorFromDb(prisma: PrismaClient, name: string): Promise<ScenarioRequest["flavor"] | null> {
  const f = await prisma.flavor.findUnique({ where: { name }, include: FLAVOR_SPECS });
  return f && scenarioFlavor(f);
}

/** What a flavor row must include for scenarioFlavor: its extra specs, in key order. */
export const FLAVOR_SPECS = { extraSpecs: { orderBy: { key: "asc" } } } as const;

/** A Flavor row (with its extra specs) as the scenario format has a flavor. */
export function scenarioFlavor(
  f: Flavor & { extraSpecs: Pick<FlavorExtraSpec, "key" | "value">[] },
): ScenarioRequest["flavor"] {
  return {
    name: f.name,
    ...(f.flavorid !== null ? { id: f.flavorid } : {}),
    vcpus: f.vcpus,
    memory_mb: f.memoryMb,
    root_gb: f.rootGb,
    ephemeral_gb: f.ephemeralGb,
    swap: f.swap,
    extra_specs: Object.fromEntries(f.extraSpecs.map((s) => [s.key, s.value])),
  };
}

/** A boot request built from a Flavor (and Image) row of the database. */
export async function requestFromDb(prisma: PrismaClient, o: RequestFromDbOptions): Promise<ScenarioRequest> {
  const flavor = await flavorFromDb(prisma, o.flavor);
  if (!flavor) throw new UnknownInRequestError("flavor", `unknown flavor "${o.flavor}"`);
  const req: ScenarioRequest = { flavor, num_instances: o.numInstances ?? 1 };
  if (o.image !== undefined) {
    const im =
      (await prisma.image.findUnique({ where: { uuid: o.image }, include: { properties: true } })) ??
      (await prisma.image.findFirst({
        where: { name: o.image },
        orderBy: { id: "asc" },
        include: { properties: true },
      }));
    if (!im) throw new UnknownInRequestError("image", `unknown image "${o.image}"`);
    req.image = {
      id: im.uuid,
      ...(im.name !== null ? { name: im.name } : {}),
      ...(im.diskFormat !== null ? { disk_format: im.diskFormat } : {}),
      properties: Object.fromEntries(im.properties.map((p) => [p.key, p.json ? JSON.parse(p.value) : p.value])),
    };
  }
  if (o.availabilityZone !== undefined) req.availability_zone = o.availabilityZone;
  if (o.projectId !== undefined) req.project_id = o.projectId;
  if (o.serverGroup !== undefined) req.server_group = o.serverGroup;
  return req;
}
