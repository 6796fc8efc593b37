/**
 * What the audit trail and the version check see of each editable entity:
 * one plain JSON-able value per entity (OpenStack's field names), its key
 * (name or uuid) and its version. Read inside the mutation's transaction.
 */
import type { EntityKind } from "@/lib/core/action-registry";
import type { Tx } from "@/lib/db/client";
import { flavorSizes } from "@/lib/core/flavor-sizes";

/** How to find one entity: its row id, or its unique name / uuid. */
export type EntityRef = { id: number } | { name: string } | { uuid: string };

export interface EntityState {
  id: number;
  key: string;
  version: number | null;
  value: Record<string, unknown>;
}

const kv = (rows: { key: string; value: string }[]) => Object.fromEntries(rows.map((r) => [r.key, r.value]));

function where(ref: EntityRef): { id: number } | { name: string } | { uuid: string } {
  return ref;
}

async function aggregate(tx: Tx, ref: EntityRef): Promise<EntityState | null> {
  if ("uuid" in ref) return null;
  const a = await tx.aggregate.findUnique({
    where: where(ref) as { id: number },
    include: { metadata: { orderBy: { key: "asc" } }, hosts: { orderBy: { id: "asc" }, include: { host: true } } },
  });
  if (!a) return null;
  return {
    id: a.id,
    key: a.name,
    version: a.version,
    value: {
      name: a.name,
      availability_zone: a.availabilityZone,
      metadata: kv(a.metadata),
      hosts: a.hosts.map((h) => h.host.name),
    },
  };
}

async function flavor(tx: Tx, ref: EntityRef): Promise<EntityState | null> {
  if ("uuid" in ref) return null;
  const f = await tx.flavor.findUnique({
    where: where(ref) as { id: number },
    include: { extraSpecs: { orderBy: { key: "asc" } } },
  });
  if (!f) return null;
  return {
    id: f.id,
    key: f.name,
    version: f.version,
    value: {
      name: f.name,
      flavorid: f.flavorid,
      ...flavorSizes(f),
      is_public: f.isPublic,
      description: f.description,
      extra_specs: kv(f.extraSpecs),
    },
  };
}

async function image(tx: Tx, ref: EntityRef): Promise<EntityState | null> {
  if ("name" in ref) return null;
  const im = await tx.image.findUnique({
    where: where(ref) as { id: number },
    include: { properties: { orderBy: { key: "asc" } } },
  });
  if (!im) return null;
  return {
    id: im.id,
    key: im.uuid,
    version: im.version,
    value: { uuid: im.uuid, name: im.name, properties: kv(im.properties) },
  };
}

async function serverGroup(tx: Tx, ref: EntityRef): Promise<EntityState | null> {
  if ("name" in ref) return null;
  const g = await tx.serverGroup.findUnique({ where: where(ref) as { id: number } });
  if (!g) return null;
  return {
    id: g.id,
    key: g.uuid,
    version: g.version,
    value: { uuid: g.uuid, name: g.name, policy: g.policy, rules: JSON.parse(g.rules), project_id: g.projectId },
  };
}

async function instance(tx: Tx, ref: EntityRef): Promise<EntityState | null> {
  if ("name" in ref) return null;
  const i = await tx.instance.findUnique({
    where: where(ref) as { id: number },
    include: { host: true, flavor: true, image: true, serverGroup: true },
  });
  if (!i) return null;
  return {
    id: i.id,
    key: i.uuid,
    version: i.version,
    value: {
      uuid: i.uuid,
      name: i.name,
      host: i.host?.name ?? null,
      flavor: i.flavor?.name ?? null,
      image: i.image?.uuid ?? null,
      project_id: i.projectId,
      server_group: i.serverGroup?.uuid ?? null,
    },
  };
}

async function host(tx: Tx, ref: EntityRef): Promise<EntityState | null> {
  if ("uuid" in ref) return null;
  const h = await tx.computeHost.findUnique({ where: where(ref) as { id: number } });
  if (!h) return null;
  return {
    id: h.id,
    key: h.name,
    version: h.version,
    value: {
      name: h.name,
      service_disabled: h.serviceDisabled,
      disabled_reason: h.disabledReason,
      service_up: h.serviceUp,
      forced_down: h.forcedDown,
      vcpus_used: h.vcpusUsed,
      memory_mb_used: h.memoryMbUsed,
      local_gb_used: h.localGbUsed,
      num_instances: h.numInstances,
    },
  };
}

async function profile(tx: Tx, ref: EntityRef): Promise<EntityState | null> {
  if ("uuid" in ref) return null;
  const p = await tx.schedulerProfile.findUnique({ where: where(ref) as { id: number } });
  if (!p) return null;
  return {
    id: p.id,
    key: p.name,
    version: p.version,
    value: { name: p.name, description: p.description, active: p.active, config: JSON.parse(p.config) },
  };
}

async function run(tx: Tx, ref: EntityRef): Promise<EntityState | null> {
  if (!("id" in ref)) return null;
  const r = await tx.schedulingRun.findUnique({
    where: { id: ref.id },
    select: { id: true, flavorName: true, chosenHosts: true, committedAt: true, committedInstances: true },
  });
  if (!r) return null;
  return {
    id: r.id,
    key: `#${r.id}`,
    version: null,
    value: {
      flavor: r.flavorName,
      chosen_hosts: JSON.parse(r.chosenHosts),
      committed_at: r.committedAt?.toISOString() ?? null,
      committed_instances: r.committedInstances ? JSON.parse(r.committedInstances) : null,
    },
  };
}

const LOADERS: Record<EntityKind, (tx: Tx, ref: EntityRef) => Promise<EntityState | null>> = {
  aggregate,
  flavor,
  image,
  server_group: serverGroup,
  instance,
  host,
  profile,
  run,
};

export function loadEntity(tx: Tx, kind: EntityKind, ref: EntityRef): Promise<EntityState | null> {
  return LOADERS[kind](tx, ref);
}

/** Raise the version of a row that was changed (entities without one: no-op). */
export async function bumpVersion(tx: Tx, kind: EntityKind, id: number): Promise<void> {
  const data = { version: { increment: 1 } };
  switch (kind) {
    case "aggregate":
      await tx.aggregate.update({ where: { id }, data });
      return;
    case "flavor":
      await tx.flavor.update({ where: { id }, data });
      return;
    case "image":
      await tx.image.update({ where: { id }, data });
      return;
    case "server_group":
      await tx.serverGroup.update({ where: { id }, data });
      return;
    case "instance":
      await tx.instance.update({ where: { id }, data });
      return;
    case "host":
      await tx.computeHost.update({ where: { id }, data });
      return;
    case "profile":
      await tx.schedulerProfile.update({ where: { id }, data });
      return;
    case "run":
      return;
  }
}

/** The page that shows an entity (for links from the audit trail), or null. */
export function entityHref(kind: string, key: string): string | null {
  const k = encodeURIComponent(key);
  switch (kind) {
    case "aggregate":
      return `/aggregates/${k}`;
    case "flavor":
      return `/flavors/${k}`;
    case "host":
      return `/hosts/${k}`;
    case "run":
      return `/runs/${encodeURIComponent(key.replace(/^#/, ""))}`;
    case "image":
      return "/images";
    case "server_group":
      return "/server-groups";
    case "instance":
      return "/instances";
    case "connection":
      return "/connections";
    case "profile":
      return "/config";
    default:
      return null;
  }
}
