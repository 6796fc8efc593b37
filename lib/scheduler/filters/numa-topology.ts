import { explainNoFit } from "../numa/explain";
import { explainPciAffinity } from "../pci/explain";
import { type FitOptions, mayFit, numaFitInstanceToHost } from "../numa/fit";
import { cellHasThreads, type InstanceNUMATopology, type NUMACell } from "../numa/objects";
import { PySet } from "../numa/pyset";
import type { FilterFactory, Reason } from "../plugin";
import { fixedReason } from "../reasons";

const NO_SMT = fixedReason("NUMA_NO_SMT", "the 'require' CPU thread policy needs SMT siblings; the host has none");
const NO_TOPOLOGY = fixedReason("NUMA_NO_TOPOLOGY", "no NUMA topology reported; the request needs one");

function noFit(cells: NUMACell[], requested: InstanceNUMATopology, cpuRatio: number): Reason {
  return { code: "NUMA_NO_FIT", message: explainNoFit(cells, requested, cpuRatio, []) };
}

/**
 * NUMATopologyFilter: the guest's NUMA cells must fit the host's (CPUs,
 * pinning, memory, pages, PCI NUMA affinity), with the host's allocation
 * ratios as limits, which the consume step then uses.
 */
export const NUMATopologyFilter: FilterFactory = (config) => {
  let cpuPolicies: Array<unknown> = [];
  let threadPolicies: Array<unknown> = [];
  // Only the verdict is read, so one options object and one copy of the guest topology serve every host.
  const opts: FitOptions = {
    limits: null,
    pciRequests: null,
    pciStats: null,
    pack: false,
    verdictOnly: true,
    pciMiss: { hostCells: null },
  };
  let scratchFor: InstanceNUMATopology | null = null;
  let scratch: InstanceNUMATopology | null = null;
  /** obj_clone() of the request's topology: the fit changes the guest cells it tries (ids, page size, pinning). */
  function scratchOf(t: InstanceNUMATopology): InstanceNUMATopology {
    if (scratchFor !== t || !scratch) {
      scratchFor = t;
      scratch = { emulatorThreadsPolicy: t.emulatorThreadsPolicy, cells: t.cells.map((c) => ({ ...c })) };
    }
    for (let i = 0; i < t.cells.length; i++) {
      const c = t.cells[i];
      const s = scratch.cells[i];
      s.id = c.id;
      s.pagesize = c.pagesize;
      s.cpuPinning = c.cpuPinning ? new Map(c.cpuPinning) : null;
      s.cpusetReserved = c.cpusetReserved ? PySet.coerce(c.cpusetReserved) : null;
    }
    return scratch;
  }
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
      // Most hosts fail a first check (free pCPUs, pages, memory): no copy, no fit for them.
      if (!mayFit(host.numaFitSummary(cells), requested)) return noFit(cells, requested, host.cpuAllocationRatio);
      const limits = { cpuAllocationRatio: host.cpuAllocationRatio, ramAllocationRatio: host.ramAllocationRatio };
      opts.limits = limits;
      opts.pciRequests = spec.pciRequests;
      opts.pciStats = host.pciStats;
      opts.pack = config.packingHostNumaCellsAllocationStrategy;
      opts.pciMiss!.hostCells = null;
      const fitted = numaFitInstanceToHost(cells, scratchOf(requested), opts);
      if (!fitted) {
        // The cells fitted somewhere, the devices' NUMA affinity did not.
        const missed = opts.pciMiss!.hostCells;
        if (missed)
          return {
            code: "PCI_NUMA_AFFINITY",
            message: explainPciAffinity(host.pciStats, spec.pciRequests, missed),
          };
        return noFit(cells, requested, host.cpuAllocationRatio);
      }
      host.numaLimits = limits;
      return null;
    },
  };
};
