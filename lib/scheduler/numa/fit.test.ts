import { describe, expect, it } from "vitest";
import { schedule } from "../engine";
import { toResult } from "../result";
import type { Scenario, ScenarioNumaCell } from "../scenario";

// One host, one guest: the fitted NUMA cells (or null: NoValidHost) are what
// the Nova reference answers for the same scenario.

/** 4 cores with 2 threads each: host CPU n and n + 4 are siblings. */
const SMT_CELL: ScenarioNumaCell = {
  id: 0,
  cpuset: [0, 1, 2, 3, 4, 5, 6, 7],
  pcpuset: [0, 1, 2, 3, 4, 5, 6, 7],
  memory: 16384,
  siblings: [
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
  ],
};
const FOUR_PCPU_CELL: ScenarioNumaCell = { id: 0, cpuset: [], pcpuset: [0, 1, 2, 3], memory: 16384 };
/** Shared CPUs with 4 KiB, 2 MiB and 1 GiB pages; one of the two 1 GiB pages is used. */
const PAGED_CELL: ScenarioNumaCell = {
  id: 0,
  cpuset: [0, 1, 2, 3],
  pcpuset: [],
  memory: 16384,
  mempages: [
    { size_kb: 4, total: 2097152, used: 0 },
    { size_kb: 2048, total: 1024, used: 0 },
    { size_kb: 1048576, total: 2, used: 1 },
  ],
};
/** Cell 0 has 2 of its 4 pCPUs pinned, cell 1 none. */
const TWO_CELLS_ONE_HALF_PINNED: ScenarioNumaCell[] = [
  { ...FOUR_PCPU_CELL, pinned_cpus: [0, 1] },
  { id: 1, cpuset: [], pcpuset: [4, 5, 6, 7], memory: 16384 },
];

/** A fitted guest cell as the reference prints it; a case names only the fields that are not empty/null/0. */
function guestCell(fields: { memory: number } & Record<string, unknown>) {
  return {
    cpu_pinning: {},
    cpuset: [],
    cpuset_reserved: null,
    host_cell: 0,
    id: 0,
    pagesize: null,
    pcpuset: [],
    ...fields,
  };
}
const CASES: Array<{
  name: string;
  cells: ScenarioNumaCell[];
  vcpus: number;
  memoryMb: number;
  extraSpecs: Record<string, string>;
  numa: unknown;
}> = [
  {
    name: "prefer packs a guest onto thread siblings",
    cells: [SMT_CELL],
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:cpu_policy": "dedicated" },
    numa: [guestCell({ cpu_pinning: { "0": 0, "1": 4, "2": 1, "3": 5 }, memory: 4096, pcpuset: [0, 1, 2, 3] })],
  },
  {
    name: "isolate takes one thread per core",
    cells: [SMT_CELL],
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:cpu_policy": "dedicated", "hw:cpu_thread_policy": "isolate" },
    numa: [guestCell({ cpu_pinning: { "0": 0, "1": 1 }, memory: 2048, pcpuset: [0, 1] })],
  },
  {
    name: "isolate does not fit when it needs more cores than are free",
    cells: [SMT_CELL],
    vcpus: 6,
    memoryMb: 6144,
    extraSpecs: { "hw:cpu_policy": "dedicated", "hw:cpu_thread_policy": "isolate" },
    numa: null,
  },
  {
    name: "require fails without SMT",
    cells: [FOUR_PCPU_CELL],
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:cpu_policy": "dedicated", "hw:cpu_thread_policy": "require" },
    numa: null,
  },
  {
    name: "free siblings {5, 13} pin 13 first (CPython set order)",
    cells: [
      {
        id: 0,
        cpuset: [],
        pcpuset: [5, 13, 6, 14],
        memory: 16384,
        siblings: [
          [5, 13],
          [6, 14],
        ],
      },
    ],
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:cpu_policy": "dedicated" },
    numa: [guestCell({ cpu_pinning: { "0": 13, "1": 5 }, memory: 2048, pcpuset: [0, 1] })],
  },
  {
    name: "emulator threads isolate reserves one more host CPU",
    cells: [FOUR_PCPU_CELL],
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:cpu_policy": "dedicated", "hw:emulator_threads_policy": "isolate" },
    numa: [guestCell({ cpu_pinning: { "0": 0, "1": 1 }, cpuset_reserved: [2], memory: 2048, pcpuset: [0, 1] })],
  },
  {
    name: "large pages: the largest size with enough free pages",
    cells: [PAGED_CELL],
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:mem_page_size": "large" },
    numa: [guestCell({ cpuset: [0, 1], memory: 2048, pagesize: 2048 })],
  },
  {
    name: "any page size falls back when 1 GiB pages run out",
    cells: [PAGED_CELL],
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:mem_page_size": "any" },
    numa: [guestCell({ cpuset: [0, 1], memory: 2048, pagesize: 2048 })],
  },
  {
    name: "small pages",
    cells: [PAGED_CELL],
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:mem_page_size": "small" },
    numa: [guestCell({ cpuset: [0, 1], memory: 2048, pagesize: 4 })],
  },
  {
    name: "spread: the cell with more free pCPUs is tried first",
    cells: TWO_CELLS_ONE_HALF_PINNED,
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:cpu_policy": "dedicated" },
    numa: [guestCell({ cpu_pinning: { "0": 4, "1": 5 }, host_cell: 1, memory: 2048, pcpuset: [0, 1] })],
  },
  {
    name: "two guest nodes on two host cells",
    cells: TWO_CELLS_ONE_HALF_PINNED,
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:cpu_policy": "dedicated", "hw:numa_nodes": "2" },
    numa: [
      guestCell({ cpu_pinning: { "0": 2, "1": 3 }, memory: 2048, pcpuset: [0, 1] }),
      guestCell({ cpu_pinning: { "2": 4, "3": 5 }, host_cell: 1, id: 1, memory: 2048, pcpuset: [2, 3] }),
    ],
  },
];

function scenario(c: (typeof CASES)[number]): Scenario {
  return {
    config: { enabled_filters: ["NUMATopologyFilter"], weighers: ["RAMWeigher"] },
    hosts: [{ name: "h", vcpus: 16, memory_mb: 65536, local_gb: 100, numa_topology: { cells: c.cells } }],
    request: { flavor: { name: "f", vcpus: c.vcpus, memory_mb: c.memoryMb, root_gb: 1, extra_specs: c.extraSpecs } },
  };
}

describe("fitting a guest onto host NUMA cells (pinning, thread policies, pages)", () => {
  it.each(CASES)("$name", (c) => {
    const result = toResult(schedule(scenario(c)));
    if (c.numa === null) {
      expect(result.error).toBe("NoValidHost");
      expect(result.requests[0].funnel[0].reasons[0]).toMatch(/cell 0: |SMT siblings/);
    } else {
      expect(result.error).toBeNull();
      expect(result.selections[0].numa).toEqual(c.numa);
    }
  });
});
