"use server";

import { redirect } from "next/navigation";
import { existing, formToObject, MutationError, mutate, type ActionResult } from "@/lib/actions/mutation";
import { ProfileCreateSchema, ProfileIdSchema, profileSaveSchema } from "@/lib/cloud/form-schemas";
import { DEFAULT_ENABLED_FILTERS, FILTERS, PREFILTERS, WEIGHERS } from "@/lib/scheduler";

const PATHS = ["/config", "/"];
const profileHref = (name: string) => `/config?profile=${encodeURIComponent(name)}`;

const known = {
  filters: Object.keys(FILTERS),
  weighers: Object.keys(WEIGHERS),
  prefilters: Object.keys(PREFILTERS),
};
const SaveSchema = profileSaveSchema(known);

/** New profile: a copy of another one, or Nova's defaults. */
export async function createProfile(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "profile.create",
    ProfileCreateSchema,
    formToObject(form),
    async (tx, d) => {
      if (await tx.schedulerProfile.findUnique({ where: { name: d.name }, select: { id: true } })) {
        throw new MutationError("name", `name: a profile named "${d.name}" already exists`);
      }
      let config = JSON.stringify({ enabled_filters: DEFAULT_ENABLED_FILTERS, weighers: "all" });
      let description = d.description;
      if (d.copy_from) {
        const src = await tx.schedulerProfile.findUnique({ where: { name: d.copy_from } });
        if (!src) throw new MutationError("copy_from", `copy_from: no profile is named "${d.copy_from}"`);
        config = src.config;
        description ??= `Copy of ${src.name}`;
      }
      const p = await tx.schedulerProfile.create({ data: { name: d.name, description, config, active: false } });
      return { name: p.name };
    },
    { revalidate: PATHS, message: "Profile created." },
  );
  if (result.ok) redirect(`${profileHref(result.data.name)}&created=1`);
  return result;
}

export async function activateProfile(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return mutate(
    "profile.activate",
    ProfileIdSchema,
    formToObject(form),
    async (tx, d) => {
      const p = existing(await tx.schedulerProfile.findUnique({ where: { id: d.id } }), "profile");
      // one active profile (partial unique index): deactivate first, then activate
      await tx.schedulerProfile.updateMany({ where: { active: true }, data: { active: false } });
      await tx.schedulerProfile.update({ where: { id: p.id }, data: { active: true } });
      return { name: p.name };
    },
    { revalidate: PATHS },
  ).then((r) => (r.ok ? { ...r, message: `Profile ${r.data.name} is now active: new scheduling runs use it.` } : r));
}

export async function deleteProfile(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "profile.delete",
    ProfileIdSchema,
    formToObject(form),
    async (tx, d) => {
      const p = existing(await tx.schedulerProfile.findUnique({ where: { id: d.id } }), "profile");
      if (p.active)
        throw new MutationError(
          null,
          `profile ${p.name} is the active one; activate another profile before deleting it`,
        );
      await tx.schedulerProfile.delete({ where: { id: p.id } });
      return { name: p.name };
    },
    { revalidate: PATHS, message: "Profile deleted." },
  );
  if (result.ok) redirect(`/config?deleted=${encodeURIComponent(result.data.name)}`);
  return result;
}

/** Save the editor: filters, prefilters, weighers (ordered), multipliers and options. */
export async function saveProfile(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return mutate(
    "profile.save",
    SaveSchema,
    formToObject(form),
    async (tx, d) => {
      const p = existing(await tx.schedulerProfile.findUnique({ where: { id: d.id } }), "profile");
      await tx.schedulerProfile.update({
        where: { id: p.id },
        data: { description: d.description, config: JSON.stringify(d.config) },
      });
      return { name: p.name };
    },
    { revalidate: PATHS },
  ).then((r) => (r.ok ? { ...r, message: `Profile ${r.data.name} saved.` } : r));
}
