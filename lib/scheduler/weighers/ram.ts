import type { WeigherFactory } from "../plugin";

/** RAMWeigher: free RAM; > 0 multiplier spreads, < 0 stacks. */
export const RAMWeigher: WeigherFactory = (config) => ({
  name: "RAMWeigher",
  minval: 0,
  weigh: (host) => host.freeRamMb,
  multiplier: (host) => host.aggregates.weightMultiplier("ram_weight_multiplier", config.ramWeightMultiplier),
});
