"use server";

import { deleteAction, formAction, keyRemoved, keySaved } from "@/lib/actions/form-action";
import { MutationError, type ActionResult } from "@/lib/actions/mutation";
import {
  FlavorExtraSpecRemoveSchema,
  FlavorExtraSpecSchema,
  FlavorIdSchema,
  FlavorSchema,
} from "@/lib/cloud/form-schemas";
import { assertFlavorFree, flavorById, flavorData } from "./rules";

const flavorHref = (name: string) => `/flavors/${encodeURIComponent(name)}`;
const pathsFor = (name?: string) => ["/flavors", ...(name ? [`/flavors/${name}`, flavorHref(name)] : [])];
/** The pages of the flavor the form is about (it sends the flavor's name). */
const formPaths = (input: Record<string, unknown>) => pathsFor(String(input.flavor_name ?? ""));

export async function createFlavor(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "flavor.create",
    FlavorSchema,
    form,
    async (tx, d) => {
      await assertFlavorFree(tx, d);
      const f = await tx.flavor.create({ data: flavorData(d) });
      return { name: f.name };
    },
    { revalidate: pathsFor(), message: "Flavor created.", redirectTo: (r) => `${flavorHref(r.name)}?created=1` },
  );
}

export async function updateFlavor(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "flavor.update",
    FlavorSchema,
    form,
    async (tx, d) => {
      if (d.id === undefined) throw new MutationError("id", "id: is required");
      const f = await flavorById(tx, d.id);
      await assertFlavorFree(tx, d, d.id);
      await tx.flavor.update({ where: { id: d.id }, data: flavorData(d) });
      return { name: d.name, old: f.name };
    },
    {
      revalidate: (input) => pathsFor(String(input.name ?? "")),
      message: "Flavor saved.",
      redirectTo: (r) => (r.name !== r.old ? `${flavorHref(r.name)}?renamed=1` : null),
    },
  );
}

export async function deleteFlavor(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return deleteAction("flavor.delete", FlavorIdSchema, form, {
    what: "flavor",
    find: (tx, id) => tx.flavor.findUnique({ where: { id } }),
    remove: (tx, id) => tx.flavor.delete({ where: { id } }),
    label: (f) => f.name,
    list: "/flavors",
    revalidate: pathsFor(),
    message: "Flavor deleted.",
  });
}

/** Add or change one extra spec (in place: original_key = the row's key before the edit). */
export async function saveExtraSpec(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "flavor.extra_spec.save",
    FlavorExtraSpecSchema,
    form,
    async (tx, d) => {
      const f = await flavorById(tx, d.id);
      const original = d.original_key?.trim() || null;
      if (original !== d.key) {
        const clash = await tx.flavorExtraSpec.findUnique({ where: { flavorId_key: { flavorId: f.id, key: d.key } } });
        if (clash)
          throw new MutationError("key", `key: "${d.key}" is already set on this flavor; change its value in its row`);
        if (original) await tx.flavorExtraSpec.deleteMany({ where: { flavorId: f.id, key: original } });
      }
      await tx.flavorExtraSpec.upsert({
        where: { flavorId_key: { flavorId: f.id, key: d.key } },
        create: { flavorId: f.id, key: d.key, value: d.value },
        update: { value: d.value },
      });
      return { key: d.key };
    },
    { revalidate: formPaths, message: keySaved },
  );
}

export async function removeExtraSpec(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "flavor.extra_spec.remove",
    FlavorExtraSpecRemoveSchema,
    form,
    async (tx, d) => {
      const f = await flavorById(tx, d.id);
      const { count } = await tx.flavorExtraSpec.deleteMany({ where: { flavorId: f.id, key: d.key } });
      if (!count) throw new MutationError(null, `extra spec "${d.key}" is not set on this flavor`);
      return { key: d.key };
    },
    { revalidate: formPaths, message: keyRemoved },
  );
}
