/**
 * GET /allocation_candidates asked again and again for one request on one
 * cloud whose usage only grows (a capacity fill): which providers match and
 * which of them are within `limit`, kept across the requests and updated
 * for the one provider (tree) a boot changed, instead of asking every
 * provider per boot. The answer per provider is candidates.ts's own
 * (compiledReason), per tree trees.ts's (treeAnswer). Kept here: one query
 * (no VCPU fallback), no 400, and with trees no numbered group (their order
 * reads the whole cloud's usage). Anything else returns null from `open`,
 * and the caller asks allocationCandidates in full.
 */
import type { SchedulerConfig } from "../config";
import type { HostState } from "../host-state";
import type { RequestSpec } from "../request-spec";
import type { Scenario, ScenarioHost } from "../scenario";
import {
  type CompiledRequest,
  claimReason,
  compile,
  compiledReason,
  groupOrder,
  mergedAmounts,
  refusal,
  rootReason,
} from "./candidates";
import { placementQueries } from "./index";
import { buildPlacementCloud, type PlacementCloud, reloadUsage } from "./providers";
import {
  type AllocationRequest,
  claimRequestReason,
  type TreeAnswer,
  type TreeContext,
  treeAnswer,
  treeContext,
} from "./trees";

export class CandidateIndex {
  /** Per provider (host index): allocation requests it matches now (0 or 1 without trees). */
  private readonly counts: Int32Array;
  /** Per provider: Placement returns it (some request of its tree is within `limit`). */
  private readonly returned: Uint8Array;
  private readonly amounts: Map<string, number>;
  private readonly answers: TreeAnswer[] | null;

  private constructor(
    private readonly cloud: PlacementCloud,
    private readonly q: CompiledRequest,
    private readonly limit: number | null,
    amounts: Map<string, number>,
    private readonly trees: TreeContext | null,
  ) {
    const n = cloud.providers.length;
    this.counts = new Int32Array(n);
    this.returned = new Uint8Array(n);
    this.amounts = amounts;
    this.answers = trees ? new Array(n) : null;
    for (let i = 0; i < n; i++) this.answer(i);
    this.cut();
  }

  /** The index for the request, or null where the query is not kept here. */
  static open(
    config: SchedulerConfig,
    scenario: Scenario,
    hosts: HostState[],
    spec: RequestSpec,
  ): CandidateIndex | null {
    const cloud = buildPlacementCloud(scenario, hosts, config.release.addedStandardTraits);
    const pq = placementQueries(config, scenario, spec, cloud);
    if (pq.failedBeforeQuery || !pq.first || pq.fallback) return null;
    const rr = pq.first;
    const q = compile(rr, pq.labels);
    let trees: TreeContext | null = null;
    if (cloud.hasTrees) {
      const order = groupOrder(rr, q).map((o) => o.g);
      if (order.some((g) => g.suffix !== "")) return null;
      trees = treeContext(rr, cloud, order, (p) => rootReason(p, q), pq.labels);
    }
    const index = new CandidateIndex(cloud, q, rr.limit, mergedAmounts(rr), trees);
    // Names Placement checks only up to a group nothing fits: once no 400, usage growing keeps it so.
    if (refusal(rr, cloud, q, trees ? (g) => index.groupHasFit(trees!.order.indexOf(g)) : null)) return null;
    return index;
  }

  private groupHasFit(k: number): boolean {
    return this.answers!.some((a) => a.fit[k]);
  }

  private answer(i: number): void {
    const p = this.cloud.providers[i];
    if (this.answers) {
      const a = treeAnswer(p, this.trees!);
      this.answers[i] = a;
      this.counts[i] = a.requests.length;
    } else this.counts[i] = compiledReason(p, this.q) === null ? 1 : 0;
  }

  /** Which providers are returned, from the counts: requests are listed tree by tree, in host order. */
  private cut(): number[] {
    const changed: number[] = [];
    const limit = this.limit ?? Number.POSITIVE_INFINITY;
    let before = 0;
    for (let i = 0; i < this.counts.length; i++) {
      const now = this.counts[i] > 0 && before < limit ? 1 : 0;
      if (now !== this.returned[i]) {
        this.returned[i] = now;
        changed.push(i);
      }
      before += this.counts[i];
    }
    return changed;
  }

  /** Placement returns host i's provider (and so the host enters the filters). */
  returns(i: number): boolean {
    return this.returned[i] === 1;
  }

  /**
   * With trees: the allocation request Nova claims for host i, its first
   * returned one that allocates from the compute node itself (null: none).
   */
  claimed(i: number): AllocationRequest | null {
    if (!this.answers || !this.returned[i]) return null;
    let before = 0;
    for (let j = 0; j < i; j++) before += this.counts[j];
    const limit = this.limit ?? Number.POSITIVE_INFINITY;
    const requests = this.answers[i].requests;
    for (let k = 0; k < requests.length && before + k < limit; k++)
      if (requests[k].areq.allocations.has(requests[k].areq.root)) return requests[k].areq;
    return null;
  }

  /** The claim of host i's allocation request would succeed (PUT /allocations). */
  claimable(i: number): boolean {
    if (this.answers) {
      const areq = this.claimed(i);
      return areq !== null && claimRequestReason(areq) === null;
    }
    return claimReason(this.cloud.providers[i], this.amounts) === null;
  }

  /**
   * Host i's scenario entry changed (a boot): its usage again, and the hosts
   * whose `returns` changed (a host dropping out lets the next match in).
   */
  update(i: number, h: ScenarioHost): number[] {
    reloadUsage(this.cloud.providers[i], h);
    const count = this.counts[i];
    this.answer(i);
    // Without trees a count can only fall from 1 to 0; with them the tree's requests changed.
    if (!this.answers && count === this.counts[i]) return [];
    return this.cut();
  }
}
