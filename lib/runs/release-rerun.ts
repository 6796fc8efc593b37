/**
 * The same request under another Nova release: a stored run's scenario (the
 * cloud as it was, the request, the profile's config) scheduled again with
 * only `nova_release` changed, so /runs/compare shows what the release alone
 * changes. Nothing written here (the action stores the run).
 */
import { MutationError } from "@/lib/actions/mutation";
import type { Db } from "@/lib/db/client";
import { processEngine } from "@/lib/core/process-engine";
import { NOVA_RELEASES } from "@/lib/scheduler/releases";
import type { Scenario, ScenarioConfig } from "@/lib/scheduler/scenario";
import { readCloudRevision } from "@/lib/cloud/revision";
import type { PreparedRun } from "./schedule";
import { readRunColumn } from "./store";

export function checkRelease(release: string): string | null {
  return (NOVA_RELEASES as readonly string[]).includes(release)
    ? null
    : `release: must be a known Nova release (${NOVA_RELEASES.join(", ")}), got "${release}"`;
}

export async function prepareReleaseRerun(db: Db, runId: number, release: string): Promise<PreparedRun> {
  const bad = checkRelease(release);
  if (bad) throw new MutationError("release", bad);
  const run = await db.schedulingRun.findUnique({
    where: { id: runId },
    select: { profileName: true, cloudRevision: true },
  });
  const text = run ? await readRunColumn(db, runId, "snapshot") : null;
  if (!run || text === null) throw new MutationError(null, `run #${runId} does not exist`);
  const stored = JSON.parse(text) as Scenario;
  const config: ScenarioConfig = { ...(stored.config ?? {}), nova_release: release };
  const scenario: Scenario = { ...stored, config };
  const t0 = performance.now();
  const engine = processEngine();
  const result = engine.toResult(engine.schedule(scenario, { now: () => performance.now() }));
  const { hosts, aggregates, server_groups } = stored;
  return {
    request: scenario.request,
    profileName: run.profileName,
    config,
    scenario,
    result,
    // the cloud as the original run saw it (runs stored whole predate revisions: today's number)
    revision: run.cloudRevision ?? (await readCloudRevision(db)),
    cloud: { hosts, aggregates, server_groups },
    timings: {
      loadMs: 0,
      scheduleMs: performance.now() - t0,
      engineMs: result.timing.engine_ms,
      snapshotCached: false,
    },
  };
}
