import { defineWeigher } from "../plugin";

const MAX_DEVS = 100;

/**
 * PCIWeigher: hosts with fewer free PCI devices weigh more (raw = 100 -
 * min(free, 99)), for every request: PCI guests stack, others avoid PCI hosts.
 */
export const PCIWeigher = defineWeigher({
  name: "PCIWeigher",
  doc: "Keeps PCI-capable hosts for PCI requests.",
  multiplier: "pci_weight_multiplier",
  multiplierMin: 0,
  configured: (config) => config.pciWeightMultiplier,
  factory: () => ({ weigh: (host) => MAX_DEVS - Math.min(host.pciStats.freeDevices, MAX_DEVS - 1) }),
});
