import type { SchedulerConfig } from "../config";
import type { HostState } from "../host-state";
import { defineWeigher, type WeigherDescriptor } from "../plugin";

/**
 * Nova's BaseHostWeigher as most weighers subclass it: `_weigh_object` reads
 * one value of the host, and `weight_multiplier` is
 * utils.get_weight_multiplier: the nova.conf option, unless aggregate
 * metadata of the same name overrides it for the host.
 */
export const hostValueWeigher = <const N extends string>(d: {
  readonly name: N;
  readonly doc: string;
  /** The nova.conf option and aggregate metadata key. */
  readonly multiplier: string;
  /** The option's configured value. */
  readonly configured: (config: SchedulerConfig) => number;
  /** Nova's `minval` where the class sets one (the raw floor normalization uses). */
  readonly minval?: number;
  readonly weigh: (host: HostState) => number;
}): WeigherDescriptor<N> =>
  defineWeigher({
    name: d.name,
    doc: d.doc,
    multiplier: d.multiplier,
    factory: (config) => {
      const configured = d.configured(config);
      return {
        name: d.name,
        ...(d.minval === undefined ? {} : { minval: d.minval }),
        weigh: d.weigh,
        multiplier: (host) => host.aggregates.weightMultiplier(d.multiplier, configured),
      };
    },
  });
