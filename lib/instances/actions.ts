"use server";

import { randomUUID } from "node:crypto";
import { deleteAction, editAt, formAction } from "@/lib/actions/form-action";
import { existing, MutationError, mutate, type ActionResult } from "@/lib/actions/mutation";
import { InstanceFormSchema, InstanceIdSchema, MoveCommitSchema, type MoveCommitInput } from "@/lib/cloud/form-schemas";
import { prisma } from "@/lib/db";
import type { PreparedRun } from "@/lib/runs/schedule";
import { commitMoveTx, type MoveOutcome, moveTargets, prepareMoveCommit } from "./move";
import { assertInstanceUuidFree, resolveInstanceRefs } from "./rules";

const PATHS = ["/instances", "/server-groups"];

export async function createInstance(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "instance.create",
    InstanceFormSchema,
    form,
    async (tx, d) => {
      const uuid = d.uuid ?? randomUUID();
      await assertInstanceUuidFree(tx, uuid);
      const refs = await resolveInstanceRefs(tx, d);
      await tx.instance.create({ data: { uuid, name: d.name, projectId: d.project_id, ...refs } });
      return { uuid };
    },
    { revalidate: PATHS, message: "Instance created." },
  );
}

export async function updateInstance(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return formAction(
    "instance.update",
    InstanceFormSchema,
    form,
    async (tx, d) => {
      if (d.id === undefined) throw new MutationError("id", "id: is required");
      const inst = existing(await tx.instance.findUnique({ where: { id: d.id } }), "instance");
      const uuid = d.uuid ?? inst.uuid;
      if (uuid !== inst.uuid) await assertInstanceUuidFree(tx, uuid);
      const refs = await resolveInstanceRefs(tx, d);
      await tx.instance.update({
        where: { id: inst.id },
        data: { uuid, name: d.name, projectId: d.project_id, ...refs },
      });
      return { uuid, old: inst.uuid };
    },
    { revalidate: PATHS, message: "Instance saved.", redirectTo: editAt("/instances") },
  );
}

export async function deleteInstance(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return deleteAction("instance.delete", InstanceIdSchema, form, {
    what: "instance",
    find: (tx, id) => tx.instance.findUnique({ where: { id } }),
    remove: (tx, id) => tx.instance.delete({ where: { id } }),
    label: (inst) => inst.name ?? inst.uuid,
    list: "/instances",
    revalidate: PATHS,
    message: "Instance deleted.",
  });
}

/**
 * Commit a move (a virtual migration): scheduled again on today's cloud
 * before the transaction, refused unless it still picks the destination
 * the trial showed; then the instance, its flavor on a resize, and the
 * usage of both hosts change in one audited, version-checked write.
 */
export async function commitMoveAction(
  input: MoveCommitInput & { version?: number },
): Promise<ActionResult<MoveOutcome>> {
  // the input is read only after mutate() has checked its shape
  const uuid = typeof input === "object" && input !== null && typeof input.uuid === "string" ? input.uuid : "";
  return mutate(
    "instance.move",
    MoveCommitSchema,
    input,
    (tx, d, prepared: PreparedRun) => commitMoveTx(tx, d, prepared),
    {
      prepare: (d) => prepareMoveCommit(prisma, d),
      targets: (tx, d) => moveTargets(tx, d.id, d.destination),
      revalidate: [...PATHS, `/instances/${encodeURIComponent(uuid)}`, "/hosts", "/"],
      message: "Instance moved.",
    },
  );
}
