import { describe, expect, it } from "vitest";
import { schedule } from "../engine";
import { toResult } from "../result";
import type { Scenario, ScenarioHost, ScenarioNumaPages } from "../scenario";

// Both scenarios and their outcomes are checked against the Nova reference.

/** One cell of 4 shared CPUs with 4 KiB pages and one size of large pages. */
function pagedHost(name: string, memoryMb: number, largePages: ScenarioNumaPages): ScenarioHost {
  return {
    name,
    vcpus: 8,
    memory_mb: memoryMb,
    local_gb: 100,
    numa_topology: {
      cells: [
        {
          id: 0,
          cpuset: [0, 1, 2, 3],
          pcpuset: [],
          memory: 16384,
          mempages: [{ size_kb: 4, total: 1048576 }, largePages],
        },
      ],
    },
  };
}
const LARGE_PAGES: Scenario = {
  config: {
    enabled_filters: ["NUMATopologyFilter"],
    weighers: ["RAMWeigher"],
  },
  hosts: [
    pagedHost("gig", 65536, { size_kb: 1048576, total: 4, used: 0 }),
    pagedHost("twomeg", 32768, { size_kb: 2048, total: 4096, used: 0 }),
  ],
  request: {
    flavor: {
      name: "f",
      vcpus: 1,
      memory_mb: 1024,
      root_gb: 1,
      extra_specs: {
        "hw:mem_page_size": "large",
      },
    },
    num_instances: 3,
  },
};

const PCI_WITHOUT_FILTER: Scenario = {
  config: {
    enabled_filters: ["ComputeFilter"],
    weighers: ["IoOpsWeigher"],
    pci_alias: [
      {
        name: "gpu",
        vendor_id: "10de",
        product_id: "20b5",
      },
    ],
  },
  hosts: [
    {
      name: "a",
      vcpus: 8,
      memory_mb: 8192,
      local_gb: 100,
      pci_device_pools: [
        {
          vendor_id: "10de",
          product_id: "20b5",
          numa_node: null,
          count: 1,
          tags: {
            dev_type: "type-PCI",
          },
        },
      ],
    },
    {
      name: "b",
      vcpus: 8,
      memory_mb: 8192,
      local_gb: 100,
      num_io_ops: 1,
    },
  ],
  request: {
    flavor: {
      name: "f",
      vcpus: 1,
      memory_mb: 512,
      root_gb: 1,
      extra_specs: {
        "pci_passthrough:alias": "gpu:1",
      },
    },
    num_instances: 3,
  },
};

describe("consuming the chosen host, as HostState.consume_from_request does", () => {
  it("replaces the request's page size 'large' by the size the first instance got", () => {
    const r = toResult(schedule(LARGE_PAGES));
    expect(r.selections.map((s) => [s.host, s.numa?.[0].pagesize])).toEqual([
      ["gig", 1048576],
      ["gig", 1048576],
      ["gig", 1048576],
    ]);
    // the host with only 2 MiB pages fitted "large" but not 1 GiB pages
    expect(r.requests[1].funnel[0].rejected).toEqual(["twomeg"]);
  });

  it("swallows a PCI request the host cannot serve: nothing taken, no I/O op counted", () => {
    const r = toResult(schedule(PCI_WITHOUT_FILTER));
    expect(r.selections.map((s) => [s.host, s.pci?.length])).toEqual([
      ["a", 1],
      ["a", 0],
      ["a", 0],
    ]);
    const ioOps = r.requests.map((q) => q.weighed.find((w) => w.host === "a")?.weighers.IoOpsWeigher.raw);
    expect(ioOps).toEqual([0, 1, 1]);
  });
});
