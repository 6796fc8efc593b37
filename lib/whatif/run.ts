/**
 * "What would let it pass" for a stored run: proposals computed (and each
 * verified) on the run's stored snapshot, with the database ids the apply
 * buttons need; and, after a re-run, whether the host now passes.
 */
import "server-only";
import type { PrismaClient } from "@/lib/db/client";
import { getRunResult, getRunText } from "@/lib/runs/queries";
import { parseJson } from "@/lib/scheduler/python";
import type { Scenario } from "@/lib/scheduler/scenario";
import {
  appliedHere,
  describeChange,
  rejectionOf,
  whatWouldLetItPass,
  type Change,
  type Rejection,
  type WhatIf,
} from "./proposals";

export class WhatIfInputError extends Error {}

export interface WhatIfView extends Omit<WhatIf, "proposals"> {
  proposals: Array<{
    changes: Array<Change & { text: string; aggregateId?: number; version?: number }>;
    /** Every change is one the page applies (else it is made on the cloud: nova.conf, Placement). */
    appliable: boolean;
    answers: Rejection[];
  }>;
}

export async function runWhatIf(db: PrismaClient, runId: number, host: string, index: number): Promise<WhatIfView> {
  const text = await getRunText(db, runId, "snapshot");
  if (text === null) throw new WhatIfInputError(`run ${runId} does not exist`);
  const scenario = parseJson(text) as Scenario;
  if (!scenario.hosts.some((h) => h.name === host))
    throw new WhatIfInputError(`host: "${host}" is not a host of run ${runId}`);
  const w = whatWouldLetItPass(scenario, host, index);
  const names = [
    ...new Set(
      w.proposals.flatMap((p) =>
        p.changes.flatMap((c) => (c.kind === "add-to-aggregate" || c.kind === "set-metadata" ? [c.aggregate] : [])),
      ),
    ),
  ];
  const rows = names.length
    ? await db.aggregate.findMany({ where: { name: { in: names } }, select: { id: true, name: true, version: true } })
    : [];
  const ids = new Map(rows.map((r) => [r.name, r.id]));
  const versions = new Map(rows.map((r) => [r.name, r.version]));
  // the hosts' versions too: applying a change is refused when the record changed since this answer
  const hostNames = [
    ...new Set(w.proposals.flatMap((p) => p.changes.flatMap((c) => (c.kind === "enable-service" ? [c.host] : [])))),
  ];
  const hostRows = hostNames.length
    ? await db.computeHost.findMany({ where: { name: { in: hostNames } }, select: { name: true, version: true } })
    : [];
  const hostVersions = new Map(hostRows.map((r) => [r.name, r.version]));
  return {
    ...w,
    proposals: w.proposals.map((p) => ({
      answers: p.answers,
      appliable: p.changes.every(appliedHere),
      changes: p.changes.map((c) => ({
        ...c,
        text: describeChange(c),
        ...(c.kind === "enable-service"
          ? { version: hostVersions.get(c.host) }
          : (c.kind === "add-to-aggregate" || c.kind === "set-metadata") && ids.has(c.aggregate)
            ? { aggregateId: ids.get(c.aggregate), version: versions.get(c.aggregate) }
            : {}),
      })),
    })),
  };
}

/** Did `host` survive every filter of instance `index` in run `runId`? */
export async function hostFate(
  db: PrismaClient,
  runId: number,
  host: string,
  index: number,
): Promise<{ passes: boolean; rejection: Rejection | null }> {
  const result = await getRunResult(db, runId);
  if (!result) throw new WhatIfInputError(`run ${runId} does not exist`);
  const req = result.requests[index];
  return { passes: !!req?.weighed.some((w) => w.host === host), rejection: rejectionOf(req, host) };
}
