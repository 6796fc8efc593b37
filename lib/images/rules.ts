/**
 * Rules of images the schema alone cannot check, called by the server
 * actions inside their transaction.
 */
import "server-only";
import { existing, MutationError } from "@/lib/actions/mutation";
import type { Tx } from "@/lib/db/client";

export async function imageById(tx: Tx, id: number) {
  return existing(await tx.image.findUnique({ where: { id } }), "image");
}

/** Image ids (uuids) are unique. */
export async function assertImageUuidFree(tx: Tx, uuid: string): Promise<void> {
  const clash = await tx.image.findUnique({ where: { uuid }, select: { id: true } });
  if (clash) throw new MutationError("uuid", `uuid: an image with id ${uuid} already exists`);
}
