/**
 * Trial scheduling: DB -> scenario -> engine -> stored SchedulingRun.
 *
 *   resolveRequest  the form's fields -> a scenario request (flavor and image from the DB)
 *   prepareRun      snapshot (one read transaction) + profile config + engine, nothing written
 *   insertRun       the SchedulingRun row, inside the caller's transaction (mutate())
 *   storeRunDetails its result and cloud, compactly (lib/runs/store.ts; the app
 *                   calls it after the answer is shown)
 *   runSchedule     prepare + insert + store, for scripts and tests
 *   rerunRequest    a stored run's request and profile, against today's cloud
 *
 * The engine runs with `now: performance.now` and no random source, so it
 * picks exactly what Nova's reference picks (host_subset_size and shuffling
 * need randomness; without it the best host wins and ties keep their order).
 */
import "server-only";
import { MutationError } from "@/lib/actions/mutation";
import type { Tx } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/client";
import { CloudValidationError, UnknownInRequestError, requestFromDb } from "@/lib/cloud/scenario-io";
import { ProfileNotFoundError } from "@/lib/cloud/snapshot";
import { loadSnapshotCached } from "@/lib/cloud/snapshot-cache";
import { loadSnapshotAsOf } from "@/lib/history/as-of";
import { SnapshotNotFoundError } from "@/lib/history/store";
import type { ScheduleResult } from "@/lib/scheduler";
import { processEngine } from "@/lib/core/process-engine";
import type { Scenario, ScenarioConfig, ScenarioRequest } from "@/lib/scheduler/scenario";
import { checkRequest, formToRequestParts, MAX_HOST_INSTANCES, type ScheduleForm } from "./schemas";
import { storeRunDetails, type RunDetails } from "./store";
import { scheduledFlavor } from "./move-request";

export interface PreparedRun {
  request: ScenarioRequest;
  /** profile whose config the engine used (null: no profile, Nova's defaults) */
  profileName: string | null;
  config: ScenarioConfig;
  /** exactly what the engine saw */
  scenario: Scenario;
  result: ScheduleResult;
  /** the cloud's revision the snapshot was read at */
  revision: number;
  /** hosts, aggregates and server groups (stored once per revision) */
  cloud: RunDetails["cloud"];
  /** snapshot load (or revision check), engine (incl. building host states) and toResult, in ms */
  timings: { loadMs: number; scheduleMs: number; engineMs: number; snapshotCached: boolean };
}

export interface StoredRun {
  id: number;
  createdAt: Date;
  result: ScheduleResult;
  request: ScenarioRequest;
  profileName: string | null;
  timings: PreparedRun["timings"] & { storeMs: number };
}

/** The form's values as a scenario request: flavor and image rows looked up, hints assembled. */
export async function resolveRequest(db: PrismaClient, form: ScheduleForm): Promise<ScenarioRequest> {
  let request: ScenarioRequest;
  try {
    request = await requestFromDb(db, { flavor: form.flavor, image: form.image, numInstances: form.num_instances });
  } catch (e) {
    if (e instanceof UnknownInRequestError) throw new MutationError(e.field, e.reason);
    if (e instanceof CloudValidationError) throw new MutationError(null, e.errors[0] ?? e.message);
    throw e;
  }
  Object.assign(request, formToRequestParts(form));
  if (request.server_group != null) {
    const g = await db.serverGroup.findFirst({
      where: { OR: [{ uuid: request.server_group }, { name: request.server_group }] },
      select: { uuid: true },
    });
    if (!g) throw new MutationError("server_group", `unknown server group "${request.server_group}"`);
    request.server_group = g.uuid;
  }
  const errors = checkRequest(request);
  if (errors.length) throw new MutationError(null, `invalid request: ${errors.join("; ")}`);
  return request;
}

