import { explainNoFit } from "../numa/explain";
import { explainPciAffinity } from "../pci/explain";
import { numaFitInstanceToHost } from "../numa/fit";
import { cellHasThreads, cloneTopology } from "../numa/objects";
import type { FilterFactory } from "../plugin";
import { fixedReason } from "../reasons";

const NO_SMT = fixedReason("NUMA_NO_SMT", "the 'require' CPU thread policy needs SMT siblings; the host has none");
const NO_TOPOLOGY = fixedReason("NUMA_NO_TOPOLOGY", "no NUMA topology reported; the request needs one");

/**
 * NUMATopologyFilter: the guest's NUMA cells must fit the host's (CPUs,
 * pinning, memory, pages, PCI NUMA affinity), with the host's allocation
 * ratios as limits, which the consume step then uses.
 */
export const NUMATopologyFilter: FilterFactory = (config) => {
  let cpuPolicies: Array<unknown> = [];
  let threadPolicies: Array<unknown> = [];
  return {
    name: "NUMATopologyFilter",
    runOncePerRequest: false,
    prepare(spec) {
      const specs = new Map(spec.flavor.extraSpecs.map((e) => [e.key, e.value]));
      cpuPolicies = [specs.get("hw:cpu_policy"), spec.imageProps.get("hw_cpu_policy")];
      threadPolicies = [specs.get("hw:cpu_thread_policy"), spec.imageProps.get("hw_cpu_thread_policy")];
    },
    check(host, spec) {
      const cells = host.numaCells;
      // _satisfies_cpu_policy reads the raw flavor and image values
      if (
        cells?.length &&
        cpuPolicies.includes("dedicated") &&
        threadPolicies.includes("require") &&
        !cells.some(cellHasThreads)
      )
        return NO_SMT;
      const requested = spec.numaTopology;
      if (!requested?.cells.length) return null;
      if (!cells?.length) return NO_TOPOLOGY;
      const limits = { cpuAllocationRatio: host.cpuAllocationRatio, ramAllocationRatio: host.ramAllocationRatio };
      const pciMiss = { hostCells: null as number[] | null };
      const fitted = numaFitInstanceToHost(cells, cloneTopology(requested), {
        limits,
        pciRequests: spec.pciRequests,
        pciStats: host.pciStats,
        pack: config.packingHostNumaCellsAllocationStrategy,
        verdictOnly: true,
        pciMiss,
      });
      if (!fitted) {
        // The cells fitted somewhere, the devices' NUMA affinity did not.
        if (pciMiss.hostCells)
          return {
            code: "PCI_NUMA_AFFINITY",
            message: explainPciAffinity(host.pciStats, spec.pciRequests, pciMiss.hostCells),
          };
        return { code: "NUMA_NO_FIT", message: explainNoFit(cells, requested, host.cpuAllocationRatio, []) };
      }
      host.numaLimits = limits;
      return null;
    },
  };
};
