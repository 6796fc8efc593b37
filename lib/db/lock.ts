/**
 * Row locks for a commit on hosts, on both databases: an UPDATE that changes
 * nothing takes PostgreSQL's row lock (held to the end of the transaction, so
 * a second commit re-reads the hosts only after the first one is done) and,
 * on SQLite, the database write lock. One host at a time, in name order, so
 * two commits sharing hosts always lock them in the same order (no deadlock).
 */
import type { Tx } from "./client";

export async function lockHosts(tx: Tx, names: Iterable<string>): Promise<void> {
  for (const name of [...new Set(names)].sort()) {
    await tx.computeHost.updateMany({ where: { name }, data: { version: { increment: 0 } } });
  }
}
