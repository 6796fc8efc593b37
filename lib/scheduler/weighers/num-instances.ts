import { defineWeigher } from "../plugin";

/** NumInstancesWeigher (Nova 2023.2+, ca3fbb4d15): > 0 packs hosts with more instances, < 0 spreads. */
export const NumInstancesWeigher = defineWeigher({
  name: "NumInstancesWeigher",
  doc: "Instance count (2024.1+, opt-in by name).",
  multiplier: "num_instances_weight_multiplier",
  configured: (config) => config.numInstancesWeightMultiplier,
  factory: () => ({ weigh: (host) => host.numInstances }),
});
