/**
 * The commit of a move of a stored instance (its trial is a run:
 * lib/runs/move-run.ts), a virtual migration that
 * schedules the move again on the current snapshot (the client's chosen
 * host is only compared with the new answer, never used), re-checks the
 * destination's room under the hosts' locks, and moves the instance and
 * everything it holds: the source gives back the old flavor's Placement
 * classes (VCPU or PCPU, RAM, disk, vGPUs...), NUMA cells and PCI devices,
 * the destination takes the new flavor's as the scheduler placed them, as
 * a boot commit does (lib/cloud/usage.ts).
 */
import "server-only";
import { MutationError, existing } from "@/lib/actions/mutation";
import type { Tx } from "@/lib/db/client";
import type { Target } from "@/lib/audit/trail";
import type { MoveCommitSchema } from "@/lib/cloud/form-schemas";
import type { PrismaClient } from "@/lib/db/client";
import { capacityProblem, demandOn, HOST_CAPACITY_SELECT, type HostCapacity } from "@/lib/runs/commit-room";
import { editUsage, pciAliases } from "@/lib/cloud/usage-row";
import { giveBackInstance, takeInstance } from "@/lib/cloud/usage";
import { lockHosts } from "@/lib/db/lock";
import type { PreparedRun } from "@/lib/runs/schedule";
import type { z } from "zod";
import { prepareMoveRun } from "@/lib/runs/move-run";
import { resizeRefusedByDriver } from "@/lib/runs/move-request";

type MoveCommit = z.output<typeof MoveCommitSchema>;

/** The move scheduled again for a commit: it must still find the destination the trial showed. */
export async function prepareMoveCommit(db: PrismaClient, d: MoveCommit): Promise<PreparedRun> {
  const p = await prepareMoveRun(db, d);
  if (p.result.error) {
    const why = p.result.diagnosis?.summary ?? p.result.message ?? p.result.error;
    throw new MutationError(
      null,
      `Not moved: on today's cloud the ${d.operation} fails (${why}). Run the trial again.`,
    );
  }
  const refused = resizeRefusedByDriver(p.request);
  if (refused) throw new MutationError(null, `Not moved: ${refused}`);
  const sel = p.result.selections[0];
  if (sel.host !== d.destination)
    throw new MutationError(
      "destination",
      `destination: on today's cloud Nova sends the instance to ${sel.host}, not ${d.destination}; run the trial again`,
    );
  return p;
}

export interface MoveOutcome {
  uuid: string;
  operation: string;
  from: string;
  to: string;
  /** the compute node, where it is not the host's own name (a host with several nodes) */
  node: string | null;
  flavor: string;
}

/** The host row of a Selection: by service host and node (a second node's row is named by its node). */
async function rowOf(tx: Tx, host: string, node: string) {
  const rows = await tx.computeHost.findMany({
    where: { hypervisorHostname: node, OR: [{ name: host, serviceHost: null }, { serviceHost: host }] },
    select: { ...HOST_CAPACITY_SELECT, pcpus: true },
  });
  return rows[0] ?? null;
}

/** The write of a committed move (inside mutate()'s transaction): instance and usage leave the source for the destination. */
export async function commitMoveTx(tx: Tx, d: MoveCommit, p: PreparedRun): Promise<MoveOutcome> {
  const inst = existing(
    await tx.instance.findUnique({
      where: { id: d.id },
      select: { id: true, uuid: true, hostId: true, flavor: { select: { name: true } } },
    }),
    "instance",
  );
  if (inst.uuid !== d.uuid) throw new MutationError("id", `id: record ${d.id} is not instance ${d.uuid}`);
  const request = p.request;
  const moved = request.instance!;
  const sel = p.result.selections[0];
  const source = await tx.computeHost.findFirst({
    where: { id: inst.hostId ?? -1 },
    select: { ...HOST_CAPACITY_SELECT, pcpus: true },
  });
  if (!source || inst.flavor?.name !== moved.flavor.name)
    throw new MutationError(
      null,
      "Not moved: the instance changed host or flavor since the move was scheduled; run the trial again.",
    );
  const dest = await rowOf(tx, sel.host, sel.node ?? sel.host);
  if (!dest) throw new MutationError("destination", `destination: ${sel.host} no longer exists`);
  await lockHosts(tx, [source.name, dest.name]);
  const newFlavor = request.flavor ?? moved.flavor;
  // the room re-check: what the destination takes beyond what it gives back (a resize on its own host)
  const take = demandOn(newFlavor, dest);
  if (dest.id === source.id) {
    const back = demandOn(moved.flavor, source);
    take.vcpus -= back.vcpus;
    take.memoryMb -= back.memoryMb;
    take.diskGb -= back.diskGb;
  }
  if (take.vcpus > 0 || take.memoryMb > 0 || take.diskGb > 0) {
    const room = dest.id === source.id ? { ...dest, serviceDisabled: false, serviceUp: true, forcedDown: false } : dest;
    const why = capacityProblem(room as HostCapacity, {
      vcpus: Math.max(take.vcpus, 0),
      memoryMb: Math.max(take.memoryMb, 0),
      diskGb: Math.max(take.diskGb, 0),
    });
    if (why)
      throw new MutationError(
        null,
        `Not moved: ${dest.name} cannot take ${newFlavor.name} any more (${why}). Run the trial again.`,
      );
  }
  // The source gives back everything the instance holds (Placement's classes,
  // NUMA cells, PCI devices), the destination takes what the scheduler's
  // consume step placed: lib/cloud/usage.ts, one rule for every commit.
  const aliases = pciAliases(p.config);
  await editUsage(tx, source.id, (h) => giveBackInstance(h, moved.flavor, aliases));
  const claim = p.result.placement?.claims.find((c) => c.index === 0);
  await editUsage(tx, dest.id, (h) =>
    takeInstance(h, newFlavor, { numa: sel.numa, pci: sel.pci, allocations: claim?.allocations }, aliases),
  );
  const flavorRow =
    request.flavor && d.operation === "resize"
      ? await tx.flavor.findUnique({ where: { name: request.flavor.name }, select: { id: true } })
      : null;
  await tx.instance.update({
    where: { id: inst.id },
    data: { hostId: dest.id, ...(flavorRow ? { flavorId: flavorRow.id } : {}) },
  });
  const node = sel.node && sel.node !== sel.host && !sel.node.startsWith(`${sel.host}.`) ? sel.node : null;
  return { uuid: inst.uuid, operation: d.operation, from: source.name, to: dest.name, node, flavor: newFlavor.name };
}

/** What a committed move touches, for its audit entry: the instance, then its source and destination hosts (locked). */
export async function moveTargets(tx: Tx, id: number, destination: unknown): Promise<Target[]> {
  const inst = await tx.instance.findUnique({ where: { id }, select: { host: { select: { name: true } } } });
  const names = [inst?.host?.name, typeof destination === "string" ? destination : undefined].filter(
    (n): n is string => !!n,
  );
  const rows = await tx.computeHost.findMany({ where: { name: { in: names } }, select: { name: true } });
  const hosts = [...new Set(rows.map((r) => r.name))].sort();
  await lockHosts(tx, hosts);
  return [{ kind: "instance", ref: { id } }, ...hosts.map((name): Target => ({ kind: "host", ref: { name } }))];
}
