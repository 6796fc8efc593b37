/** Images with their properties. */
import "server-only";
import type { Db } from "@/lib/db/client";
import type { KeyValue } from "./shared";

export type ImageRow = {
  id: number;
  uuid: string;
  name: string | null;
  /** optimistic concurrency: forms send it back (lib/audit/trail.ts) */
  version: number;
  /** as stored: `json` = the value is the JSON text of a number / boolean / list */
  properties: (KeyValue & { json: boolean })[];
  instanceCount: number;
};

export async function listImages(db: Db): Promise<ImageRow[]> {
  const images = await db.image.findMany({
    orderBy: [{ name: "asc" }, { id: "asc" }],
    include: { properties: { orderBy: { id: "asc" } }, _count: { select: { instances: true } } },
  });
  return images.map((im) => ({
    id: im.id,
    uuid: im.uuid,
    name: im.name,
    version: im.version,
    properties: im.properties.map((p) => ({ key: p.key, value: p.value, json: p.json })),
    instanceCount: im._count.instances,
  }));
}
