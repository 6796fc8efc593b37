/** The contracts every filter and weigher implements. */
import type { SchedulerConfig } from "./config";
import type { HostState } from "./host-state";
import type { RequestSpec } from "./request-spec";

/**
 * Why a host was not kept, as Kubernetes' Status does it: a stable `code`
 * that diagnosis and advice group and act on (never parsing the text), a
 * `message` a person reads, and optionally the short `label` a summary
 * shows for the group ("VCPU short").
 */
export interface Reason {
  code: string;
  message: string;
  label?: string;
}

/**
 * A host filter, named after its Nova class. `check` answers null when the
 * host passes, or why it does not: a Reason whose code is one of
 * reasons.ts (a shared constant when the message is fixed). It runs in the
 * host loop: keep it free of parsing and allocation on the passing path.
 * The engine calls `prepare` and `check` without their object (keep state
 * in closures, not in `this`).
 */
export interface HostFilter {
  readonly name: string;
  /** Nova's run_filter_once_per_request: run for the first instance only. */
  readonly runOncePerRequest: boolean;
  /** Per-request work (parse a query, resolve options), before the host loop. */
  prepare?(spec: RequestSpec): void;
  /**
   * Whether check would pass every host for this request (asked after
   * prepare, for each instance): the request names no group, no zone, no
   * spec the filter reads. The engine then does not ask host by host; the
   * funnel shows the filter keeping every host, as Nova's does.
   */
  passesEveryHost?(spec: RequestSpec): boolean;
  check(host: HostState, spec: RequestSpec): Reason | null;
}

export type FilterFactory = (config: SchedulerConfig) => HostFilter;

/**
 * A weigher returns raw values; the engine normalizes them (min-max over the
 * survivors, or against minval/maxval when set) and applies the multiplier.
 * Like a filter's, its functions are called without their object.
 */
export interface HostWeigher {
  readonly name: string;
  readonly minval?: number;
  readonly maxval?: number;
  /** Raw weight of one host. May throw a NovaError (e.g. a missing metric). */
  weigh(host: HostState, spec: RequestSpec): number;
  /**
   * The raw weight every host has for this request, when the request makes
   * it one (no group of the weigher's policy): the engine fills the column
   * without asking host by host. Undefined otherwise.
   */
  sameForEveryHost?(spec: RequestSpec): number | undefined;
  /** The multiplier for this host (config, or an aggregate's override). */
  multiplier(host: HostState): { value: number; source: string };
}

export type WeigherFactory = (config: SchedulerConfig) => HostWeigher;
