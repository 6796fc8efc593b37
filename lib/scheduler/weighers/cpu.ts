import type { WeigherFactory } from "../plugin";

/** CPUWeigher: free vCPUs after the allocation ratio. */
export const CPUWeigher: WeigherFactory = (config) => ({
  name: "CPUWeigher",
  minval: 0,
  weigh: (host) => host.vcpusTotal * host.cpuAllocationRatio - host.vcpusUsed,
  multiplier: (host) => host.aggregates.weightMultiplier("cpu_weight_multiplier", config.cpuWeightMultiplier),
});
