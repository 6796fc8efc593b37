import { describe, expect, it } from "vitest";
import { buildImageProps } from "../image-meta";
import { NovaError } from "../python";
import { numaGetConstraints } from "./constraints";

/** A guest cell as [cpuset, pcpuset, memory, pagesize]. */
type Cell = [number[], number[], number, number | null];
type Policies = { policy: string | null; thread: string | null; emulator: string | null };
type Expect = string | null | ({ cells: Cell[] } & Policies);

/** The topology Nova builds; the policies it leaves unset are null. */
function fitted(cells: Cell[], policies: Partial<Policies> = {}): Expect {
  return { cells, policy: null, thread: null, emulator: null, ...policies };
}

// Expectations are what Nova Zed's hardware.numa_get_constraints answers for the same flavor and image.
const CASES: Array<{
  name: string;
  vcpus: number;
  memoryMb: number;
  extraSpecs: Record<string, string>;
  image?: Record<string, string>;
  expect: Expect;
}> = [
  { name: "no NUMA asked", vcpus: 4, memoryMb: 4096, extraSpecs: {}, expect: null },
  {
    name: "dedicated: one cell, every vCPU pinned",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:cpu_policy": "dedicated" },
    expect: fitted([[[], [0, 1, 2, 3], 4096, null]], { policy: "dedicated" }),
  },
  {
    name: "two nodes split CPUs and memory",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:numa_nodes": "2" },
    expect: fitted([
      [[0, 1], [], 2048, null],
      [[2, 3], [], 2048, null],
    ]),
  },
  {
    name: "asymmetric split",
    vcpus: 3,
    memoryMb: 4096,
    extraSpecs: { "hw:numa_nodes": "2" },
    expect: "ImageNUMATopologyAsymmetric",
  },
  {
    name: "manual cells",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: {
      "hw:numa_nodes": "2",
      "hw:numa_cpus.0": "0",
      "hw:numa_cpus.1": "1-3",
      "hw:numa_mem.0": "1024",
      "hw:numa_mem.1": "3072",
    },
    expect: fitted([
      [[0], [], 1024, null],
      [[1, 2, 3], [], 3072, null],
    ]),
  },
  {
    name: "manual cells miss a CPU",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: {
      "hw:numa_nodes": "2",
      "hw:numa_cpus.0": "0",
      "hw:numa_cpus.1": "1-2",
      "hw:numa_mem.0": "1024",
      "hw:numa_mem.1": "3072",
    },
    expect: "ImageNUMATopologyCPUsUnassigned",
  },
  {
    name: "manual cells wrong memory",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: {
      "hw:numa_nodes": "2",
      "hw:numa_cpus.0": "0",
      "hw:numa_cpus.1": "1-3",
      "hw:numa_mem.0": "1024",
      "hw:numa_mem.1": "1024",
    },
    expect: "ImageNUMATopologyMemoryOutOfRange",
  },
  {
    name: "cpus without memory",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:numa_nodes": "2", "hw:numa_cpus.0": "0-1", "hw:numa_cpus.1": "2-3" },
    expect: "ImageNUMATopologyIncomplete",
  },
  {
    name: "mixed with a dedicated mask",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "^0-1" },
    expect: fitted([[[0, 1], [2, 3], 4096, null]], { policy: "mixed" }),
  },
  {
    name: "mixed without a mask",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:cpu_policy": "mixed" },
    expect: "RequiredMixedOrRealtimeCPUMask",
  },
  {
    name: "mixed with both masks",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: {
      "hw:cpu_policy": "mixed",
      "hw:cpu_dedicated_mask": "^0",
      "hw:cpu_realtime": "yes",
      "hw:cpu_realtime_mask": "^0",
    },
    expect: "RequiredMixedOrRealtimeCPUMask",
  },
  {
    name: "thread policy without pinning",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:cpu_thread_policy": "isolate" },
    expect: "CPUThreadPolicyConfigurationInvalid",
  },
  {
    name: "large pages",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:mem_page_size": "large" },
    expect: fitted([[[0, 1], [], 2048, -2]]),
  },
  {
    name: "page size in units",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:mem_page_size": "2MB" },
    expect: fitted([[[0, 1], [], 2048, 2048]]),
  },
  {
    name: "bad page size",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:mem_page_size": "huge" },
    expect: "MemoryPageSizeInvalid",
  },
  {
    name: "image page size without the flavor's",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: {},
    image: { hw_mem_page_size: "large" },
    expect: "MemoryPageSizeForbidden",
  },
  {
    name: "image narrows large to 2048",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:mem_page_size": "large" },
    image: { hw_mem_page_size: "2048" },
    expect: fitted([[[0, 1], [], 2048, 2048]]),
  },
  {
    name: "resources:PCPU means dedicated",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "resources:PCPU": "2" },
    expect: fitted([[[], [0, 1], 2048, null]], { policy: "dedicated" }),
  },
  {
    name: "resources:PCPU with a policy",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "resources:PCPU": "2", "hw:cpu_policy": "dedicated" },
    expect: "InvalidRequest",
  },
  {
    name: "hyperthreading trait forbidden means isolate",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:cpu_policy": "dedicated", "trait:HW_CPU_HYPERTHREADING": "forbidden" },
    expect: fitted([[[], [0, 1], 2048, null]], { policy: "dedicated", thread: "isolate" }),
  },
  {
    name: "emulator threads isolate",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:cpu_policy": "dedicated", "hw:emulator_threads_policy": "isolate" },
    expect: fitted([[[], [0, 1], 2048, null]], { policy: "dedicated", emulator: "isolate" }),
  },
  {
    name: "emulator threads isolate without pinning",
    vcpus: 2,
    memoryMb: 2048,
    extraSpecs: { "hw:emulator_threads_policy": "isolate" },
    expect: "BadRequirementEmulatorThreadsPolicy",
  },
  {
    name: "image dedicated against flavor mixed",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "^0" },
    image: { hw_cpu_policy: "dedicated" },
    expect: "ImageCPUPinningForbidden",
  },
  {
    name: "zero NUMA nodes",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:numa_nodes": "0" },
    expect: "InvalidNUMANodesNumber",
  },
  {
    name: "realtime mask covering every vCPU",
    vcpus: 4,
    memoryMb: 4096,
    extraSpecs: { "hw:cpu_policy": "dedicated", "hw:cpu_realtime": "yes", "hw:cpu_realtime_mask": "0-3" },
    expect: "RealtimeMaskNotFoundOrInvalid",
  },
];

function run(c: (typeof CASES)[number]): Expect {
  try {
    const t = numaGetConstraints(
      { name: "f", vcpus: c.vcpus, memoryMb: c.memoryMb, extraSpecs: new Map(Object.entries(c.extraSpecs)) },
      buildImageProps(c.image ?? {}),
    );
    if (!t) return null;
    return {
      cells: t.cells.map((x) => [x.cpuset, x.pcpuset, x.memory, x.pagesize] as Cell),
      policy: t.cells[0].cpuPolicy,
      thread: t.cells[0].cpuThreadPolicy,
      emulator: t.emulatorThreadsPolicy,
    };
  } catch (e) {
    if (e instanceof NovaError) return e.novaName;
    throw e;
  }
}

describe("numa_get_constraints: the guest NUMA topology a flavor and image ask for", () => {
  it.each(CASES)("$name", (c) => {
    expect(run(c)).toEqual(c.expect);
  });
});
