import { defineWeigher } from "../plugin";

/** CPUWeigher: free vCPUs after the allocation ratio. */
export const CPUWeigher = defineWeigher({
  name: "CPUWeigher",
  doc: "Free vCPUs (> 0 spreads, < 0 stacks).",
  multiplier: "cpu_weight_multiplier",
  factory: (config) => ({
    name: "CPUWeigher",
    minval: 0,
    weigh: (host) => host.vcpusTotal * host.cpuAllocationRatio - host.vcpusUsed,
    multiplier: (host) => host.aggregates.weightMultiplier("cpu_weight_multiplier", config.cpuWeightMultiplier),
  }),
});
