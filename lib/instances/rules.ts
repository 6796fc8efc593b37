/**
 * Rules of instances the schema alone cannot check, called by the server
 * actions inside their transaction.
 */
import "server-only";
import { MutationError } from "@/lib/actions/mutation";
import type { Tx } from "@/lib/db/client";

type InstanceInput = {
  host: string | null;
  flavor: string | null;
  image: string | null;
  server_group: string | null;
};

/** Names in the form → row ids; an unknown name is a field error. */
export async function resolveInstanceRefs(tx: Tx, d: InstanceInput) {
  const host = d.host ? await tx.computeHost.findUnique({ where: { name: d.host }, select: { id: true } }) : null;
  if (d.host && !host) throw new MutationError("host", `host: no compute host is named "${d.host}"`);
  const flavor = d.flavor ? await tx.flavor.findUnique({ where: { name: d.flavor }, select: { id: true } }) : null;
  if (d.flavor && !flavor) throw new MutationError("flavor", `flavor: no flavor is named "${d.flavor}"`);
  const image = d.image ? await tx.image.findUnique({ where: { uuid: d.image }, select: { id: true } }) : null;
  if (d.image && !image) throw new MutationError("image", `image: no image has id "${d.image}"`);
  const group = d.server_group
    ? await tx.serverGroup.findUnique({ where: { uuid: d.server_group }, select: { id: true } })
    : null;
  if (d.server_group && !group)
    throw new MutationError("server_group", `server_group: no server group has uuid "${d.server_group}"`);
  return {
    hostId: host?.id ?? null,
    flavorId: flavor?.id ?? null,
    imageId: image?.id ?? null,
    serverGroupId: group?.id ?? null,
  };
}

/** Instance uuids are unique. */
export async function assertInstanceUuidFree(tx: Tx, uuid: string): Promise<void> {
  if (await tx.instance.findUnique({ where: { uuid }, select: { id: true } })) {
    throw new MutationError("uuid", `uuid: an instance with uuid ${uuid} already exists`);
  }
}
