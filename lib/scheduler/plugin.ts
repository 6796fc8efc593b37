/** The contracts every filter, weigher and Placement prefilter implements. */
import type { SchedulerConfig } from "./config";
import type { HostState } from "./host-state";
import type { RequestSpec } from "./request-spec";

/**
 * A host filter, named after its Nova class. `check` answers null when the
 * host passes, or a reason a person can read when it does not. It runs in the
 * host loop: keep it free of parsing and allocation on the passing path.
 */
export interface HostFilter {
  readonly name: string;
  /** Nova's run_filter_once_per_request: run for the first instance only. */
  readonly runOncePerRequest: boolean;
  /** Per-request work (parse a query, resolve options), before the host loop. */
  prepare?(spec: RequestSpec): void;
  check(host: HostState, spec: RequestSpec): string | null;
}

export type FilterFactory = (config: SchedulerConfig) => HostFilter;

/**
 * A weigher returns raw values; the engine normalizes them (min-max over the
 * survivors, or against minval/maxval when set) and applies the multiplier.
 */
export interface HostWeigher {
  readonly name: string;
  readonly minval?: number;
  readonly maxval?: number;
  /** Raw weight of one host. May throw a NovaError (e.g. a missing metric). */
  weigh(host: HostState, spec: RequestSpec): number;
  /** The multiplier for this host (config, or an aggregate's override). */
  multiplier(host: HostState): { value: number; source: string };
}

export type WeigherFactory = (config: SchedulerConfig) => HostWeigher;

/**
 * A Placement prefilter: the resource-provider query Nova's scheduler makes
 * before the filters (allocation candidates, required traits, aggregates).
 */
export interface PlacementPrefilter {
  readonly name: string;
  /** Per-request work over the whole cloud, before the host loop. */
  prepare?(spec: RequestSpec, hosts: readonly HostState[]): void;
  check(host: HostState, spec: RequestSpec): string | null;
}

export type PrefilterFactory = (config: SchedulerConfig) => PlacementPrefilter;
