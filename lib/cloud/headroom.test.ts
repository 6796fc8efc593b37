/** The overview's headroom: how many more of a flavor fit by Placement's classes alone, and which class runs out first. */
import { describe, expect, it } from "vitest";
import { type HeadroomHost, flavorHeadroom, fullest } from "./headroom";

const host = (over: Partial<HeadroomHost> = {}): HeadroomHost => ({
  vcpus: 16,
  vcpusUsed: 0,
  reservedVcpus: 0,
  cpuAllocationRatio: 4,
  memoryMb: 65536,
  memoryMbUsed: 0,
  reservedMemoryMb: 0,
  ramAllocationRatio: 1,
  localGb: 400,
  localGbUsed: 0,
  reservedDiskGb: 0,
  diskAllocationRatio: 1,
  pcpus: 0,
  pcpusUsed: 0,
  usable: true,
  ...over,
});
const large = { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 80 };

describe("flavorHeadroom", () => {
  it.each([
    ["disk binds: 400 GB hold 5 × 80 GB", [host()], { more: 5, full: 0, limit: "DISK_GB" }],
    ["RAM binds", [host({ memoryMbUsed: 57344 })], { more: 1, full: 0, limit: "MEMORY_MB" }],
    ["a full host counts as full", [host({ localGbUsed: 350 }), host()], { more: 5, full: 1, limit: "DISK_GB" }],
    ["a disabled host is left out", [host({ usable: false }), host()], { more: 5, usable: 1 }],
    ["a bare-metal node (no vCPU) is left out", [host({ vcpus: 0, memoryMb: 0, localGb: 0 })], { usable: 0, more: 0 }],
  ])("%s", (_, hosts, expected) => {
    expect(flavorHeadroom(large, 10, hosts)).toMatchObject(expected);
  });

  it("pinned CPUs come out of PCPU on a host that has them", () => {
    const pinned = { ...large, extra_specs: { "hw:cpu_policy": "dedicated" } };
    expect(flavorHeadroom(pinned, 1, [host({ pcpus: 8, pcpusUsed: 4 })])).toMatchObject({ more: 1, limit: "PCPU" });
  });

  it("says nothing of a bare-metal flavor", () => {
    const bm = { name: "bm", vcpus: 32, memory_mb: 1, extra_specs: { "resources:CUSTOM_BAREMETAL_LARGE": "1" } };
    expect(flavorHeadroom(bm, 1, [host()])).toBeNull();
  });
});

describe("fullest", () => {
  it("names the fullest resource, bare-metal nodes included", () => {
    const row = {
      vcpusUsed: 10,
      vcpusCapacity: 100,
      memoryMbUsed: 95,
      memoryMbCapacity: 100,
      localGbUsed: 0,
      localGbCapacity: 100,
    };
    expect(fullest(row)).toEqual({ resource: "RAM", share: 0.95 });
    const bm = {
      ...row,
      memoryMbUsed: 0,
      vcpusCapacity: 0,
      memoryMbCapacity: 0,
      localGbCapacity: 0,
      bareMetalNodes: 3,
      bareMetalUsed: 1,
    };
    expect(fullest({ ...bm, vcpusUsed: 0 })).toEqual({ resource: "bare-metal nodes", share: 1 / 3 });
  });
});
