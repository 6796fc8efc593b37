/**
 * Commit placement: put a successful run's instances on its chosen hosts.
 *
 * ONE transaction that
 *   1. claims the run (UPDATE ... WHERE committedAt IS NULL): a run commits
 *      once. Being the transaction's first statement, it also takes SQLite's
 *      write lock before anything is read, so a second committer (another
 *      connection, another process) waits until this one is done and then
 *      reads the hosts as this one left them: an IMMEDIATE transaction in effect;
 *      in-process, the driver adapter runs interactive transactions one at a time;
 *   2. finds the compute node each selection names (a service host with
 *      several nodes, Ironic's, has one row per node: Nova's Selection names
 *      host and node, and the node's resources are the ones consumed),
 *      locks those rows (lib/db/lock.ts: on PostgreSQL the
 *      claim locks only the run's row, and READ COMMITTED would let two
 *      commits read the same free room), then re-reads them and re-checks
 *      capacity (free vCPU / RAM / disk under the allocation ratios, service
 *      enabled and up) for everything this run puts on each host;
 *   3. consumes what each instance holds (lib/cloud/usage.ts: VCPU or PCPU,
 *      memory, disk, other classes, num_instances, NUMA cells, PCI devices) and creates the
 *      Instance rows (uuid, host, flavor, image, project, server group).
 * Any failure rolls the whole thing back, including the claim.
 *
 * num_io_ops is not raised: it counts instances in a build/resize/migration
 * task state, and a committed placement is a finished one.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { MutationError } from "@/lib/actions/mutation";
import type { Tx } from "@/lib/db/client";
import { bumpCloudRevision } from "@/lib/cloud/revision";
import type { PrismaClient } from "@/lib/db/client";
import type { ScenarioRequest } from "@/lib/scheduler/scenario";
import { capacityProblem, demandOn, HOST_CAPACITY_SELECT, type HostCapacity } from "./commit-room";
import { editUsage, pciAliases } from "@/lib/cloud/usage-row";
import { takeInstance } from "@/lib/cloud/usage";
import type { ScheduleResult } from "@/lib/scheduler/result";
import type { ScenarioConfig } from "@/lib/scheduler/scenario";
import { readRunColumn } from "./store";
import { lockHosts } from "../db/lock";
import { selectedRows } from "./selected-rows";
import type { Target } from "@/lib/audit/trail";

export interface CommittedInstance {
  index: number;
  uuid: string;
  name: string;
  host: string;
  /** the compute node, when its service host has several (Ironic) */
  node?: string;
}

export interface CommitOutcome {
  runId: number;
  committedAt: Date;
  instances: CommittedInstance[];
}

