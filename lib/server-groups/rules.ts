/**
 * Rules of server groups the schema alone cannot check, called by the server
 * actions inside their transaction.
 */
import "server-only";
import { MutationError } from "@/lib/actions/mutation";
import type { Tx } from "@/lib/db/client";

/** Server group uuids are unique. */
export async function assertServerGroupUuidFree(tx: Tx, uuid: string): Promise<void> {
  if (await tx.serverGroup.findUnique({ where: { uuid }, select: { id: true } })) {
    throw new MutationError("uuid", `uuid: a server group with uuid ${uuid} already exists`);
  }
}

/**
 * The stored rules (JSON text) with max_server_per_host set, or removed when
 * null; other rules are kept (unreadable stored rules count as none).
 */
export function withMaxServerPerHost(stored: string, maxServerPerHost: number | null): Record<string, unknown> {
  let rules: Record<string, unknown> = {};
  try {
    rules = JSON.parse(stored) as Record<string, unknown>;
  } catch {
    rules = {};
  }
  if (maxServerPerHost !== null) rules.max_server_per_host = maxServerPerHost;
  else delete rules.max_server_per_host;
  return rules;
}
