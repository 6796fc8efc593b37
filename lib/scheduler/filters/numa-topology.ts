import { explainNoFit, guestNeeds } from "../numa/explain";
import { explainPciAffinity } from "../pci/explain";
import { type FitOptions, mayFit, type NumaFitFacts, type NUMALimits, numaFitInstanceToHost } from "../numa/fit";
import { cellHasThreads, type InstanceNUMATopology, type NUMACell } from "../numa/objects";
import { PySet } from "../numa/pyset";
import { defineFilter, fixedReason, type Reason } from "../plugin";

const NO_SMT = fixedReason("NUMA_NO_SMT", "the 'require' CPU thread policy needs SMT siblings; the host has none");
const NO_TOPOLOGY = fixedReason("NUMA_NO_TOPOLOGY", "no NUMA topology reported; the request needs one");

function noFit(cells: NUMACell[], requested: InstanceNUMATopology, cpuRatio: number): Reason<"NUMA_NO_FIT"> {
  return { code: "NUMA_NO_FIT", message: explainNoFit(cells, requested, cpuRatio, []) };
}

/**
 * noFit, kept with the host's cells: the same cells (and the same host's
 * allocation ratio) and guest needs read the same from request to request.
 */
function noFitOf(facts: NumaFitFacts, requested: InstanceNUMATopology, cpuRatio: number): Reason<"NUMA_NO_FIT"> {
  const needs = guestNeeds(requested, []);
  if (facts.noFitNeeds === needs && facts.noFitReason !== null) return facts.noFitReason;
  const reason = noFit(facts.cells, requested, cpuRatio);
  facts.noFitNeeds = needs;
  facts.noFitReason = reason;
  return reason;
}

/** What an operator changes so a host passes. */
const NUMA =
  "No remaining host can fit the flavor's NUMA topology (hw:numa_*, hw:cpu_policy, hw:mem_page_size): relax those extra specs, or add hosts that fit.";

/**
 * NUMATopologyFilter: the guest's NUMA cells must fit the host's (CPUs,
 * pinning, memory, pages, PCI NUMA affinity), with the host's allocation
 * ratios as limits, which the consume step then uses.
 */
export const NUMATopologyFilter = defineFilter({
  name: "NUMATopologyFilter",
  doc: "Hosts whose NUMA topology fits the flavor's hw:numa_* / CPU pinning / huge pages.",
  reasons: {
    NUMA_NO_TOPOLOGY: "without a NUMA topology",
    NUMA_NO_SMT: "without SMT siblings (cpu_thread_policy=require)",
    NUMA_NO_FIT: "where the NUMA topology does not fit",
    PCI_NUMA_AFFINITY: "without the PCI devices on the NUMA nodes that fit",
  },
  advice: {
    NUMA_NO_TOPOLOGY: NUMA,
    NUMA_NO_SMT: NUMA,
    NUMA_NO_FIT: NUMA,
    PCI_NUMA_AFFINITY: NUMA,
  },
  reads: {
    extraSpecs: ["hw:*", "pci_passthrough:alias"],
    imageProps: ["hw_*"],
  },
  factory: (config) => {
    // _satisfies_cpu_policy reads the raw flavor and image values: dedicated CPUs with the 'require' thread policy
    let requiresSmt = false;
    // Only the verdict is read, so one options object and one copy of the guest topology serve every host.
    const opts: FitOptions = {
      limits: null,
      pciRequests: null,
      pciStats: null,
      pack: false,
      verdictOnly: true,
      pciMiss: { hostCells: null },
      freeSmallPages: config.release.pinnedCellsUseFreePages,
      emptyPinningFits: config.release.mixedCellsWithoutDedicatedFit,
    };
    let limits: NUMALimits | null = null;
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
        const cpuPolicies: unknown[] = [specs.get("hw:cpu_policy"), spec.imageProps.get("hw_cpu_policy")];
        const threadPolicies: unknown[] = [
          specs.get("hw:cpu_thread_policy"),
          spec.imageProps.get("hw_cpu_thread_policy"),
        ];
        requiresSmt = cpuPolicies.includes("dedicated") && threadPolicies.includes("require");
      },
      check(host, spec) {
        const cells = host.numaCells;
        if (requiresSmt && cells?.length && !cells.some(cellHasThreads)) return NO_SMT;
        const requested = spec.numaTopology;
        if (!requested?.cells.length) return null;
        if (cells === null) return NO_TOPOLOGY;
        // A frozen snapshot's summaries are one table read front to back; a consumed host's are its own.
        const packed = host.summarized === cells && host.numaTable !== null;
        const summary = packed ? host.numaTable! : host.numaFitFacts(cells).summary;
        const at = packed ? host.numaAt : 0;
        // (the summary's first number is the count of cells: the cells themselves stay unread)
        if (!summary[at]) return NO_TOPOLOGY;
        // Most hosts fail a first check (free pCPUs, pages, memory): no copy, no fit for them.
        if (!mayFit(summary, requested, at, opts.freeSmallPages))
          return noFitOf(host.numaFitFacts(cells), requested, host.cpuAllocationRatio);
        // Read only (by the fit and the consume step): hosts with the same ratios share one.
        if (
          limits === null ||
          limits.cpuAllocationRatio !== host.cpuAllocationRatio ||
          limits.ramAllocationRatio !== host.ramAllocationRatio
        )
          limits = { cpuAllocationRatio: host.cpuAllocationRatio, ramAllocationRatio: host.ramAllocationRatio };
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
        host.setNumaLimits(limits, spec);
        return null;
      },
    };
  },
});
