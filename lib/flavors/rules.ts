/**
 * Rules of flavors the schema alone cannot check, called by the server
 * actions inside their transaction.
 */
import "server-only";
import type { z } from "zod";
import { existing, MutationError } from "@/lib/actions/mutation";
import type { Tx } from "@/lib/db/client";
import type { FlavorSchema } from "@/lib/cloud/form-schemas";

export async function flavorById(tx: Tx, id: number) {
  return existing(await tx.flavor.findUnique({ where: { id } }), "flavor");
}

/** The form's fields as Flavor columns. */
export function flavorData(d: z.output<typeof FlavorSchema>) {
  return {
    name: d.name,
    flavorid: d.flavorid,
    vcpus: d.vcpus,
    memoryMb: d.memory_mb,
    rootGb: d.root_gb,
    ephemeralGb: d.ephemeral_gb,
    swap: d.swap,
    isPublic: d.is_public,
    description: d.description,
  };
}

/** Flavor names and flavor ids are unique. */
export async function assertFlavorFree(tx: Tx, d: { name: string; flavorid: string | null }, exceptId?: number) {
  const byName = await tx.flavor.findUnique({ where: { name: d.name }, select: { id: true } });
  if (byName && byName.id !== exceptId)
    throw new MutationError("name", `name: a flavor named "${d.name}" already exists`);
  if (d.flavorid) {
    const byId = await tx.flavor.findUnique({ where: { flavorid: d.flavorid }, select: { id: true, name: true } });
    if (byId && byId.id !== exceptId)
      throw new MutationError("flavorid", `flavorid: "${d.flavorid}" is already the id of flavor ${byId.name}`);
  }
}
