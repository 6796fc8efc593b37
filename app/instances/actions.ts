"use server";

import { randomUUID } from "node:crypto";
import { redirect } from "next/navigation";
import { existing, formToObject, MutationError, mutate, type ActionResult, type Tx } from "@/lib/actions/mutation";
import { InstanceFormSchema, InstanceIdSchema } from "@/lib/cloud/form-schemas";

const PATHS = ["/instances", "/server-groups"];

type InstanceInput = {
  host: string | null;
  flavor: string | null;
  image: string | null;
  server_group: string | null;
};

/** Names in the form → row ids; an unknown name is a field error. */
async function resolveRefs(tx: Tx, d: InstanceInput) {
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

export async function createInstance(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return mutate(
    "instance.create",
    InstanceFormSchema,
    formToObject(form),
    async (tx, d) => {
      const uuid = d.uuid ?? randomUUID();
      if (await tx.instance.findUnique({ where: { uuid }, select: { id: true } })) {
        throw new MutationError("uuid", `uuid: an instance with uuid ${uuid} already exists`);
      }
      const refs = await resolveRefs(tx, d);
      await tx.instance.create({ data: { uuid, name: d.name, projectId: d.project_id, ...refs } });
      return { uuid };
    },
    { revalidate: PATHS, message: "Instance created." },
  );
}

export async function updateInstance(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "instance.update",
    InstanceFormSchema,
    formToObject(form),
    async (tx, d) => {
      if (d.id === undefined) throw new MutationError("id", "id: is required");
      const inst = existing(await tx.instance.findUnique({ where: { id: d.id } }), "instance");
      const uuid = d.uuid ?? inst.uuid;
      if (uuid !== inst.uuid && (await tx.instance.findUnique({ where: { uuid }, select: { id: true } }))) {
        throw new MutationError("uuid", `uuid: an instance with uuid ${uuid} already exists`);
      }
      const refs = await resolveRefs(tx, d);
      await tx.instance.update({
        where: { id: inst.id },
        data: { uuid, name: d.name, projectId: d.project_id, ...refs },
      });
      return { uuid, old: inst.uuid };
    },
    { revalidate: PATHS, message: "Instance saved." },
  );
  if (result.ok && result.data.uuid !== result.data.old)
    redirect(`/instances?edit=${encodeURIComponent(result.data.uuid)}`);
  return result;
}

export async function deleteInstance(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "instance.delete",
    InstanceIdSchema,
    formToObject(form),
    async (tx, d) => {
      const inst = existing(await tx.instance.findUnique({ where: { id: d.id } }), "instance");
      await tx.instance.delete({ where: { id: inst.id } });
      return { label: inst.name ?? inst.uuid };
    },
    { revalidate: PATHS, message: "Instance deleted." },
  );
  if (result.ok) redirect(`/instances?deleted=${encodeURIComponent(result.data.label)}`);
  return result;
}
