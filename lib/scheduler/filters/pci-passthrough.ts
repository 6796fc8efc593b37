import { explainPci } from "../pci/explain";
import type { FilterFactory } from "../plugin";

/** PciPassthroughFilter: the host's free PCI pools must serve every PCI request (no NUMA affinity here). */
export const PciPassthroughFilter: FilterFactory = () => ({
  name: "PciPassthroughFilter",
  runOncePerRequest: false,
  check(host, spec) {
    if (!spec.pciRequests.length) return null;
    if (host.pciStats.supportRequests(spec.pciRequests)) return null;
    return { code: "PCI_NO_POOL", message: explainPci(host.pciStats, spec.pciRequests) };
  },
});
