/** Aggregates: the list, and one aggregate with a page of its members. */
import "server-only";
import { containsText } from "@/lib/db/dialect";
import type { Db } from "@/lib/db/client";
import { type HostServiceState, hostServiceState } from "./hosts";
import { type KeyValue, keyValues, pageOf } from "./shared";

export type AggregateRow = {
  id: number;
  position: number;
  name: string;
  uuid: string | null;
  availabilityZone: string | null;
  /** optimistic concurrency: forms send it back (lib/audit/trail.ts) */
  version: number;
  hostCount: number;
  metadata: KeyValue[];
};

function aggregateRow(
  a: Omit<AggregateRow, "hostCount" | "metadata"> & { metadata: KeyValue[]; _count: { hosts: number } },
): AggregateRow {
  return {
    id: a.id,
    position: a.position,
    name: a.name,
    uuid: a.uuid,
    availabilityZone: a.availabilityZone,
    version: a.version,
    hostCount: a._count.hosts,
    metadata: keyValues(a.metadata),
  };
}

/** Aggregates in scenario order, metadata by key. */
export async function listAggregates(db: Db): Promise<AggregateRow[]> {
  const aggs = await db.aggregate.findMany({
    orderBy: [{ position: "asc" }, { id: "asc" }],
    include: { metadata: { orderBy: { key: "asc" } }, _count: { select: { hosts: true } } },
  });
  return aggs.map(aggregateRow);
}

export const MEMBER_PAGE_SIZE = 50;

export type AggregateDetail = AggregateRow & {
  /** one page of the members (MEMBER_PAGE_SIZE), in the order they were added */
  hosts: { id: number; name: string; cell: string; state: HostServiceState }[];
  /** members matching the search, and which page of them `hosts` is */
  hostPage: { matching: number; page: number; pages: number };
};

/** An aggregate with its metadata (in the order it was set) and one page of its hosts (searchable by name). */
export async function getAggregate(
  db: Db,
  name: string,
  members: { search?: string; page?: number } = {},
): Promise<AggregateDetail | null> {
  const agg = await db.aggregate.findUnique({
    where: { name },
    include: { metadata: { orderBy: { id: "asc" } }, _count: { select: { hosts: true } } },
  });
  if (!agg) return null;
  const search = members.search?.trim();
  const where = { aggregateId: agg.id, ...(search ? { host: { name: containsText(db, search) } } : {}) };
  const matching = await db.aggregateHost.count({ where });
  const { page, pages, skip } = pageOf(matching, MEMBER_PAGE_SIZE, members.page);
  const rows = await db.aggregateHost.findMany({
    where,
    orderBy: { id: "asc" },
    skip,
    take: MEMBER_PAGE_SIZE,
    select: {
      host: {
        select: {
          id: true,
          name: true,
          serviceDisabled: true,
          serviceUp: true,
          forcedDown: true,
          cell: { select: { name: true } },
        },
      },
    },
  });
  return {
    ...aggregateRow(agg),
    hosts: rows.map(({ host: h }) => ({ id: h.id, name: h.name, cell: h.cell.name, state: hostServiceState(h) })),
    hostPage: { matching, page, pages },
  };
}
