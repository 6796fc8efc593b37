/**
 * Which compute node rows a run's selections name. A service host with
 * several compute nodes (Ironic) has one row per node, the first named by
 * the host, the others by their node (lib/cloud/scenario-io.ts rowNamesOf);
 * a run lists the service hosts it chose, its stored result the nodes.
 */
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ScheduleResult } from "@/lib/scheduler/result";
import { readRunColumn } from "./store";

/**
 * The database row of each selection: the host's own row, or, when the
 * service host has several compute nodes, the row of the node the
 * scheduler selected (read from the stored result, which names nodes
 * whenever a cloud has such a host). `nodes[i]` is set for those only.
 */
export async function selectedRows(
  tx: Prisma.TransactionClient,
  runId: number,
  chosen: string[],
): Promise<{ rowNames: string[]; nodes: (string | undefined)[] }> {
  const services = [...new Set(chosen)];
  const others = await tx.computeHost.findMany({
    where: { serviceHost: { in: services } },
    select: { name: true, serviceHost: true, hypervisorHostname: true },
  });
  if (!others.length) return { rowNames: chosen, nodes: chosen.map(() => undefined) };
  const firsts = await tx.computeHost.findMany({
    where: { name: { in: services }, serviceHost: null },
    select: { name: true, serviceHost: true, hypervisorHostname: true },
  });
  const rowOf = new Map(
    [...firsts, ...others].map((r) => [`${r.serviceHost ?? r.name}\n${r.hypervisorHostname}`, r.name]),
  );
  const multi = new Set(others.map((r) => r.serviceHost));
  const text = await readRunColumn(tx, runId, "result");
  const selections = text ? (JSON.parse(text) as ScheduleResult).selections : [];
  const nodes = chosen.map((host, i) => (multi.has(host) ? (selections[i]?.node ?? host) : undefined));
  // a node no longer in the cloud keeps a name no row has: "no longer exists" below
  const rowNames = chosen.map((host, i) =>
    nodes[i] === undefined ? host : (rowOf.get(`${host}\n${nodes[i]}`) ?? `${host} (node ${nodes[i]})`),
  );
  return { rowNames, nodes };
}
