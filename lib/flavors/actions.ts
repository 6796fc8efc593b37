"use server";

import { redirect } from "next/navigation";
import { formToObject, MutationError, mutate, type ActionResult } from "@/lib/actions/mutation";
import {
  FlavorExtraSpecRemoveSchema,
  FlavorExtraSpecSchema,
  FlavorIdSchema,
  FlavorSchema,
} from "@/lib/cloud/form-schemas";
import { assertFlavorFree, flavorById, flavorData } from "./rules";

const flavorHref = (name: string) => `/flavors/${encodeURIComponent(name)}`;
const pathsFor = (name?: string) => ["/flavors", ...(name ? [`/flavors/${name}`, flavorHref(name)] : [])];

export async function createFlavor(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "flavor.create",
    FlavorSchema,
    formToObject(form),
    async (tx, d) => {
      await assertFlavorFree(tx, d);
      const f = await tx.flavor.create({ data: flavorData(d) });
      return { name: f.name };
    },
    { revalidate: pathsFor(), message: "Flavor created." },
  );
  if (result.ok) redirect(`${flavorHref(result.data.name)}?created=1`);
  return result;
}

export async function updateFlavor(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = formToObject(form);
  const result = await mutate(
    "flavor.update",
    FlavorSchema,
    input,
    async (tx, d) => {
      if (d.id === undefined) throw new MutationError("id", "id: is required");
      const f = await flavorById(tx, d.id);
      await assertFlavorFree(tx, d, d.id);
      await tx.flavor.update({ where: { id: d.id }, data: flavorData(d) });
      return { name: d.name, old: f.name };
    },
    { revalidate: pathsFor(String(input.name ?? "")), message: "Flavor saved." },
  );
  if (result.ok && result.data.name !== result.data.old) redirect(`${flavorHref(result.data.name)}?renamed=1`);
  return result;
}

export async function deleteFlavor(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "flavor.delete",
    FlavorIdSchema,
    formToObject(form),
    async (tx, d) => {
      const f = await flavorById(tx, d.id);
      await tx.flavor.delete({ where: { id: d.id } });
      return { name: f.name };
    },
    { revalidate: pathsFor(), message: "Flavor deleted." },
  );
  if (result.ok) redirect(`/flavors?deleted=${encodeURIComponent(result.data.name)}`);
  return result;
}

/** Add or change one extra spec (in place: original_key = the row's key before the edit). */
export async function saveExtraSpec(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = formToObject(form);
  const editing = typeof input.original_key === "string" && input.original_key !== "";
  return mutate(
    "flavor.extra_spec.save",
    FlavorExtraSpecSchema,
    input,
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
    {
      revalidate: pathsFor(String(input.flavor_name ?? "")),
      message: editing ? `Saved ${String(input.key ?? "").trim()}.` : `Added ${String(input.key ?? "").trim()}.`,
    },
  );
}

export async function removeExtraSpec(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = formToObject(form);
  return mutate(
    "flavor.extra_spec.remove",
    FlavorExtraSpecRemoveSchema,
    input,
    async (tx, d) => {
      const f = await flavorById(tx, d.id);
      const { count } = await tx.flavorExtraSpec.deleteMany({ where: { flavorId: f.id, key: d.key } });
      if (!count) throw new MutationError(null, `extra spec "${d.key}" is not set on this flavor`);
      return { key: d.key };
    },
    { revalidate: pathsFor(String(input.flavor_name ?? "")), message: `Removed ${String(input.key ?? "")}.` },
  );
}
