/**
 * What one scheduling run records: the funnel of each instance, the
 * weighed survivors, the selections, the Placement exchange and a move's
 * echo. The engine fills it in; result.ts reads it.
 */
import type { SchedulerConfig } from "./config";
import type { HostState } from "./host-state";
import type { MoveEcho } from "./moves";
import type { Placement } from "./numa/consume";
import type { AllocationRequest, PlacementOutcome } from "./placement";
import type { RequestSpec } from "./request-spec";

export interface FunnelStage {
  filter: string;
  stage: "placement" | "filter";
  in: number;
  out: number;
  rejected: HostState[];
  /** Why each rejected host fell out (messages), parallel to `rejected`. */
  reasons: string[];
  /** The stable code of each reason, parallel to `rejected`. */
  codes: string[];
  /** Short text per code for summaries ("VCPU short"), when the reason gave one. */
  labels: Record<string, string>;
}

export interface WeigherColumn {
  name: string;
  raw: Float64Array;
  normalized: Float64Array;
  /** Multiplier and its source per aggregate view id (host.aggregates.id). */
  byView: ReadonlyArray<{ value: number; source: string } | undefined>;
}

export interface WeighedSet {
  /** Survivors in filter order; columns are indexed like this array. */
  hosts: HostState[];
  weights: Float64Array;
  columns: WeigherColumn[];
  /** Positions into `hosts`, best first. */
  order: number[];
}

export interface InstanceTrace {
  index: number;
  funnel: FunnelStage[];
  weighed: WeighedSet;
  chosen: HostState | null;
  subset?: HostState[];
}

/** What the Placement path asked, got and claimed (ScheduleRun.placement). */
export interface PlacementRun {
  query: string | null;
  fallbackQuery?: string;
  matched: number;
  candidates: number;
  claims: Array<{
    index: number;
    tried: HostState[];
    claimed: HostState | null;
    /** With child providers: the allocation request claimed (null when none). */
    allocations?: AllocationRequest | null;
  }>;
  requestFilters: PlacementOutcome["requestFilters"];
  /** With child providers: every allocation request Placement returned, both queries in order. */
  requests?: AllocationRequest[];
  /** Real Placement may answer differently between runs (the order it consolidates shared amounts in). */
  orderDependent?: boolean;
}

export interface ScheduleRun {
  config: SchedulerConfig;
  hosts: HostState[];
  spec: RequestSpec | null;
  traces: InstanceTrace[];
  selections: Array<{ host: HostState; alternates: HostState[]; placement: Placement }>;
  error: { name: string; message: string } | null;
  engineMs: number;
  /** Set when the Placement path ran. */
  placement?: PlacementRun;
  /** A move's "move" block (SCENARIO.md "Moves"). */
  move?: MoveEcho;
}

/**
 * One instance's filters and weighers, the order the next instance's pool
 * is kept in, and the consume step: the engine's one instance loop asks a
 * pass, the plain one (nova/host-pass.ts) or the fast one (fast/instance-pass.ts).
 */
export interface HostPass {
  run(pool: HostState[], index: number): { passed: HostState[]; funnel: FunnelStage[]; weighed: WeighedSet };
  /** The hosts just weighed, in `order` (positions into passed). */
  arrange(passed: HostState[], order: number[]): HostState[];
  consume(host: HostState): Placement;
}
