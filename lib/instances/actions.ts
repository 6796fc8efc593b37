"use server";

import { randomUUID } from "node:crypto";
import { redirect } from "next/navigation";
import { existing, formToObject, MutationError, mutate, type ActionResult } from "@/lib/actions/mutation";
import { InstanceFormSchema, InstanceIdSchema, MoveCommitSchema, type MoveCommitInput } from "@/lib/cloud/form-schemas";
import { prisma } from "@/lib/db";
import type { PreparedRun } from "@/lib/runs/schedule";
import { commitMoveTx, type MoveOutcome, moveTargets, prepareMoveCommit } from "./move";
import { assertInstanceUuidFree, resolveInstanceRefs } from "./rules";

const PATHS = ["/instances", "/server-groups"];

export async function createInstance(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  return mutate(
    "instance.create",
    InstanceFormSchema,
    formToObject(form),
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
  const result = await mutate(
    "instance.update",
    InstanceFormSchema,
    formToObject(form),
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
    { revalidate: PATHS, message: "Instance saved." },
  );
  if (result.ok && result.data.uuid !== result.data.old)
    redirect(`/instances?edit=${encodeURIComponent(result.data.uuid)}`);
  return result;
}

export async function deleteInstance(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await mutate(
    "instance.delete",
    InstanceIdSchema,
    formToObject(form),
    async (tx, d) => {
      const inst = existing(await tx.instance.findUnique({ where: { id: d.id } }), "instance");
      await tx.instance.delete({ where: { id: inst.id } });
      return { label: inst.name ?? inst.uuid };
    },
    { revalidate: PATHS, message: "Instance deleted." },
  );
  if (result.ok) redirect(`/instances?deleted=${encodeURIComponent(result.data.label)}`);
  return result;
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
  return mutate(
    "instance.move",
    MoveCommitSchema,
    input,
    (tx, d, prepared: PreparedRun) => commitMoveTx(tx, d, prepared),
    {
      prepare: (d) => prepareMoveCommit(prisma, d),
      targets: (tx, d) => moveTargets(tx, d.id, d.destination),
      revalidate: [...PATHS, `/instances/${encodeURIComponent(input.uuid ?? "")}`, "/hosts", "/"],
      message: "Instance moved.",
    },
  );
}
