/** Server groups with (the first of) their members. */
import "server-only";
import type { Db } from "@/lib/db/client";

/** A server group lists at most this many members (`memberCount` = all). */
export const GROUP_MEMBER_LIMIT = 200;

export type ServerGroupRow = {
  id: number;
  uuid: string;
  name: string;
  policy: string;
  rules: Record<string, string | number>;
  /** rules.max_server_per_host (anti-affinity), null = not set */
  maxServerPerHost: number | null;
  projectId: string | null;
  /** optimistic concurrency: forms send it back (lib/audit/trail.ts) */
  version: number;
  memberCount: number;
  /** the first GROUP_MEMBER_LIMIT members */
  members: { uuid: string; name: string | null; host: string | null }[];
  /** distinct hosts of those members, in member order */
  hosts: string[];
};

export async function listServerGroups(db: Db): Promise<ServerGroupRow[]> {
  const groups = await db.serverGroup.findMany({
    orderBy: [{ position: "asc" }, { id: "asc" }],
    include: {
      members: {
        orderBy: { id: "asc" },
        take: GROUP_MEMBER_LIMIT,
        select: { uuid: true, name: true, host: { select: { name: true } } },
      },
      _count: { select: { members: true } },
    },
  });
  return groups.map((g) => {
    const rules = JSON.parse(g.rules) as ServerGroupRow["rules"];
    const members = g.members.map((m) => ({ uuid: m.uuid, name: m.name, host: m.host?.name ?? null }));
    return {
      id: g.id,
      uuid: g.uuid,
      name: g.name,
      policy: g.policy,
      rules,
      maxServerPerHost: rules.max_server_per_host !== undefined ? Number(rules.max_server_per_host) : null,
      projectId: g.projectId,
      version: g.version,
      memberCount: g._count.members,
      members,
      hosts: [...new Set(members.flatMap((m) => (m.host ? [m.host] : [])))],
    };
  });
}