export async function commitRunTx(tx: Tx, runId: number): Promise<CommitOutcome> {
  const committedAt = new Date();
  // 1. claim (first statement: takes the write lock)
  const claimed = await tx.schedulingRun.updateMany({
    where: { id: runId, committedAt: null, error: null },
    data: { committedAt },
  });
  const run = await tx.schedulingRun.findUnique({
    where: { id: runId },
    select: {
      request: true,
      config: true,
      chosenHosts: true,
      error: true,
      committedAt: true,
      flavorName: true,
      cloudRevision: true,
    },
  });
  if (!run) throw new MutationError(null, `Run #${runId} does not exist.`);
  // a run made "as of" an older snapshot (lib/history/as-of.ts) placed on that cloud, not today's
  if (run.cloudRevision !== null && run.cloudRevision < 0)
    throw new MutationError(
      null,
      `Run #${runId} was made as of snapshot #${-run.cloudRevision}, not on today's cloud: run it again on today's cloud to commit.`,
    );
  if (claimed.count === 0) {
    if (run.error)
      throw new MutationError(null, `Run #${runId} found no host (${run.error}): there is nothing to commit.`);
    throw new MutationError(
      null,
      `Run #${runId} was already committed (${run.committedAt?.toISOString() ?? "earlier"}); it cannot be committed twice.`,
    );
  }
  const request = JSON.parse(run.request) as ScenarioRequest;
  if (request.operation)
    throw new MutationError(
      null,
      `Run #${runId} is a ${request.operation} of an existing instance: commit it from the instance's page.`,
    );
  const chosen = JSON.parse(run.chosenHosts) as string[];
  if (!chosen.length) throw new MutationError(null, `Run #${runId} chose no host: there is nothing to commit.`);

  // 2. the row of each selected node; re-check capacity for everything this
  // run puts on each, read under the rows' locks (PostgreSQL locks rows, not the database)
  const { rowNames, nodes } = await selectedRows(tx, runId, chosen);
  const perHost = new Map<string, number>();
  for (const h of rowNames) perHost.set(h, (perHost.get(h) ?? 0) + 1);
  await lockHosts(tx, perHost.keys());
  const hosts = await tx.computeHost.findMany({
    where: { name: { in: [...perHost.keys()] } },
    select: { ...HOST_CAPACITY_SELECT, pcpus: true },
  });
  const byName = new Map(hosts.map((h) => [h.name, h]));
  const problems: string[] = [];
  for (const [name, count] of perHost) {
    const h = byName.get(name);
    if (!h) {
      problems.push(`${name} no longer exists`);
      continue;
    }
    const why = capacityProblem(h as HostCapacity, demandOn(request.flavor, h, count));
    if (why) problems.push(`${name} cannot take ${count} × ${request.flavor.name} any more (${why})`);
  }
  if (problems.length) {
    throw new MutationError(
      null,
      `Run #${runId} was not committed: ${problems.join("; ")}. Another placement may have used the room since this run; re-run it against today's cloud.`,
    );
  }

  // 3. consume (what the scheduler's consume step placed: NUMA cells, PCI
  // devices, child providers; lib/cloud/usage.ts) and create the instances
  const stored = await readRunColumn(tx, runId, "result");
  const result = stored ? (JSON.parse(stored) as ScheduleResult) : null;
  const aliases = pciAliases(JSON.parse(run.config) as ScenarioConfig);
  for (const [index, name] of rowNames.entries()) {
    const sel = result?.selections?.[index];
    const claim = result?.placement?.claims?.find((c) => c.index === index);
    await editUsage(tx, byName.get(name)!.id, (h) =>
      takeInstance(h, request.flavor, { numa: sel?.numa, pci: sel?.pci, allocations: claim?.allocations }, aliases),
    );
  }
  const [flavor, image, group] = await Promise.all([
    tx.flavor.findUnique({ where: { name: request.flavor.name }, select: { id: true } }),
    request.image?.id ? tx.image.findUnique({ where: { uuid: request.image.id }, select: { id: true } }) : null,
    request.server_group
      ? tx.serverGroup.findFirst({
          where: { OR: [{ uuid: request.server_group }, { name: request.server_group }] },
          select: { id: true },
        })
      : null,
  ]);
  const instances: CommittedInstance[] = chosen.map((host, index) => ({
    index,
    uuid: randomUUID(),
    name: `${request.flavor.name}-run${runId}-${index + 1}`,
    host,
    ...(nodes[index] !== undefined ? { node: nodes[index] } : {}),
  }));
  await tx.instance.createMany({
    data: instances.map((i) => ({
      uuid: i.uuid,
      name: i.name,
      hostId: byName.get(rowNames[i.index])!.id,
      flavorId: flavor?.id ?? null,
      imageId: image?.id ?? null,
      projectId: request.project_id ?? null,
      serverGroupId: group?.id ?? null,
    })),
  });
  await tx.schedulingRun.update({ where: { id: runId }, data: { committedInstances: JSON.stringify(instances) } });
  return { runId, committedAt, instances };
}

export type CommitResult = { ok: true; outcome: CommitOutcome } | { ok: false; message: string };

/** commitRunTx in its own transaction, a refusal as a message (scripts and tests; the app goes through mutate()). */
export async function commitRun(db: PrismaClient, runId: number): Promise<CommitResult> {
  try {
    const outcome = await db.$transaction(
      async (tx) => {
        const out = await commitRunTx(tx, runId);
        await bumpCloudRevision(tx); // what mutate() does for the app
        return out;
      },
      // maxWait: under load a commit waits its turn for a connection / the lock rather than fail
      { timeout: 30_000, maxWait: 60_000 },
    );
    return { ok: true, outcome };
  } catch (e) {
    if (e instanceof MutationError) return { ok: false, message: e.message };
    throw e;
  }
}

/**
 * What a commit of run `runId` touches, for its audit entry: the run and the
 * rows of the nodes it selected (a service host may have several), locked
 * first, so their "before" is read under the commit's locks.
 */
export async function runCommitTargets(tx: Tx, runId: number): Promise<Target[]> {
  const run = await tx.schedulingRun.findUnique({ where: { id: runId }, select: { chosenHosts: true } });
  const chosen = run ? (JSON.parse(run.chosenHosts) as string[]) : [];
  const hosts = [...new Set((await selectedRows(tx, runId, chosen)).rowNames)];
  await lockHosts(tx, hosts);
  return [{ kind: "run", ref: { id: runId } }, ...hosts.map((name): Target => ({ kind: "host", ref: { name } }))];
}
