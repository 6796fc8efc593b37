/**
 * One instance of a request as nova.scheduler.filter_scheduler runs it,
 * nothing carried from the instance before: HostManager.get_filtered_hosts
 * (ignore/force hosts, then the filters; after the first instance only the
 * filters not run once per request), get_weighed_hosts, and the consume
 * step. The engine's production pass (fast/instance-pass.ts) must give the
 * same runs on every fixture (fast/equivalence.test.ts).
 */
import type { HostState } from "../host-state";
import type { Placement } from "../numa/consume";
import type { HostFilter, HostWeigher } from "../plugin";
import type { RequestSpec } from "../request-spec";
import type { FunnelStage, HostPass, WeighedSet } from "../run";
import { getFilteredObjects } from "./filters";
import { getWeighedObjects } from "./weights";

/** What a pass needs of the request's scheduler (engine.ts's Scheduler). */
export interface RequestScheduler {
  readonly spec: RequestSpec;
  readonly filters: HostFilter[];
  readonly weighers: HostWeigher[];
  /** get_filtered_hosts' prologue: ignore/force hosts and nodes, a move's destination. */
  restrict(hosts: HostState[]): { hosts: HostState[]; skipFilters: boolean };
  /** A filter's per-request work, once per request. */
  prepare(f: HostFilter): void;
  /** SchedulerManager._consume_selected_host. */
  consumeSelected(host: HostState): Placement;
}

export class NovaPass implements HostPass {
  constructor(private readonly s: RequestScheduler) {}

  run(pool: HostState[], index: number): { passed: HostState[]; funnel: FunnelStage[]; weighed: WeighedSet } {
    const { passed, funnel } = getFilteredHosts(this.s, pool, index);
    return { passed, funnel, weighed: getWeighedObjects(this.s.weighers, passed, this.s.spec) };
  }

  arrange(passed: HostState[], order: number[]): HostState[] {
    return order.map((i) => passed[i]);
  }

  consume(host: HostState): Placement {
    return this.s.consumeSelected(host);
  }
}

/** HostManager.get_filtered_hosts. */
export function getFilteredHosts(
  s: RequestScheduler,
  pool: HostState[],
  index: number,
): { passed: HostState[]; funnel: FunnelStage[] } {
  const { hosts, skipFilters } = s.restrict(pool);
  if (skipFilters) return { passed: hosts, funnel: [] };
  const filters = index > 0 ? s.filters.filter((f) => !f.runOncePerRequest) : s.filters;
  return getFilteredObjects(filters, hosts, s.spec, (f) => s.prepare(f));
}
