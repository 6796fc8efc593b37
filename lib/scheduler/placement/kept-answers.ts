/**
 * A frozen snapshot's cloud is asked the same queries again and again (a
 * flavor scheduled again, a what-if, a sensitivity sweep): what each
 * provider answers a query is kept, and asked again only of the providers
 * whose usage changed since (a claim, or its undoing before the next
 * request). The answer itself is candidates.ts's (compiledReason); the
 * query's key is the compiled query, in the order its checks run, so equal
 * keys ask the same questions in the same order.
 */
import type { Reason } from "../plugin";

/**
 * A server's start-up prime asks every flavor of the cloud, and a pinned
 * flavor asks twice (the PCPU query, then the VCPU one): with more queries
 * than are kept, each round of the prime would drop the answers the next
 * round and the operator's first click need. At 10,000 hosts a kept query
 * costs about 160 KB of answers (with trees about 1 MB).
 */
const MAX_QUERIES = 32;

interface Kept {
  reasons: (Reason | null)[];
  versions: Float64Array;
}

/**
 * `Tree` is trees.ts's TreeAnswer: a parameter, so that the providers that
 * hold this cache need not import the tree code that fills it.
 */
export class KeptAnswers<Tree = unknown> {
  private readonly byQuery = new Map<string, Kept>();
  private readonly treesByQuery = new Map<string, Array<Tree | undefined>>();

  /** With provider trees: each tree's answer to the query `key`, by host index (checked against its usage by the caller). */
  trees<T extends Tree>(key: string, providers: number): Array<T | undefined> {
    let kept = this.treesByQuery.get(key);
    if (kept && kept.length !== providers) kept = undefined;
    if (kept) this.treesByQuery.delete(key);
    else {
      kept = new Array(providers).fill(undefined);
      if (this.treesByQuery.size >= MAX_QUERIES) this.treesByQuery.delete(this.treesByQuery.keys().next().value!);
    }
    this.treesByQuery.set(key, kept);
    return kept as Array<T | undefined>;
  }

  /** Each provider's answer to the query `key` (a fresh array the caller may change). */
  reasons<P extends { usageVersion: number }, R extends Reason>(
    key: string,
    providers: readonly P[],
    reasonOf: (p: P) => R | null,
  ): (R | null)[] {
    let kept = this.byQuery.get(key);
    if (kept && kept.reasons.length !== providers.length) kept = undefined;
    if (!kept) {
      const n = providers.length;
      kept = { reasons: new Array(n), versions: new Float64Array(n) };
      for (let i = 0; i < n; i++) {
        kept.reasons[i] = reasonOf(providers[i]);
        kept.versions[i] = providers[i].usageVersion;
      }
      if (this.byQuery.size >= MAX_QUERIES) this.byQuery.delete(this.byQuery.keys().next().value!);
    } else {
      this.byQuery.delete(key);
      const { reasons, versions } = kept;
      for (let i = 0; i < providers.length; i++) {
        const p = providers[i];
        if (versions[i] === p.usageVersion) continue;
        reasons[i] = reasonOf(p);
        versions[i] = p.usageVersion;
      }
    }
    // Most recently asked last: the first is the one to drop.
    this.byQuery.set(key, kept);
    // a query's key fixes its reasonOf, so what is kept under it is that function's R
    return kept.reasons.slice() as (R | null)[];
  }
}
