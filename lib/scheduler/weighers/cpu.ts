import { defineWeigher } from "../plugin";

/** CPUWeigher: free vCPUs after the allocation ratio. */
export const CPUWeigher = defineWeigher({
  name: "CPUWeigher",
  doc: "Free vCPUs (> 0 spreads, < 0 stacks).",
  multiplier: "cpu_weight_multiplier",
  configured: (config) => config.cpuWeightMultiplier,
  factory: () => ({ minval: 0, weigh: (host) => host.vcpusTotal * host.cpuAllocationRatio - host.vcpusUsed }),
});
