"use server";

import { formToObject, MutationError, mutate, notAForm, type ActionResult } from "@/lib/actions/mutation";
import { HostServiceSchema } from "@/lib/cloud/form-schemas";

/** Enable or disable a host's nova-compute service (disabling needs a reason). */
export async function setHostService(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = formToObject(form);
  if (!input) return notAForm();
  const name = String(input.host ?? "");
  const disabling = input.disabled === "true";
  return mutate(
    "host.service",
    HostServiceSchema,
    input,
    async (tx, d) => {
      const host = await tx.computeHost.findUnique({ where: { name: d.host }, select: { id: true } });
      if (!host) throw new MutationError(null, `host "${d.host}" does not exist (deleted meanwhile?)`);
      await tx.computeHost.update({
        where: { id: host.id },
        data: { serviceDisabled: d.disabled, disabledReason: d.disabled ? d.reason : null },
      });
      return { disabled: d.disabled };
    },
    {
      revalidate: ["/", "/hosts", `/hosts/${name}`, `/hosts/${encodeURIComponent(name)}`],
      message: disabling ? `Compute service on ${name} disabled.` : `Compute service on ${name} enabled.`,
    },
  );
}
