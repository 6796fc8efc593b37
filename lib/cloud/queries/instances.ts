/** Instances: the paged list, one instance, the choices of the instance form. */
import "server-only";
import { containsText } from "@/lib/db/dialect";
import type { Db } from "@/lib/db/client";
import { type Page, pageOf } from "./shared";

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
  /** optimistic concurrency: forms send it back (lib/audit/trail.ts) */
  version: number;
};

export const INSTANCE_INCLUDE = {
  host: { select: { name: true } },
  flavor: { select: { name: true } },
  image: { select: { name: true, uuid: true } },
  serverGroup: { select: { name: true, uuid: true, policy: true } },
} as const;

export function instanceRow(i: {
  id: number;
  uuid: string;
  name: string | null;
  projectId: string | null;
  host: { name: string } | null;
  flavor: { name: string } | null;
  image: { name: string | null; uuid: string } | null;
  serverGroup: { name: string; policy: string } | null;
  version: number;
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
    version: i.version,
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

export async function listInstances(db: Db, q: InstanceQuery = {}): Promise<Page<InstanceRow>> {
  const search = q.search?.trim();
  const where = {
    ...(q.host ? { host: { name: q.host } } : {}),
    ...(q.serverGroup ? { serverGroup: { OR: [{ name: q.serverGroup }, { uuid: q.serverGroup }] } } : {}),
    ...(q.projectId ? { projectId: q.projectId } : {}),
    ...(q.flavor ? { flavor: { name: q.flavor } } : {}),
    ...(search
      ? {
          OR: [
            { uuid: containsText(db, search) },
            { name: containsText(db, search) },
            { projectId: containsText(db, search) },
          ],
        }
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
export async function getInstance(db: Db, uuid: string) {
  return db.instance.findUnique({ where: { uuid }, include: INSTANCE_INCLUDE });
}

/** Names for the instance form's selects (few rows each). */
export async function instanceFormChoices(db: Db) {
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
