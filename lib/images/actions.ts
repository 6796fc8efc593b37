"use server";

import { randomUUID } from "node:crypto";
import { deleteAction, editAt, formAction, keyRemoved, keySaved } from "@/lib/actions/form-action";
import { MutationError, type ActionResult } from "@/lib/actions/mutation";
import { ImageIdSchema, ImagePropertyRemoveSchema, ImagePropertySchema, ImageSchema } from "@/lib/cloud/form-schemas";
import { assertImageUuidFree, imageById } from "./rules";

const PATHS = ["/images", "/instances"];

export async function createImage(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "image.create",
    ImageSchema,
    form,
    async (tx, d) => {
      const uuid = d.uuid ?? randomUUID();
      await assertImageUuidFree(tx, uuid);
      const im = await tx.image.create({ data: { uuid, name: d.name } });
      return { uuid: im.uuid };
    },
    { revalidate: PATHS, message: "Image created." },
  );
}

export async function updateImage(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "image.update",
    ImageSchema,
    form,
    async (tx, d) => {
      if (d.id === undefined) throw new MutationError("id", "id: is required");
      const im = await imageById(tx, d.id);
      const uuid = d.uuid ?? im.uuid;
      if (uuid !== im.uuid) await assertImageUuidFree(tx, uuid);
      await tx.image.update({ where: { id: im.id }, data: { uuid, name: d.name } });
      return { uuid, old: im.uuid };
    },
    { revalidate: PATHS, message: "Image saved.", redirectTo: editAt("/images") },
  );
}

export async function deleteImage(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return deleteAction("image.delete", ImageIdSchema, form, {
    what: "image",
    find: (tx, id) => tx.image.findUnique({ where: { id } }),
    remove: (tx, id) => tx.image.delete({ where: { id } }),
    label: (im) => im.name ?? im.uuid,
    list: "/images",
    revalidate: PATHS,
    message: "Image deleted.",
  });
}

export async function saveImageProperty(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "image.property.save",
    ImagePropertySchema,
    form,
    async (tx, d) => {
      const im = await imageById(tx, d.id);
      const original = d.original_key?.trim() || null;
      if (original !== d.key) {
        const clash = await tx.imageProperty.findUnique({ where: { imageId_key: { imageId: im.id, key: d.key } } });
        if (clash)
          throw new MutationError("key", `key: "${d.key}" is already set on this image; change its value in its row`);
        if (original) await tx.imageProperty.deleteMany({ where: { imageId: im.id, key: original } });
      }
      const value = d.json ? JSON.stringify(JSON.parse(d.value)) : d.value;
      await tx.imageProperty.upsert({
        where: { imageId_key: { imageId: im.id, key: d.key } },
        create: { imageId: im.id, key: d.key, value, json: d.json },
        update: { value, json: d.json },
      });
      return { key: d.key };
    },
    { revalidate: PATHS, message: keySaved },
  );
}

export async function removeImageProperty(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "image.property.remove",
    ImagePropertyRemoveSchema,
    form,
    async (tx, d) => {
      const im = await imageById(tx, d.id);
      const { count } = await tx.imageProperty.deleteMany({ where: { imageId: im.id, key: d.key } });
      if (!count) throw new MutationError(null, `property "${d.key}" is not set on this image`);
      return { key: d.key };
    },
    { revalidate: PATHS, message: keyRemoved },
  );
}
