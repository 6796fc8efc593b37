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
export interface Reason<C extends string = string> {
  code: C;
  message: string;
  label?: string;
}

/**
 * A host filter, named after its Nova class. `check` answers null when the
 * host passes, or why it does not: a Reason whose code is one of its
 * descriptor's `reasons` (a shared constant when the message is fixed). It runs in the
 * host loop: keep it free of parsing and allocation on the passing path.
 * The engine calls `prepare` and `check` without their object (keep state
 * in closures, not in `this`).
 */
export interface HostFilter<C extends string = string, N extends string = string> {
  readonly name: N;
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
  check(host: HostState, spec: RequestSpec): Reason<C> | null;
}

export type FilterFactory<C extends string = string, N extends string = string> = (
  config: SchedulerConfig,
) => HostFilter<C, N>;

/**
 * A weigher returns raw values; the engine normalizes them (min-max over the
 * survivors, or against minval/maxval when set) and applies the multiplier.
 * Like a filter's, its functions are called without their object.
 */
export interface HostWeigher<N extends string = string> {
  readonly name: N;
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

export type WeigherFactory<N extends string = string> = (config: SchedulerConfig) => HostWeigher<N>;

/**
 * How a filter reads one aggregate metadata key's value: an availability
 * zone (not empty, no ':'), a comma-separated list of `of` (at least one:
 * an empty list rejects every request), or a whole number >= 0 (Python int()).
 */
export type MetadataValueRule =
  | { readonly kind: "zone" }
  | { readonly kind: "list"; readonly of: string }
  | { readonly kind: "whole_number" };

/** One aggregate metadata key a filter reads, and what it does with the value. */
export interface MetadataKeyRead {
  readonly key: string;
  /** One line: what the filter does with the value. */
  readonly meaning: string;
  /** What a valid value looks like (placeholder / help). */
  readonly valueHint: string;
  readonly value: MetadataValueRule;
}

/** What a filter reads besides the host's own state: where its verdict can be changed. */
export interface FilterReads {
  /** Aggregate metadata keys it reads by name, or "*": any key (the catalogue words those itself). */
  readonly metadata?: readonly (MetadataKeyRead | "*")[];
  /** Flavor extra spec keys; a trailing "*" is a namespace ("capabilities:*"), "*" alone the unscoped keys. */
  readonly extraSpecs?: readonly string[];
  /** Image properties ("*": any). */
  readonly imageProps?: readonly string[];
  /** Scheduler hints. */
  readonly hints?: readonly string[];
  /** nova.conf options, by their profile key. */
  readonly options?: readonly string[];
}

/**
 * Everything Schedscope knows of one filter class, in its own file: the
 * registry, the /config docs, the metadata key catalogue (lib/catalog),
 * the schedule form's hints and the NoValidHost summaries and advice
 * (lib/runs/advice.ts) all read it from here. `reasons` maps every code
 * `check` can answer to the words a summary puts after a count ("3 at
 * max_instances_per_host"); the factory is typed against it, so a code
 * missing from the table fails to compile. `advice` says, per code, what an
 * operator changes so a host passes (codes whose advice depends on the
 * request are worded in lib/runs/advice.ts, keyed by code).
 */
export interface FilterDescriptor<N extends string = string, C extends string = string> {
  readonly name: N;
  /** One line: what the filter does, in Nova's terms. */
  readonly doc: string;
  readonly reasons: { readonly [K in C]: string };
  readonly advice?: { readonly [K in C]?: string };
  readonly reads: FilterReads;
  readonly factory: FilterFactory<C, N>;
}

/** A filter's descriptor, its name, reason codes and labels kept as literal types. */
export const defineFilter = <const N extends string, const R extends Record<string, string>>(d: {
  readonly name: N;
  readonly doc: string;
  readonly reasons: R;
  readonly advice?: { readonly [K in keyof R]?: string };
  readonly reads: FilterReads;
  readonly factory: FilterFactory<keyof R & string, N>;
}) => d;

/** Everything Schedscope knows of one weigher class (see FilterDescriptor). */
export interface WeigherDescriptor<N extends string = string> {
  readonly name: N;
  /** One line: what the weigher prefers, in Nova's terms. */
  readonly doc: string;
  /** The nova.conf option (and aggregate metadata key) holding its multiplier. */
  readonly multiplier: string;
  /** The option's lowest value (Nova's `min=0`), when it has one. */
  readonly multiplierMin?: number;
  readonly factory: WeigherFactory<N>;
}

/** What a weigher's factory builds: the engine's HostWeigher, less the name and multiplier defineWeigher adds. */
export type WeigherParts = Omit<HostWeigher, "name" | "multiplier"> & Partial<Pick<HostWeigher, "multiplier">>;

/**
 * A weigher's descriptor, built as Nova's weighers subclass BaseHostWeigher:
 * the multiplier is utils.get_weight_multiplier (the nova.conf option,
 * unless aggregate metadata of the same name overrides it for the host). The
 * factory gets it for weighers that read it while weighing, and may replace
 * it (BuildFailureWeigher negates it).
 */
export const defineWeigher = <const N extends string>(d: {
  readonly name: N;
  readonly doc: string;
  readonly multiplier: string;
  readonly multiplierMin?: number;
  /** The option's configured value. */
  readonly configured: (config: SchedulerConfig) => number;
  readonly factory: (config: SchedulerConfig, multiplier: HostWeigher["multiplier"]) => WeigherParts;
}): WeigherDescriptor<N> => ({
  name: d.name,
  doc: d.doc,
  multiplier: d.multiplier,
  ...(d.multiplierMin !== undefined ? { multiplierMin: d.multiplierMin } : {}),
  factory: (config) => {
    const configured = d.configured(config);
    const multiplier = (host: HostState) => host.aggregates.weightMultiplier(d.multiplier, configured);
    return { multiplier, ...d.factory(config, multiplier), name: d.name };
  },
});

/** A reason whose message never changes: one shared object, nothing allocated on the hot path. */
export function fixedReason<C extends string>(code: C, message: string): Reason<C> {
  return Object.freeze({ code, message });
}
