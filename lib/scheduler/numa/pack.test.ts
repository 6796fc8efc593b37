import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/scheduler/random";
import { buildNumaCells } from "./host-topology";
import type { CpuThreadPolicy, InstanceNUMACell } from "./objects";
import { packInstanceOntoCores, wouldPack } from "./pack";

function guest(vcpus: number, policy: CpuThreadPolicy): InstanceNUMACell {
  return {
    id: 0,
    cpuset: [],
    pcpuset: Array.from({ length: vcpus }, (_, i) => i),
    memory: 1024,
    pagesize: null,
    cpuPolicy: "dedicated",
    cpuThreadPolicy: policy,
    cpuPinning: null,
    cpusetReserved: null,
  };
}

// Host cells with 1, 2 or 4 threads per core, some CPUs pinned, and some
// layouts where the sibling sets do not cover every dedicated CPU.
function hostCell(rnd: () => number) {
  const threads = [1, 2, 4][Math.floor(rnd() * 3)];
  const cores = 1 + Math.floor(rnd() * 6);
  const cpus = Array.from({ length: cores * threads }, (_, i) => i);
  const siblings = Array.from({ length: cores }, (_, c) => cpus.filter((x) => Math.floor(x / threads) === c));
  const listed = cores > 1 && rnd() < 0.2 ? siblings.slice(1) : siblings;
  const pinned = cpus.filter(() => rnd() < 0.4);
  return buildNumaCells(
    [{ id: 0, cpuset: cpus, pcpuset: cpus, memory: 65536, pinned_cpus: pinned, siblings: listed }],
    "t",
  )[0];
}

describe("wouldPack answers as packInstanceOntoCores does, without pinning", () => {
  it.each([
    { policy: null as CpuThreadPolicy, seed: 1 },
    { policy: "prefer" as CpuThreadPolicy, seed: 2 },
  ])("thread policy $policy, 400 random cells and guests", ({ policy, seed }) => {
    const rnd = mulberry32(seed);
    let fits = 0;
    for (let n = 0; n < 400; n++) {
      const cell = hostCell(rnd);
      const vcpus = 1 + Math.floor(rnd() * 12);
      const packed = packInstanceOntoCores(cell, guest(vcpus, policy)) !== null;
      expect(wouldPack(cell, guest(vcpus, policy), 0)).toBe(packed);
      if (packed) fits++;
    }
    // both answers occur, so the comparison means something
    expect(fits).toBeGreaterThan(40);
    expect(fits).toBeLessThan(360);
  });

  it.each([
    { name: "isolate", policy: "isolate" as CpuThreadPolicy, reserved: 0 },
    { name: "require", policy: "require" as CpuThreadPolicy, reserved: 0 },
    { name: "a reserved emulator CPU", policy: null as CpuThreadPolicy, reserved: 1 },
  ])("leaves $name to packInstanceOntoCores", ({ policy, reserved }) => {
    const cell = hostCell(mulberry32(3));
    expect(wouldPack(cell, guest(2, policy), reserved)).toBeNull();
  });
});
