import { explainPci } from "../pci/explain";
import { defineFilter } from "../plugin";

/** PciPassthroughFilter: the host's free PCI pools must serve every PCI request (no NUMA affinity here). */
export const PciPassthroughFilter = defineFilter({
  name: "PciPassthroughFilter",
  doc: "Hosts with the PCI devices the flavor requests.",
  reasons: {
    PCI_NO_POOL: "without the requested PCI devices",
  },
  advice: {
    PCI_NO_POOL:
      "No remaining host has the PCI devices the flavor asks for (pci_passthrough:alias): free or add such devices.",
  },
  reads: {
    extraSpecs: ["pci_passthrough:alias"],
  },
  factory: () => ({
    name: "PciPassthroughFilter",
    runOncePerRequest: false,
    check(host, spec) {
      if (!spec.pciRequests.length) return null;
      if (host.pciStats.supportRequests(spec.pciRequests)) return null;
      return { code: "PCI_NO_POOL", message: explainPci(host.pciStats, spec.pciRequests) };
    },
  }),
});
