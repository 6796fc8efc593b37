"use server";

import { randomUUID } from "node:crypto";
import { deleteAction, editAt, formAction } from "@/lib/actions/form-action";
import { existing, MutationError, type ActionResult } from "@/lib/actions/mutation";
import { ServerGroupFormSchema, ServerGroupIdSchema } from "@/lib/cloud/form-schemas";
import { assertServerGroupUuidFree, withMaxServerPerHost } from "./rules";

const PATHS = ["/server-groups", "/instances"];

export async function createServerGroup(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "server_group.create",
    ServerGroupFormSchema,
    form,
    async (tx, d) => {
      const uuid = d.uuid ?? randomUUID();
      await assertServerGroupUuidFree(tx, uuid);
      const last = await tx.serverGroup.aggregate({ _max: { position: true } });
      const g = await tx.serverGroup.create({
        data: {
          uuid,
          name: d.name,
          policy: d.policy,
          rules: JSON.stringify(d.max_server_per_host !== null ? { max_server_per_host: d.max_server_per_host } : {}),
          projectId: d.project_id,
          position: (last._max.position ?? -1) + 1,
        },
      });
      return { uuid: g.uuid };
    },
    { revalidate: PATHS, message: "Server group created." },
  );
}

export async function updateServerGroup(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "server_group.update",
    ServerGroupFormSchema,
    form,
    async (tx, d) => {
      if (d.id === undefined) throw new MutationError("id", "id: is required");
      const g = existing(await tx.serverGroup.findUnique({ where: { id: d.id } }), "server group");
      const uuid = d.uuid ?? g.uuid;
      if (uuid !== g.uuid) await assertServerGroupUuidFree(tx, uuid);
      const rules = withMaxServerPerHost(g.rules, d.max_server_per_host);
      await tx.serverGroup.update({
        where: { id: g.id },
        data: { uuid, name: d.name, policy: d.policy, rules: JSON.stringify(rules), projectId: d.project_id },
      });
      return { uuid, old: g.uuid };
    },
    { revalidate: PATHS, message: "Server group saved.", redirectTo: editAt("/server-groups") },
  );
}

export async function deleteServerGroup(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return deleteAction("server_group.delete", ServerGroupIdSchema, form, {
    what: "server group",
    find: (tx, id) => tx.serverGroup.findUnique({ where: { id } }),
    // members stay, outside any group (Instance.serverGroupId is SET NULL)
    remove: (tx, id) => tx.serverGroup.delete({ where: { id } }),
    label: (g) => g.name,
    list: "/server-groups",
    revalidate: PATHS,
    message: "Server group deleted; its members are in no group now.",
  });
}
