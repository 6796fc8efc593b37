/**
 * nova.filters.BaseFilterHandler.get_filtered_objects as written: each
 * filter in turn over the hosts the previous one kept, recording who fell
 * out and why. The engine's fast loop (fast/host-major.ts) must agree with
 * this one on every fixture (fast/equivalence.test.ts), and falls back to it
 * when a filter raises, so the error is the one Nova's order raises first.
 */
import type { HostState } from "../host-state";
import type { HostFilter, Reason } from "../plugin";
import type { RequestSpec } from "../request-spec";
import type { FunnelStage } from "../run";

export function newStage(f: HostFilter, hostsIn: number): FunnelStage {
  return {
    filter: f.name,
    stage: "filter",
    in: hostsIn,
    out: hostsIn,
    rejected: [],
    reasons: [],
    codes: [],
    labels: {},
  };
}

export function reject(stage: FunnelStage, h: HostState, why: Reason): void {
  stage.rejected.push(h);
  stage.reasons.push(why.message);
  stage.codes.push(why.code);
  if (why.label) stage.labels[why.code] = why.label;
}

/**
 * Filter after filter; a filter runs (and shows) even on no hosts, and the
 * loop stops after the first filter that leaves none. `prepare` is called
 * before a filter's first host (lazily, so a filter no host reaches never raises).
 */
export function getFilteredObjects(
  filters: HostFilter[],
  hosts: HostState[],
  spec: RequestSpec,
  prepare: (f: HostFilter) => void,
): { passed: HostState[]; funnel: FunnelStage[] } {
  const funnel: FunnelStage[] = [];
  let current = hosts;
  for (const f of filters) {
    prepare(f);
    const stage = newStage(f, current.length);
    const kept: HostState[] = [];
    for (const h of current) {
      const why = f.check(h, spec);
      if (why === null) kept.push(h);
      else reject(stage, h, why);
    }
    // A filter that keeps every host hands on its input, as the fast loop does.
    current = kept.length === current.length ? current : kept;
    stage.out = current.length;
    funnel.push(stage);
    if (!current.length) break;
  }
  return { passed: current, funnel };
}
