"use server";

import { deleteAction, formAction } from "@/lib/actions/form-action";
import { existing, type ActionResult } from "@/lib/actions/mutation";
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
  return formAction(
    "profile.create",
    ProfileCreateSchema,
    form,
    async (tx, d) => {
      await assertProfileNameFree(tx, d.name);
      const { config, description } = await newProfileContent(tx, d.copy_from, d.description);
      const p = await tx.schedulerProfile.create({ data: { name: d.name, description, config, active: false } });
      return { name: p.name };
    },
    { revalidate: PATHS, message: "Profile created.", redirectTo: (r) => `${profileHref(r.name)}&created=1` },
  );
}

export async function activateProfile(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "profile.activate",
    ProfileIdSchema,
    form,
    async (tx, d) => {
      const p = await setActiveProfile(tx, { id: d.id });
      return { name: p.name };
    },
    { revalidate: PATHS, message: (r) => `Profile ${r.name} is now active: new scheduling runs use it.` },
  );
}

export async function deleteProfile(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return deleteAction("profile.delete", ProfileIdSchema, form, {
    what: "profile",
    find: (tx, id) => tx.schedulerProfile.findUnique({ where: { id } }),
    check: (p) => assertProfileDeletable(p),
    remove: (tx, id) => tx.schedulerProfile.delete({ where: { id } }),
    label: (p) => p.name,
    list: "/config",
    revalidate: PATHS,
    message: "Profile deleted.",
  });
}

/** Save the editor: filters, weighers (ordered), multipliers, options, Placement options, PCI aliases, release. */
export async function saveProfile(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "profile.save",
    SaveSchema,
    form,
    async (tx, d) => {
      const p = existing(await tx.schedulerProfile.findUnique({ where: { id: d.id } }), "profile");
      await tx.schedulerProfile.update({
        where: { id: p.id },
        data: { description: d.description, config: JSON.stringify(d.config) },
      });
      return { name: p.name };
    },
    { revalidate: PATHS, message: (r) => `Profile ${r.name} saved.` },
  );
}
