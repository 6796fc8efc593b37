import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/scheduler/random";
import type { ScenarioNumaCell } from "../scenario";
import { fitSummary, mayFit, numaFitInstanceToHost } from "./fit";
import { buildNumaCells } from "./host-topology";
import {
  type CpuPolicy,
  cloneTopology,
  type InstanceNUMATopology,
  MEMPAGES_ANY,
  MEMPAGES_LARGE,
  MEMPAGES_SMALL,
} from "./objects";

const GiB = 1048576;

function hostCells(rnd: () => number, n: number): ScenarioNumaCell[] {
  return Array.from({ length: n }, (_, id) => {
    const cpus = Array.from({ length: 4 }, (_, k) => id * 4 + k);
    const memory = 4096 + Math.floor(rnd() * 3) * 4096;
    const sizes = [4, 2048, GiB].filter(() => rnd() < 0.6);
    return {
      id,
      cpuset: cpus,
      pcpuset: cpus,
      memory,
      memory_usage: Math.floor(rnd() * memory),
      pinned_cpus: cpus.filter(() => rnd() < 0.4),
      mempages: sizes.map((size_kb) => {
        const total = Math.floor((memory * 1024) / size_kb / 2);
        return { size_kb, total, used: Math.floor(rnd() * (total + 1)) };
      }),
    };
  });
}

const PAGES = [null, MEMPAGES_SMALL, MEMPAGES_LARGE, MEMPAGES_ANY, 2048, GiB];
const POLICIES: CpuPolicy[] = ["dedicated", "shared", null];

function guest(rnd: () => number, n: number): InstanceNUMATopology {
  const pagesize = PAGES[Math.floor(rnd() * PAGES.length)];
  const cpuPolicy = POLICIES[Math.floor(rnd() * POLICIES.length)];
  const emulatorThreadsPolicy = rnd() < 0.3 ? "isolate" : null;
  return {
    emulatorThreadsPolicy: cpuPolicy === "dedicated" ? emulatorThreadsPolicy : null,
    cells: Array.from({ length: n }, (_, id) => {
      const cpus = Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, k) => id * 4 + k);
      return {
        id,
        cpuset: cpuPolicy === "dedicated" ? [] : cpus,
        pcpuset: cpuPolicy === "dedicated" ? cpus : [],
        memory: 1024 * (1 + Math.floor(rnd() * 4)),
        pagesize,
        cpuPolicy,
        cpuThreadPolicy: null,
        cpuPinning: null,
        cpusetReserved: null,
      };
    }),
  };
}

describe("mayFit, the NUMATopologyFilter's first check", () => {
  // It may only skip hosts the full fit would reject: a skipped host that
  // Nova would accept is a wrong "No valid host".
  it.each([
    { name: "one guest cell on 2 host cells", seed: 1, hostN: 2, guestN: 1 },
    { name: "two guest cells on 2 host cells", seed: 2, hostN: 2, guestN: 2 },
    { name: "two guest cells on 4 host cells", seed: 3, hostN: 4, guestN: 2 },
    // Nova's fit cache lets a later guest cell "fit" through a pair another left (fit.ts, mayFit)
    { name: "three guest cells on 3 host cells", seed: 4, hostN: 3, guestN: 3 },
    { name: "three guest cells on 4 host cells", seed: 5, hostN: 4, guestN: 3 },
  ])("never rejects a host the fit accepts: $name", ({ seed, hostN, guestN }) => {
    const rnd = mulberry32(seed);
    let skipped = 0;
    let fitted = 0;
    for (let i = 0; i < 3000; i++) {
      const cells = buildNumaCells(hostCells(rnd, hostN), "host");
      const topology = guest(rnd, guestN);
      const fit = numaFitInstanceToHost(cells, cloneTopology(topology), {
        limits: { cpuAllocationRatio: 4, ramAllocationRatio: 1.5 },
        pciRequests: null,
        pciStats: null,
        pack: rnd() < 0.5,
      });
      if (fit) fitted++;
      if (!mayFit(fitSummary(cells), topology)) {
        skipped++;
        expect(fit, JSON.stringify({ cells: hostCells(mulberry32(seed), hostN), topology })).toBeNull();
      }
    }
    // Both sides occur, so the check above is exercised.
    expect(skipped).toBeGreaterThan(300);
    expect(fitted).toBeGreaterThan(100);
  });

  it("keeps a host where 'large' pages, fixed on one cell, are the smallest size of another", () => {
    // Packing tries cell 0 first (less memory free). It has 2 MiB and 1 GiB pages but
    // too little memory: the guest's page size becomes 1 GiB there, and cell 1, whose
    // only (so smallest) size is 1 GiB, takes the guest.
    const cells = buildNumaCells(
      [
        {
          id: 0,
          cpuset: [0, 1],
          pcpuset: [0, 1],
          memory: 8192,
          memory_usage: 7000,
          mempages: [
            { size_kb: 2048, total: 1024, used: 0 },
            { size_kb: GiB, total: 4, used: 0 },
          ],
        },
        { id: 1, cpuset: [2, 3], pcpuset: [2, 3], memory: 8192, mempages: [{ size_kb: GiB, total: 4, used: 0 }] },
      ],
      "host",
    );
    const topology: InstanceNUMATopology = {
      emulatorThreadsPolicy: null,
      cells: [
        {
          id: 0,
          cpuset: [],
          pcpuset: [0],
          memory: 2048,
          pagesize: MEMPAGES_LARGE,
          cpuPolicy: "dedicated",
          cpuThreadPolicy: null,
          cpuPinning: null,
          cpusetReserved: null,
        },
      ],
    };
    const fit = numaFitInstanceToHost(cells, cloneTopology(topology), {
      limits: null,
      pciRequests: null,
      pciStats: null,
      pack: true,
    });
    expect(fit?.cells.map((c) => [c.id, c.pagesize])).toEqual([[1, GiB]]);
    expect(mayFit(fitSummary(cells), topology)).toBe(true);
  });
});
