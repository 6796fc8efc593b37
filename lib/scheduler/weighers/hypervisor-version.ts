import type { WeigherFactory } from "../plugin";

/** HypervisorVersionWeigher (Nova 2024.1+): prefer newer hypervisors. */
export const HypervisorVersionWeigher: WeigherFactory = (config) => ({
  name: "HypervisorVersionWeigher",
  weigh: (host) => host.hypervisorVersion,
  multiplier: (host) =>
    host.aggregates.weightMultiplier("hypervisor_version_weight_multiplier", config.hypervisorVersionWeightMultiplier),
});
