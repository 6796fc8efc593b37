/**
 * The engine's pass over a request's instances (fast): after the first
 * instance, only the host the previous one consumed is filtered and
 * weighed again when nothing else changed. nova/host-pass.ts is the same
 * pass as Nova's code reads; fast/equivalence.test.ts holds them together.
 */
import type { HostState } from "../host-state";
import type { RequestScheduler } from "../nova/host-pass";
import type { Placement } from "../numa/consume";
import type { RequestSpec } from "../request-spec";
import type { FunnelStage, HostPass, WeighedSet } from "../run";
import { type CarriedWeights, type Column, EMPTY } from "./weigh";

/** What the pass needs of the request's scheduler (engine.ts's Scheduler). */
export interface CarryingScheduler extends RequestScheduler {
  runFilters(pool: HostState[], index: number): { passed: HostState[]; funnel: FunnelStage[] };
  refilterChanged(pool: HostState[], index: number, changed: HostState): { passed: HostState[]; funnel: FunnelStage[] };
  /** Whether the request is as the previous instance left it but for the consumed host. */
  carries(numaBefore: RequestSpec["numaTopology"]): boolean;
  weighCarrying(hosts: HostState[], carried: CarriedWeights | null): { weighed: WeighedSet; views: Int32Array };
}

/**
 * Filter and weigh the instances of one request in turn. After the first,
 * when nothing but the consumed host changed (CarryingScheduler.carries), only that
 * host is filtered and weighed again; the other hosts' verdicts and raw
 * weights come from the previous instance.
 */
export class InstancePass implements HostPass {
  private changed: HostState | null = null;
  private numaBefore: RequestSpec["numaTopology"] = null;
  /** The previous weighing: its hosts, raw columns and views. */
  private last: { hosts: HostState[]; raws: Array<Float64Array | null>; views: Int32Array } | null = null;
  /** The order (positions into last.hosts) the next pool was arranged in. */
  private arranged: number[] | null = null;

  constructor(private readonly s: CarryingScheduler) {}

  run(pool: HostState[], index: number): { passed: HostState[]; funnel: FunnelStage[]; weighed: WeighedSet } {
    const { s, changed, last, arranged } = this;
    this.last = null;
    this.arranged = null;
    if (changed === null || !s.carries(this.numaBefore)) {
      const { passed, funnel } = s.runFilters(pool, index);
      return { passed, funnel, weighed: this.weigh(passed, null) };
    }
    const { passed, funnel } = s.refilterChanged(pool, index, changed);
    const carried =
      last && arranged && last.raws.length
        ? { raws: last.raws, views: last.views, from: positionsIn(pool, arranged, passed, changed) }
        : null;
    return { passed, funnel, weighed: this.weigh(passed, carried) };
  }

  private weigh(passed: HostState[], carried: CarriedWeights | null): WeighedSet {
    if (!passed.length) return EMPTY;
    const { weighed, views } = this.s.weighCarrying(passed, carried);
    this.last = { hosts: passed, raws: weighed.columns.map((c) => (c as Column).carried), views };
    return weighed;
  }

  /** The next pool: the hosts just weighed, in `order`. */
  arrange(passed: HostState[], order: number[]): HostState[] {
    if (this.last?.hosts === passed) this.arranged = order;
    return inOrder(passed, order);
  }

  consume(host: HostState): Placement {
    this.numaBefore = this.s.spec.numaTopology;
    const placed = this.s.consumeSelected(host);
    this.changed = host;
    return placed;
  }
}

/**
 * Where each of `passed` (a subsequence of `pool`) sat in the previous
 * weighing, given that pool[j] sat at arranged[j]; -1 for `changed`.
 */
function positionsIn(pool: HostState[], arranged: number[], passed: HostState[], changed: HostState): Int32Array {
  const from = new Int32Array(passed.length);
  let j = 0;
  for (let i = 0; i < passed.length; i++, j++) {
    while (pool[j] !== passed[i]) j++;
    from[i] = passed[i] === changed ? -1 : arranged[j];
  }
  return from;
}

/** hosts in `order` (positions into hosts). */
export function inOrder(hosts: HostState[], order: number[]): HostState[] {
  // Pushed, not written into new Array(n): a host list is always one kind of
  // array (packed), and the loops compiled for it stay compiled.
  const out: HostState[] = [];
  for (let i = 0; i < order.length; i++) out.push(hosts[order[i]]);
  return out;
}
