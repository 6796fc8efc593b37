/**
 * The filters made fast: a host asks all its filters in turn (host-major)
 * instead of each filter asking all hosts, and a later instance of a
 * request checks only the host the previous one consumed. Both give
 * nova/filters.ts's funnel (fast/equivalence.test.ts).
 */
import type { HostState } from "../host-state";
import { newStage, reject } from "../nova/filters";
import type { RequestScheduler } from "../nova/host-pass";
import type { HostFilter } from "../plugin";
import type { RequestSpec } from "../request-spec";
import type { FunnelStage } from "../run";

/**
 * Nova's BaseFilterHandler runs each filter over the hosts the previous
 * one kept. A check reads its host and the request only, so a host's
 * verdict is the first filter, in order, that rejects it: this loop asks
 * one host all its filters in turn, reading each host's fields once
 * instead of once per filter (at 10,000 hosts the reads, not the checks,
 * are the cost). A filter is prepared when the first host reaches it, and
 * the funnel ends at the first filter that leaves no host, as Nova's does.
 */
export function filterHostByHost(
  active: HostFilter[],
  current: HostState[],
  spec: RequestSpec,
  prepare: (f: HostFilter) => void,
): { passed: HostState[]; funnel: FunnelStage[] } {
  const nf = active.length;
  const stages = active.map((f) => newStage(f, 0));
  // Filters that pass every host this time are not asked (known once the first host reaches them).
  const skip = new Uint8Array(nf);
  prepare(active[0]);
  skip[0] = active[0].passesEveryHost?.(spec) ? 1 : 0;
  let reached = 1;
  // Copied from the first rejection on: filters that keep every host return the input.
  let kept: HostState[] | null = null;
  for (let i = 0; i < current.length; i++) {
    const h = current[i];
    let j = 0;
    for (; j < nf; j++) {
      if (j === reached) {
        prepare(active[j]);
        skip[j] = active[j].passesEveryHost?.(spec) ? 1 : 0;
        reached++;
      }
      if (skip[j]) continue;
      const why = active[j].check(h, spec);
      if (why !== null) {
        kept ??= current.slice(0, i);
        reject(stages[j], h, why);
        break;
      }
    }
    if (j === nf) kept?.push(h);
  }
  const funnel: FunnelStage[] = [];
  let left = current.length;
  for (const stage of stages) {
    stage.in = left;
    left -= stage.rejected.length;
    stage.out = left;
    funnel.push(stage);
    if (!left) break;
  }
  return { passed: kept ?? current, funnel };
}

/**
 * runFilters for a later instance of a request when `changed`, the host
 * the previous instance consumed, is the only thing its filters read that
 * changed (see `carries`): every other host of `pool` passed these filters
 * for the previous instance and passes again, so only `changed` is
 * checked. The funnel is the one runFilters would give.
 */
export function refilterChanged(
  s: RequestScheduler,
  pool: HostState[],
  index: number,
  changed: HostState,
): { passed: HostState[]; funnel: FunnelStage[] } {
  const funnel: FunnelStage[] = [];
  const restricted = s.restrict(pool);
  let current = restricted.hosts;
  if (restricted.skipFilters) return { passed: current, funnel };
  let present = current.includes(changed);
  for (const f of s.filters) {
    if (f.runOncePerRequest && index > 0) continue;
    s.prepare(f);
    const stage = newStage(f, current.length);
    const why = present ? f.check(changed, s.spec) : null;
    if (why !== null) {
      reject(stage, changed, why);
      current = current.filter((h) => h !== changed);
      present = false;
    }
    stage.out = current.length;
    funnel.push(stage);
    if (!current.length) break;
  }
  return { passed: current, funnel };
}
