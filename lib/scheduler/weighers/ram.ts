import { defineWeigher } from "../plugin";

/** RAMWeigher: free RAM; > 0 multiplier spreads, < 0 stacks. */
export const RAMWeigher = defineWeigher({
  name: "RAMWeigher",
  doc: "Free RAM (> 0 spreads, < 0 stacks).",
  multiplier: "ram_weight_multiplier",
  factory: (config) => ({
    name: "RAMWeigher",
    minval: 0,
    weigh: (host) => host.freeRamMb,
    multiplier: (host) => host.aggregates.weightMultiplier("ram_weight_multiplier", config.ramWeightMultiplier),
  }),
});
