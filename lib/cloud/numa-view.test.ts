import { describe, expect, it } from "vitest";
import { describeNumaTopology } from "./numa-view";
import type { PciDevicePoolInput } from "../scenario/schema";

describe("describeNumaTopology", () => {
  const topology = {
    cells: [
      {
        id: 0,
        cpuset: [2, 3, 10, 11],
        pcpuset: [0, 1, 8, 9],
        memory: 32768,
        cpu_usage: 6,
        memory_usage: 4096,
        pinned_cpus: [0, 8],
        siblings: [
          [0, 8],
          [1, 9],
          [2, 10],
          [3, 11],
        ],
        mempages: [
          { size_kb: 4, total: 7340032, used: 1048576, reserved: 0 },
          { size_kb: 1048576, total: 4, used: 1, reserved: 1 },
        ],
        socket: 0,
      },
      { id: 1, cpuset: [4, 5], pcpuset: [4, 5], memory: 1024 },
    ],
  };
  const pools: PciDevicePoolInput[] = [
    {
      vendor_id: "10de",
      product_id: "20b5",
      numa_node: 0,
      count: 4,
      tags: { dev_type: "type-PCI" } as Record<string, string>,
    },
    {
      vendor_id: "8086",
      product_id: "154c",
      numa_node: null,
      count: 8,
      tags: { dev_type: "type-VF", physical_network: "physnet1" },
    },
  ];
  const v = describeNumaTopology(topology, pools)!;

  it("groups threads by core and says each thread's role in words", () => {
    expect(v.smt).toBe(true);
    expect(v.cells[0].cores.map((c) => c.map((t) => t.label))).toEqual([
      ["CPU 0: dedicated, pinned", "CPU 8: dedicated, pinned"],
      ["CPU 1: dedicated, free", "CPU 9: dedicated, free"],
      ["CPU 2: shared, free", "CPU 10: shared, free"],
      ["CPU 3: shared, free", "CPU 11: shared, free"],
    ]);
    expect([v.cells[0].shared, v.cells[0].dedicated, v.cells[0].pinned, v.cells[0].freeDedicated]).toEqual([
      4, 4, 2, 2,
    ]);
    expect(v.cells[0].summary).toBe("4 shared CPUs (2-3,10-11), 4 dedicated (0-1,8-9), 2 pinned");
  });

  it("treats cpuset == pcpuset as CPUs usable either way, one thread per core without siblings", () => {
    expect(v.cells[1].cores.map((c) => c.map((t) => t.label))).toEqual([
      ["CPU 4: shared and dedicated, free"],
      ["CPU 5: shared and dedicated, free"],
    ]);
    expect(v.cells[1].summary).toBe("2 CPUs (4-5), usable shared or pinned; 0 pinned");
  });

  it("lists pages per size (Nova's default: small pages for the whole cell) and devices per cell", () => {
    expect(v.cells[0].pages.map((p) => [p.size, p.free])).toEqual([
      ["4 KiB", 6291456],
      ["1 GiB", 2],
    ]);
    expect(v.cells[1].pages).toEqual([
      { sizeKb: 4, size: "4 KiB", total: 1024 * 256, used: 0, reserved: 0, free: 262144 },
    ]);
    expect(v.cells[0].devices.map((d) => d.label)).toEqual(["4 free × 10de:20b5 (type-PCI)"]);
    expect(v.unaffinedDevices.map((d) => d.label)).toEqual(["8 free × 8086:154c (type-VF), physical_network=physnet1"]);
  });

  it("is null for a host with neither topology nor devices", () => {
    expect(describeNumaTopology(null, [])).toBeNull();
  });
});
