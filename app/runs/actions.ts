"use server";

import { after } from "next/server";
import { z } from "zod";
import { mutate, MutationError, type ActionResult } from "@/lib/actions/mutation";
import { prisma } from "@/lib/db";
import { rememberRun } from "@/lib/runs/cache";
import { commitRunTx, type CommitOutcome } from "@/lib/runs/commit";
import { insertRun, prepareRun, rerunRequest, runDetails, type PreparedRun } from "@/lib/runs/schedule";
import { storeRunDetailsLater } from "@/lib/runs/store";

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
