/**
 * GET /allocation_candidates asked again and again for one request on one
 * cloud whose usage only grows (a capacity fill): which providers match and
 * which of them are within `limit`, kept across the requests and updated
 * for the one provider a boot changed, instead of asking every provider per
 * boot. The answer per provider is candidates.ts's own (compiledReason);
 * only providers over single-provider trees, one query (no VCPU fallback)
 * and no 400 are kept here. Anything else returns null from `open`, and the
 * caller asks allocationCandidates in full.
 */
import type { SchedulerConfig } from "../config";
import type { HostState } from "../host-state";
import type { RequestSpec } from "../request-spec";
import type { Scenario, ScenarioHost } from "../scenario";
import { claimReason, type CompiledRequest, compile, compiledReason, mergedAmounts, refusal } from "./candidates";
import { placementQueries } from "./index";
import { buildPlacementCloud, type PlacementCloud, reloadUsage } from "./providers";

export class CandidateIndex {
  /** Per provider (host index): matches the query now. */
  private readonly matched: Uint8Array;
  /** Index of the last provider Placement returns (the `limit`-th match), or n − 1. */
  private cut: number;
  private readonly amounts: Map<string, number>;

  private constructor(
    private readonly cloud: PlacementCloud,
    private readonly q: CompiledRequest,
    private readonly limit: number | null,
    amounts: Map<string, number>,
  ) {
    const n = cloud.providers.length;
    this.matched = new Uint8Array(n);
    for (let i = 0; i < n; i++) this.matched[i] = compiledReason(cloud.providers[i], q) === null ? 1 : 0;
    this.amounts = amounts;
    this.cut = this.findCut();
  }

  /** The index for the request, or null where the query is not kept here. */
  static open(
    config: SchedulerConfig,
    scenario: Scenario,
    hosts: HostState[],
    spec: RequestSpec,
  ): CandidateIndex | null {
    const cloud = buildPlacementCloud(scenario, hosts, config.release.addedStandardTraits);
    if (cloud.hasTrees) return null;
    const pq = placementQueries(config, scenario, spec, cloud);
    if (pq.failedBeforeQuery || !pq.first || pq.fallback) return null;
    const q = compile(pq.first, pq.labels);
    // Names Placement checks only up to a group nothing fits: once no 400, usage growing keeps it so.
    if (refusal(pq.first, cloud, q)) return null;
    return new CandidateIndex(cloud, q, pq.first.limit, mergedAmounts(pq.first));
  }

  private findCut(): number {
    const n = this.matched.length;
    if (this.limit === null) return n - 1;
    let seen = 0;
    for (let i = 0; i < n; i++) if (this.matched[i] && ++seen === this.limit) return i;
    return n - 1;
  }

  /** Placement returns host i's provider (and so the host enters the filters). */
  returns(i: number): boolean {
    return this.matched[i] === 1 && i <= this.cut;
  }

  /** The claim of host i's allocation request would succeed (PUT /allocations). */
  claimable(i: number): boolean {
    return claimReason(this.cloud.providers[i], this.amounts) === null;
  }

  /**
   * Host i's scenario entry changed (a boot): its usage again, and the hosts
   * whose `returns` changed (a host dropping out lets the next match in).
   */
  update(i: number, h: ScenarioHost): number[] {
    const p = this.cloud.providers[i];
    reloadUsage(p, h);
    const now = compiledReason(p, this.q) === null ? 1 : 0;
    if (now === this.matched[i]) return [];
    const before = this.cut;
    const wasReturned = this.returns(i);
    this.matched[i] = now;
    this.cut = this.findCutFrom(before, i, now === 1);
    const changed = wasReturned !== this.returns(i) ? [i] : [];
    const lo = Math.min(before, this.cut);
    const hi = Math.max(before, this.cut);
    for (let j = lo + 1; j <= hi; j++) if (j !== i && this.matched[j]) changed.push(j);
    return changed;
  }

  private findCutFrom(before: number, i: number, gained: boolean): number {
    const n = this.matched.length;
    if (this.limit === null || i > before) return before;
    if (gained) return this.findCut();
    // One match fewer at or before the cut: the next match after it is now the limit-th.
    for (let j = before + 1; j < n; j++) if (this.matched[j]) return j;
    return n - 1;
  }
}
