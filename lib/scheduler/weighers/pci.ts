import type { WeigherFactory } from "../plugin";

const MAX_DEVS = 100;

/** PCIWeigher: keeps PCI hosts free; with no PCI pools modelled every host weighs the same. */
export const PCIWeigher: WeigherFactory = (config) => ({
  name: "PCIWeigher",
  weigh: () => MAX_DEVS - Math.min(0, MAX_DEVS - 1),
  multiplier: (host) => host.aggregates.weightMultiplier("pci_weight_multiplier", config.pciWeightMultiplier),
});
