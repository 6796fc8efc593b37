import { defineWeigher } from "../plugin";

/** HypervisorVersionWeigher (Nova 2023.2+, e38d6a356b): prefer newer hypervisors (`hypervisor_version or 0`). */
export const HypervisorVersionWeigher = defineWeigher({
  name: "HypervisorVersionWeigher",
  doc: "Newer hypervisor versions (2024.1+, opt-in by name).",
  multiplier: "hypervisor_version_weight_multiplier",
  configured: (config) => config.hypervisorVersionWeightMultiplier,
  factory: () => ({ weigh: (host) => host.hypervisorVersion }),
});
