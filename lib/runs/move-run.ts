/**
 * A move of a stored instance scheduled as a run (a trial, a re-run, the
 * check before a commit): the instance as it is now, on today's cloud.
 * lib/instances commits it.
 */
import "server-only";
import type { z } from "zod";
import { MutationError } from "@/lib/actions/mutation";
import type { MoveTrialSchema } from "@/lib/cloud/form-schemas";
import { CloudValidationError, requestFromDb } from "@/lib/cloud/scenario-io";
import type { PrismaClient } from "@/lib/db/client";
import type { ScenarioRequest } from "@/lib/scheduler/scenario";
import { moveRequest, resizeRefusedByDriver } from "./move-request";
import { prepareRun, type PreparedRun } from "./schedule";

export type MoveTrial = z.output<typeof MoveTrialSchema>;

/** The move of the stored instance `d.uuid`, in the scenario format; unknown names are field errors. */
export async function resolveMoveRequest(db: PrismaClient, d: MoveTrial): Promise<ScenarioRequest> {
  const inst = await db.instance.findUnique({
    where: { uuid: d.uuid },
    select: {
      uuid: true,
      projectId: true,
      host: { select: { name: true, serviceHost: true, hypervisorHostname: true } },
      flavor: { select: { name: true } },
      image: { select: { uuid: true } },
    },
  });
  if (!inst) throw new MutationError("uuid", `uuid: no instance has uuid ${d.uuid}`);
  if (!inst.host) throw new MutationError("uuid", `uuid: instance ${d.uuid} is on no host: there is nothing to move`);
  if (!inst.flavor)
    throw new MutationError("uuid", `uuid: instance ${d.uuid} has no flavor: Nova moves an instance with its flavor`);
  let current: ScenarioRequest;
  try {
    current = await requestFromDb(db, { flavor: inst.flavor.name, image: inst.image?.uuid });
  } catch (e) {
    if (e instanceof CloudValidationError) throw new MutationError("uuid", `uuid: ${e.errors[0] ?? e.message}`);
    throw e;
  }
  let flavor = null;
  if (d.operation === "resize" && d.flavor) {
    try {
      flavor = (await requestFromDb(db, { flavor: d.flavor })).flavor;
    } catch (e) {
      if (e instanceof CloudValidationError)
        throw new MutationError("flavor", `flavor: no flavor is named "${d.flavor}"`);
      throw e;
    }
  }
  return moveRequest(
    {
      uuid: inst.uuid,
      host: { name: inst.host.serviceHost ?? inst.host.name, node: inst.host.hypervisorHostname },
      flavor: current.flavor,
      image: current.image,
      projectId: inst.projectId,
    },
    { operation: d.operation, flavor, target_host: d.target_host },
  );
}

/** Schedule the move on today's cloud (nothing written). A move our request got wrong is refused, not stored. */
export async function prepareMoveRun(db: PrismaClient, d: MoveTrial, profileName?: string): Promise<PreparedRun> {
  const p = await prepareRun(db, await resolveMoveRequest(db, d), profileName);
  if (p.result.error === "ScenarioError")
    throw new MutationError(null, p.result.message ?? "the move is not well formed");
  const refused = resizeRefusedByDriver(p.request);
  if (refused && !p.result.error) {
    const note = `modelled from Nova's code, not checked against it: ${refused}`;
    p.result.not_checked = p.result.not_checked ? `${p.result.not_checked}; ${note}` : note;
  }
  return p;
}

/**
 * A stored run's move and profile, to schedule it again against today's
 * cloud: the instance as it is now (it may have moved since), the same
 * operation, new flavor and target host. null for a boot.
 */
export async function moveOfRun(
  db: PrismaClient,
  runId: number,
): Promise<{ move: MoveTrial; profileName?: string } | null> {
  const run = await db.schedulingRun.findUnique({ where: { id: runId }, select: { request: true, profileName: true } });
  if (!run) return null;
  const r = JSON.parse(run.request) as ScenarioRequest;
  if (!r.operation || !r.instance) return null;
  if (r.operation === "unshelve")
    throw new MutationError(null, `run #${runId} is an unshelve: not offered on instances`);
  return {
    move: {
      uuid: r.instance.uuid,
      operation: r.operation,
      flavor: r.operation === "resize" ? (r.flavor?.name ?? null) : null,
      target_host: r.target_host ?? null,
    },
    ...(run.profileName !== null ? { profileName: run.profileName } : {}),
  };
}
