"use server";

import { after } from "next/server";
import { z } from "zod";
import { mutate, MutationError, type ActionResult } from "@/lib/actions/mutation";
import { prisma } from "@/lib/db";
import { rememberRun } from "@/lib/runs/cache";
import { commitRunTx, type CommitOutcome } from "@/lib/runs/commit";
import { prepareReleaseRerun } from "@/lib/runs/release-rerun";
import { insertRun, prepareRun, rerunRequest, resolveRequest, runDetails, type PreparedRun } from "@/lib/runs/schedule";
import { ScheduleFormSchema, type ScheduleFormInput } from "@/lib/runs/schemas";
import { storeRunDetailsLater } from "@/lib/runs/store";
import { buildRunView, type RunMeta, type RunView } from "@/lib/runs/view";

export interface ScheduleOutcome {
  meta: RunMeta;
  view: RunView;
}

/**
 * Schedule the form's request against today's cloud and store the run.
 * The cloud is read (from memory while its revision is unchanged) and the
 * engine run before the write transaction, which inserts the small run row
 * only; the result and the cloud are stored after the response. Nothing
 * to revalidate: the pages that list runs are dynamic, and revalidating
 * would re-render /schedule for nothing.
 */
export async function scheduleAction(input: ScheduleFormInput): Promise<ActionResult<ScheduleOutcome>> {
  const t0 = performance.now();
  const parsed = ScheduleFormSchema.safeParse(input);
  let prepared: PreparedRun | null = null;
  let refused: MutationError | null = null;
  if (parsed.success) {
    try {
      const request = await resolveRequest(prisma, parsed.data);
      prepared = await prepareRun(prisma, request, parsed.data.profile);
    } catch (e) {
      if (!(e instanceof MutationError)) throw e;
      refused = e;
    }
  }
  const res = await mutate(
    "schedule.run",
    ScheduleFormSchema,
    input,
    async (tx) => {
      if (refused) throw refused;
      return insertRun(tx, prepared!);
    },
    { changesCloud: false },
  );
  if (!res.ok) return res;
  const p = prepared!;
  const { id, createdAt, storeMs } = res.data;
  rememberRun(id, p.result, p.request);
  // The result and the cloud are written once the answer is on its way.
  storeRunDetailsLater(prisma, id, runDetails(p), after);
  const meta: RunMeta = {
    id,
    createdAt: createdAt.toISOString(),
    profileName: p.profileName,
    flavorName: p.request.flavor.name,
    numInstances: p.request.num_instances ?? 1,
    hostCount: p.scenario.hosts.length,
    engineMs: p.result.timing.engine_ms,
    committedAt: null,
    committedInstances: null,
    request: p.request,
    timings: { ...p.timings, storeMs, totalMs: performance.now() - t0 },
  };
  return { ok: true, data: { meta, view: buildRunView(p.result, p.request, p.scenario.config) } };
}

const RunIdSchema = z.object({
  runId: z.coerce
    .number({ error: "must be a run id" })
    .int({ error: "must be a run id" })
    .positive({ error: "must be a run id" }),
});

/** Place the run's instances on its chosen hosts (one transaction that re-checks capacity). */
export async function commitRunAction(runId: number): Promise<ActionResult<CommitOutcome>> {
  return mutate("run.commit", RunIdSchema, { runId }, (tx, d) => commitRunTx(tx, d.runId), {
    revalidate: ["/runs", `/runs/${runId}`, "/hosts", "/"],
    message: "Placement committed",
  });
}

/** Schedule a stored run's request again, against today's cloud and profile: a new run. */
export async function rerunAction(runId: number): Promise<ActionResult<{ runId: number; previous: number }>> {
  const parsed = RunIdSchema.safeParse({ runId });
  let prepared: PreparedRun | null = null;
  let refused: MutationError | null = null;
  if (parsed.success) {
    try {
      const { request, profileName } = await rerunRequest(prisma, parsed.data.runId);
      prepared = await prepareRun(prisma, request, profileName);
    } catch (e) {
      if (!(e instanceof MutationError)) throw e;
      refused = e;
    }
  }
  const res = await mutate(
    "run.rerun",
    RunIdSchema,
    { runId },
    async (tx) => {
      if (refused) throw refused;
      return insertRun(tx, prepared!);
    },
    { changesCloud: false },
  );
  if (!res.ok) return res;
  rememberRun(res.data.id, prepared!.result, prepared!.request);
  storeRunDetailsLater(prisma, res.data.id, runDetails(prepared!), after);
  return { ok: true, data: { runId: res.data.id, previous: runId } };
}

const ReleaseRerunSchema = z.object({
  runId: z.coerce.number({ error: "runId: must be a run id" }).int({ error: "runId: must be a run id" }).min(1, {
    error: "runId: must be a run id",
  }),
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
  const parsed = ReleaseRerunSchema.safeParse({ runId, release });
  let prepared: PreparedRun | null = null;
  let refused: MutationError | null = null;
  if (parsed.success) {
    try {
      prepared = await prepareReleaseRerun(prisma, parsed.data.runId, parsed.data.release);
    } catch (e) {
      if (!(e instanceof MutationError)) throw e;
      refused = e;
    }
  }
  const res = await mutate(
    "run.rerun-release",
    ReleaseRerunSchema,
    { runId, release },
    async (tx) => {
      if (refused) throw refused;
      return insertRun(tx, prepared!);
    },
    { changesCloud: false },
  );
  if (!res.ok) return res;
  rememberRun(res.data.id, prepared!.result, prepared!.request);
  storeRunDetailsLater(prisma, res.data.id, runDetails(prepared!), after);
  return { ok: true, data: { runId: res.data.id, previous: runId } };
}