/** Load the cloud and the profile, schedule: everything but the write. */
export async function prepareRun(
  db: PrismaClient,
  request: ScenarioRequest,
  profileName?: string,
  asOf?: number,
): Promise<PreparedRun> {
  let snap: Awaited<ReturnType<typeof loadSnapshotCached>>;
  try {
    // "as of" an older snapshot: that moment's cloud under today's profile
    snap =
      asOf !== undefined
        ? { ...(await loadSnapshotAsOf(db, asOf, { profileName })), cached: false }
        : await loadSnapshotCached(db, { profileName });
  } catch (e) {
    if (e instanceof ProfileNotFoundError)
      throw new MutationError("profile", `scheduler profile "${e.profileName}" does not exist`);
    if (e instanceof SnapshotNotFoundError) throw new MutationError("as_of", e.message);
    throw e;
  }
  const n = request.num_instances ?? 1;
  const hosts = snap.scenario.hosts.length;
  if (hosts * n > MAX_HOST_INSTANCES) {
    const max = Math.max(1, Math.floor(MAX_HOST_INSTANCES / Math.max(hosts, 1)));
    throw new MutationError(
      "num_instances",
      `at most ${max} for a cloud of ${hosts.toLocaleString("en-US")} hosts (a run explains every host for every instance)`,
    );
  }
  // A new object: the cached snapshot itself is shared and never changed.
  const scenario: Scenario = { ...snap.scenario, request };
  const t0 = performance.now();
  const engine = processEngine();
  const run = engine.schedule(scenario, { now: () => performance.now() });
  const result = engine.toResult(run);
  const scheduleMs = performance.now() - t0;
  return {
    request,
    profileName: snap.profileName,
    config: scenario.config ?? {},
    scenario,
    result,
    revision: snap.revision,
    cloud: {
      hosts: snap.scenario.hosts,
      aggregates: snap.scenario.aggregates,
      server_groups: snap.scenario.server_groups,
    },
    timings: { loadMs: snap.loadMs, scheduleMs, engineMs: result.timing.engine_ms, snapshotCached: snap.cached },
  };
}

/**
 * The SchedulingRun row of a prepared run (call inside a transaction): the
 * summary, request and config; the result and the cloud follow with
 * storeRunDetails ("null" in the old whole-JSON columns until then).
 */
export async function insertRun(
  tx: Tx | PrismaClient,
  p: PreparedRun,
): Promise<{ id: number; createdAt: Date; storeMs: number }> {
  const t0 = performance.now();
  const row = await tx.schedulingRun.create({
    data: {
      profileName: p.profileName,
      request: JSON.stringify(p.request),
      config: JSON.stringify(p.config),
      snapshot: "null",
      result: "null",
      cloudRevision: p.revision,
      flavorName: scheduledFlavor(p.request)?.name ?? "",
      numInstances: p.request.num_instances ?? 1,
      error: p.result.error,
      chosenHosts: JSON.stringify(p.result.selections.map((s) => s.host)),
      hostCount: p.scenario.hosts.length,
      engineMs: p.result.timing.engine_ms,
    },
    select: { id: true, createdAt: true },
  });
  return { ...row, storeMs: performance.now() - t0 };
}

/** Schedule `request` against the cloud in `db` with a profile (default: the active one) and store the run. */
export async function runSchedule(
  request: ScenarioRequest,
  profileName?: string,
  opts: { db?: PrismaClient } = {},
): Promise<StoredRun> {
  const db = opts.db ?? (await import("@/lib/db")).prisma;
  const p = await prepareRun(db, request, profileName);
  const row = await db.$transaction((tx) => insertRun(tx, p));
  await storeRunDetails(db, row.id, runDetails(p));
  return {
    id: row.id,
    createdAt: row.createdAt,
    result: p.result,
    request: p.request,
    profileName: p.profileName,
    timings: { ...p.timings, storeMs: row.storeMs },
  };
}

/** What storeRunDetails keeps of a prepared run. */
export function runDetails(p: PreparedRun): RunDetails {
  return { result: p.result, cloud: p.cloud, revision: p.revision, scenario: p.scenario };
}

/**
 * A stored run's request and profile for a re-run against today's cloud:
 * the flavor and image are looked up again (today's definitions; the stored
 * ones when they were deleted), the profile by name (today's config).
 */
export async function rerunRequest(
  db: PrismaClient,
  runId: number,
): Promise<{ request: ScenarioRequest; profileName?: string }> {
  const run = await db.schedulingRun.findUnique({ where: { id: runId }, select: { request: true, profileName: true } });
  if (!run) throw new MutationError(null, `run #${runId} does not exist`);
  const request = JSON.parse(run.request) as ScenarioRequest;
  if (request.operation)
    throw new MutationError(null, `run #${runId} is a ${request.operation}: trial it again from its instance's page`);
  try {
    const fresh = await requestFromDb(db, { flavor: request.flavor.name, image: request.image?.id ?? undefined });
    request.flavor = fresh.flavor;
    if (fresh.image) request.image = fresh.image;
  } catch (e) {
    if (!(e instanceof CloudValidationError)) throw e;
    // deleted since: schedule the stored definitions
  }
  if (run.profileName !== null) {
    const exists = await db.schedulerProfile.findUnique({ where: { name: run.profileName }, select: { id: true } });
    if (!exists)
      throw new MutationError(
        null,
        `run #${runId} used scheduler profile "${run.profileName}", which no longer exists`,
      );
    return { request, profileName: run.profileName };
  }
  return { request };
}
