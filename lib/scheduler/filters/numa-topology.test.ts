import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { schedule } from "../engine";
import { parseJson } from "../python";
import { toResult } from "../result";
import type { Scenario } from "../scenario";

const fixture = (name: string): Scenario =>
  parseJson(readFileSync(path.join(__dirname, "../conformance/fixtures", `${name}.scenario.json`), "utf8")) as Scenario;

function reasons(name: string, filter: string): Record<string, string> {
  const r = toResult(schedule(fixture(name)));
  const out: Record<string, string> = {};
  for (const step of r.requests[0].funnel.filter((s) => s.filter === filter))
    step.rejected.forEach((h, i) => {
      out[h] = step.reasons[i];
    });
  return out;
}

describe("NUMATopologyFilter says why a host does not fit", () => {
  it.each([
    {
      name: "devices on the wrong NUMA node for a 'required' GPU",
      fixture: "example-pci-gpu-alias-numa-required",
      host: "gpu-far",
      says: "no pool of 10de:20b5 type-PCI with 2 free device(s) on NUMA node 0 (policy required); free by node: 1: 4",
    },
    {
      name: "devices without NUMA affinity do not count for 'required'",
      fixture: "example-pci-gpu-alias-numa-required",
      host: "gpu-nonuma",
      says: "free by node: none: 4",
    },
    {
      name: "a host without SMT for the 'require' thread policy",
      fixture: "example-numa-pinned-dedicated-2numa",
      host: "no-smt",
      says: "needs SMT siblings",
    },
  ])("$name", ({ fixture: f, host, says }) => {
    expect(reasons(f, "NUMATopologyFilter")[host]).toContain(says);
  });
});
