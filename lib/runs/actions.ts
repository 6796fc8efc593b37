"use server";

import { recordId } from "@/lib/core/record-id";
import { after } from "next/server";
import { z } from "zod";
import { mutate, type ActionResult } from "@/lib/actions/mutation";
import { prisma } from "@/lib/db";
import { rememberRun } from "@/lib/runs/cache";
import { commitRunTx, type CommitOutcome, runCommitTargets } from "@/lib/runs/commit";
import { prepareReleaseRerun } from "@/lib/runs/release-rerun";
import { insertRun, prepareRun, rerunRequest, resolveRequest, runDetails, type PreparedRun } from "@/lib/runs/schedule";
import { ScheduleFormSchema, type ScheduleFormInput } from "@/lib/runs/schemas";
import { storeRunDetailsLater } from "@/lib/runs/store";
import { buildRunView, type RunMeta, type RunView } from "@/lib/runs/view";
import { MoveTrialSchema, type MoveTrialInput } from "@/lib/cloud/form-schemas";
import { moveOfRun, prepareMoveRun } from "@/lib/runs/move-run";
import { scheduledFlavor } from "@/lib/runs/move-request";

export interface ScheduleOutcome {
  meta: RunMeta;
  view: RunView;
}

/**
 * Schedule the form's request against today's cloud and store the run.
 * Once the user is authorized and the form valid, the cloud is read (from
 * memory while its revision is unchanged) and the engine run before the
 * write transaction, which inserts the small run row only; the result and
 * the cloud are stored after the response. Nothing
 * to revalidate: the pages that list runs are dynamic, and revalidating
 * would re-render /schedule for nothing.
 */
export async function scheduleAction(input: ScheduleFormInput): Promise<ActionResult<ScheduleOutcome>> {
  const t0 = performance.now();
  const res = await storeNewRun("schedule.run", ScheduleFormSchema, input, async (form) =>
    prepareRun(prisma, await resolveRequest(prisma, form), form.profile, form.as_of),
  );
  return res.ok ? { ok: true, data: outcomeOf(res.data, t0) } : res;
}

/**
 * Trial a move of a stored instance (resize, migrate, live-migrate,
 * evacuate) on today's cloud: stored as a run, shown as a boot trial is.
 */
export async function trialMoveAction(input: MoveTrialInput): Promise<ActionResult<ScheduleOutcome>> {
  const t0 = performance.now();
  const res = await storeNewRun("instance.move-trial", MoveTrialSchema, input, (d) => prepareMoveRun(prisma, d));
  return res.ok ? { ok: true, data: outcomeOf(res.data, t0) } : res;
}

function outcomeOf(
  { id, createdAt, storeMs, prepared: p }: { id: number; createdAt: Date; storeMs: number; prepared: PreparedRun },
  t0: number,
): ScheduleOutcome {
  const meta: RunMeta = {
    id,
    createdAt: createdAt.toISOString(),
    profileName: p.profileName,
    flavorName: scheduledFlavor(p.request)?.name ?? "",
    numInstances: p.request.num_instances ?? 1,
    hostCount: p.scenario.hosts.length,
    engineMs: p.result.timing.engine_ms,
    committedAt: null,
    committedInstances: null,
    request: p.request,
    timings: { ...p.timings, storeMs, totalMs: performance.now() - t0 },
  };
  return { meta, view: buildRunView(p.result, p.request, p.scenario.config) };
}

/**
 * A new run through the one mutation wrapper: authorized and validated
 * before the scheduler runs (`prepare`), the small run row inserted in the
 * transaction, the result kept in memory for the views and written in full
 * once the answer is on its way.
 */
async function storeNewRun<S extends z.ZodType>(
  action: "schedule.run" | "run.rerun" | "run.rerun-release" | "instance.move-trial",
  schema: S,
  input: unknown,
  prepare: (data: z.output<S>) => Promise<PreparedRun>,
) {
  const res = await mutate(
    action,
    schema,
    input,
    async (tx, _data, prepared: PreparedRun) => ({ ...(await insertRun(tx, prepared)), prepared }),
    { changesCloud: false, prepare },
  );
  if (res.ok) {
    rememberRun(res.data.id, res.data.prepared.result, res.data.prepared.request);
    storeRunDetailsLater(prisma, res.data.id, runDetails(res.data.prepared), after);
  }
  return res;
}

const RunIdSchema = z.object({ runId: recordId("runId", "a run id") });

/** Place the run's instances on its chosen hosts (one transaction that re-checks capacity). */
export async function commitRunAction(runId: number): Promise<ActionResult<CommitOutcome>> {
  return mutate("run.commit", RunIdSchema, { runId }, (tx, d) => commitRunTx(tx, d.runId), {
    targets: (tx, d) => runCommitTargets(tx, d.runId),
    revalidate: ["/runs", `/runs/${runId}`, "/hosts", "/"],
    message: "Placement committed",
  });
}

/** Schedule a stored run's request again, against today's cloud and profile: a new run. */
export async function rerunAction(runId: number): Promise<ActionResult<{ runId: number; previous: number }>> {
  const res = await storeNewRun("run.rerun", RunIdSchema, { runId }, async (d) => {
    // a move is scheduled again for its instance as it is now
    const moved = await moveOfRun(prisma, d.runId);
    if (moved) return prepareMoveRun(prisma, moved.move, moved.profileName);
    const { request, profileName } = await rerunRequest(prisma, d.runId);
    return prepareRun(prisma, request, profileName);
  });
  return res.ok ? { ok: true, data: { runId: res.data.id, previous: runId } } : res;
}

const ReleaseRerunSchema = z.object({
  runId: recordId("runId", "a run id"),
  release: z.string({ error: "release: is required" }).trim().min(1, { error: "release: is required" }),
});

/**
 * The stored run's scenario again, under another Nova release (nothing else
 * changes: same cloud snapshot, request and profile config); the new run is
 * stored and compared with the original on /runs/compare.
 */
export async function rerunUnderReleaseAction(
  runId: number,
  release: string,
): Promise<ActionResult<{ runId: number; previous: number }>> {
  const res = await storeNewRun("run.rerun-release", ReleaseRerunSchema, { runId, release }, (d) =>
    prepareReleaseRerun(prisma, d.runId, d.release),
  );
  return res.ok ? { ok: true, data: { runId: res.data.id, previous: runId } } : res;
}
