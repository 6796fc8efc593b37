"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { type ActionResult, MutationError, mutate, notAForm } from "@/lib/actions/mutation";
import { importNovaConf } from "./nova-conf";
import { saveNovaConfProfile } from "./profile";

/** nova.conf files are small; anything larger is not one. */
const MAX_NOVA_CONF_BYTES = 512 * 1024;

const NovaConfUploadSchema = z.object({
  name: z
    .string({ error: "name: is required" })
    .trim()
    .min(1, { error: "name: is required" })
    .max(100, { error: "name: at most 100 characters" }),
  text: z.string({ error: "file: choose a nova.conf file" }).min(1, { error: "file: the file is empty" }),
});

/** Import nova.conf: its scheduler sections become profile NAME (created or replaced, not activated). */
export async function importNovaConfAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  if (!(form instanceof FormData)) return notAForm();
  const file = form.get("file");
  let text: string | undefined;
  if (file instanceof File && file.size > 0) {
    if (file.size > MAX_NOVA_CONF_BYTES)
      return { ok: false, fieldErrors: { file: [`file: is ${file.size} bytes; a nova.conf may be at most 512 KB`] } };
    text = await file.text();
  }
  const result = await mutate(
    "profile.import-nova-conf",
    NovaConfUploadSchema,
    { name: form.get("name"), text },
    async (tx, d) => {
      const parsed = importNovaConf(d.text);
      if (parsed.errors.length) throw new MutationError("file", `file: ${parsed.errors.slice(0, 5).join("; ")}`);
      await saveNovaConfProfile(tx, d.name, parsed);
      return { name: d.name, report: parsed.report };
    },
    { revalidate: ["/config"] },
  );
  if (!result.ok) return result;
  const q = new URLSearchParams({ profile: result.data.name, imported: "1" });
  const count = (s: string) => result.data.report.filter((r) => r.status === s).length;
  q.set("kept", String(count("kept")));
  // what was not taken, with why: shown on /config beside the imported profile
  const notTaken = result.data.report.filter((r) => r.status !== "kept");
  if (notTaken.length) q.set("report", JSON.stringify(notTaken.slice(0, 40)));
  redirect(`/config?${q}`);
}
