/** Flavors with their extra specs. */
import "server-only";
import type { Db } from "@/lib/db/client";
import type { KeyValue } from "./shared";

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
  /** optimistic concurrency: forms send it back (lib/audit/trail.ts) */
  version: number;
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
    version: f.version,
    extraSpecs: Object.fromEntries(f.extraSpecs.map((s) => [s.key, s.value])),
    instanceCount: f._count.instances,
  };
}

/** Flavors (extra specs by key) by name, or by vCPUs, RAM, then name (the order Horizon lists them). */
export async function listFlavors(db: Db, order: "size" | "name" = "size"): Promise<FlavorRow[]> {
  const flavors = await db.flavor.findMany({
    orderBy: order === "name" ? [{ name: "asc" }] : [{ vcpus: "asc" }, { memoryMb: "asc" }, { name: "asc" }],
    include: { extraSpecs: { orderBy: { key: "asc" } }, _count: { select: { instances: true } } },
  });
  return flavors.map(flavorRow);
}

/** One flavor, extra specs in the order they were set. */
export async function getFlavor(db: Db, name: string): Promise<FlavorRow | null> {
  const f = await db.flavor.findUnique({
    where: { name },
    include: { extraSpecs: { orderBy: { id: "asc" } }, _count: { select: { instances: true } } },
  });
  return f ? flavorRow(f) : null;
}
