"use server";

import { redirect } from "next/navigation";
import { existing, formToObject, mutate, type ActionResult } from "@/lib/actions/mutation";
import { ProfileCreateSchema, ProfileIdSchema, profileSaveSchema } from "@/lib/cloud/form-schemas";
import { FILTERS, WEIGHERS } from "@/lib/scheduler";
import { assertProfileDeletable, assertProfileNameFree, newProfileContent, setActiveProfile } from "./rules";

const PATHS = ["/config", "/"];
const profileHref = (name: string) => `/config?profile=${encodeURIComponent(name)}`;

const known = {
  filters: Object.keys(FILTERS),
  weighers: Object.keys(WEIGHERS),
};
const SaveSchema = profileSaveSchema(known);

/** New profile: a copy of another one, or Nova's defaults. */
export async function createProfile(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "profile.create",
    ProfileCreateSchema,
    formToObject(form),
    async (tx, d) => {
      await assertProfileNameFree(tx, d.name);
      const { config, description } = await newProfileContent(tx, d.copy_from, d.description);
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
      const p = await setActiveProfile(tx, { id: d.id });
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
      assertProfileDeletable(p);
      await tx.schedulerProfile.delete({ where: { id: p.id } });
      return { name: p.name };
    },
    { revalidate: PATHS, message: "Profile deleted." },
  );
  if (result.ok) redirect(`/config?deleted=${encodeURIComponent(result.data.name)}`);
  return result;
}

/** Save the editor: filters, weighers (ordered), multipliers, options, Placement options, PCI aliases, release. */
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
