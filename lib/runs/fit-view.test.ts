/** The NUMA/PCI fit and Placement views, on results Nova itself gave (../shared/nova-reference/examples). */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLES_DIR } from "@/lib/testing/cloud";
import { conductorProvenanceOf, placementView, releaseOf, releaseProvenanceOf, selectionFits } from "./fit-view";

const expected = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, `${name}.expected.json`), "utf8"));

describe("selectionFits", () => {
  it("says which guest cell sits on which host cell, which vCPU on which host CPU, and the devices taken", () => {
    const fits = selectionFits(expected("pci-gpu-alias-numa-required").selections);
    expect(fits[0].host).toBe("gpu-near");
    expect(fits[0].numa!.map((c) => c.text)).toEqual([
      "guest cell 0 → host cell 0: vCPUs 0→CPU 0, 1→CPU 1, 2→CPU 2, 3→CPU 3 pinned; no page size asked; 8192 MiB",
    ]);
    expect(fits[0].pci!.map((p) => p.text)).toEqual(["2 × 10de:20b5 (type-PCI) from the pool on NUMA node 0"]);
  });

  it("shows shared and pinned vCPUs of a mixed policy, and page sizes", () => {
    const mixed = selectionFits(expected("numa-mixed-cpu-policy-isolate").selections);
    expect(mixed[0].numa![0].text).toMatch(
      /^guest cell 0 → host cell 0: vCPUs 0-1 on the host's shared CPUs; vCPUs 2→CPU \d+, 3→CPU \d+ pinned/,
    );
    const huge = selectionFits(expected("numa-hugepages-large-multi").selections);
    expect(huge.every((s) => s.numa?.every((c) => c.pageSize !== null))).toBe(true);
    expect(huge[0].numa![0].text).toMatch(/(2 MiB|1 GiB) pages; 4096 MiB$/);
  });

  it("has no NUMA or PCI part for a plain request", () => {
    expect(selectionFits(expected("gpu-az").selections)[0]).toMatchObject({ numa: undefined, pci: undefined });
  });
});

describe("placementView", () => {
  it("counts and explains the hosts max_placement_results kept out", () => {
    const v = placementView(expected("placement-limit"))!;
    expect([v.hostsIn, v.hostsReturned, v.matched, v.candidates, v.limit, v.cutByLimit]).toEqual([8, 3, 5, 3, 3, 2]);
    expect(v.explanation).toBe(
      "Placement returned 3 of 8 hosts (max_placement_results = 3): 2 hosts that matched the request were never considered by the filters and weighers, because they were not among the first 3 allocation candidates. 3 other hosts did not match the request (reasons in the funnel's Placement stage).",
    );
    expect(v.params).toContainEqual({ key: "resources", value: "DISK_GB:40,MEMORY_MB:8192,VCPU:4" });
    expect(v.claims).toEqual([{ claimed: "h-3", index: 0, tried: [] }]);
  });

  it.each([
    [
      "10,000 hosts, all matched, 1,000 returned",
      { in: 10000, out: 1000, matched: 10000, candidates: 1000 },
      "Placement returned 1,000 of 10,000 hosts (max_placement_results = 1000): 9,000 hosts that matched the request were never considered by the filters and weighers, because they were not among the first 1,000 allocation candidates.",
    ],
    [
      "some hosts did not match at all",
      { in: 10000, out: 1000, matched: 9705, candidates: 1000 },
      "Placement returned 1,000 of 10,000 hosts (max_placement_results = 1000): 8,705 hosts that matched the request were never considered by the filters and weighers, because they were not among the first 1,000 allocation candidates. 295 other hosts did not match the request (reasons in the funnel's Placement stage).",
    ],
    [
      "one host beyond the limit",
      { in: 1001, out: 1000, matched: 1001, candidates: 1000 },
      "Placement returned 1,000 of 1,001 hosts (max_placement_results = 1000): 1 host that matched the request was never considered by the filters and weighers, because it was not among the first 1,000 allocation candidates.",
    ],
    [
      "nothing cut",
      { in: 1000, out: 968, matched: 968, candidates: 968 },
      "Placement returned every host it matched (968); max_placement_results = 1000 cut none.",
    ],
  ])("explains the cut with counts as people read them: %s", (_what, n, explanation) => {
    const v = placementView({
      placement: { query: "limit=1000&resources=DISK_GB%3A40%2CMEMORY_MB%3A8192%2CVCPU%3A4", ...n },
      requests: [{ funnel: [{ filter: "Placement", in: n.in, out: n.out }] }],
    })!;
    expect(v.explanation).toBe(explanation);
    expect(v.cutByLimit).toBe(n.matched - n.candidates);
  });

  it("says when the limit was dropped by a hint", () => {
    const v = placementView(expected("placement-limit-hint"))!;
    expect(v.limit).toBeNull();
    expect(v.explanation).toMatch(/^No limit was sent/);
  });

  it("is null off the Placement path; the release comes from the result, then the profile", () => {
    expect(placementView(expected("gpu-az"))).toBeNull();
    expect(releaseOf(expected("gpu-az"))).toBe("26 (Zed)");
    expect(releaseOf({ nova_release: "26 (Zed)" }, { nova_release: "2024.1" })).toBe("29 (2024.1 Caracal)");
    expect(releaseOf({}, {})).toBe("26 (Zed)");
  });

  it.each([
    ["26 (Zed)", "checked against Nova 26.2.2"],
    ["29 (2024.1 Caracal)", "read from Nova's source"],
    ["31 (2025.1 Epoxy)", "checked against Nova 31.0.0"],
    ["33 (2026.1 Gazpacho)", "checked against Nova 33.0.2"],
    ["99 (Nowhere)", null],
  ])("says how the answers of %s are known: %s", (label, provenance) => {
    expect(releaseProvenanceOf(label)).toBe(provenance);
  });
});

describe("conductorProvenanceOf", () => {
  it.each([
    ["26 (Zed)", "checked against Nova 26.2.2's conductor"],
    ["33 (2026.1 Gazpacho)", "read from Nova's source"],
    ["no such release", null],
  ])("%s: %s", (label, provenance) => {
    expect(conductorProvenanceOf(label)).toBe(provenance);
  });
});
