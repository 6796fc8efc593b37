// NUMATopologyFilter and PciPassthroughFilter: the plain cases (the NUMA
// fitting itself is tested in lib/scheduler/numa/, the corner cases by the
// conformance fixtures). Expected verdicts read from Nova's
// numa_topology_filter.py and pci_passthrough_filter.py.
import { describe, expect, it } from "vitest";
import { host, verdicts, type Case } from "@/lib/scheduler/testing";
import type { ScenarioFlavor } from "../scenario";
import { NUMATopologyFilter } from "./numa-topology";
import { PciPassthroughFilter } from "./pci-passthrough";

const rejected = (reason: RegExp) => expect.stringMatching(reason);

describe("NUMATopologyFilter", () => {
  const hosts = [
    host("two-cells", {
      vcpus: 8,
      memory_mb: 16384,
      numa_topology: {
        cells: [
          { id: 0, cpuset: [0, 1, 2, 3], memory: 8192 },
          { id: 1, cpuset: [4, 5, 6, 7], memory: 8192 },
        ],
      },
    }),
    host("no-topology"),
  ];
  it.each<[string, Partial<ScenarioFlavor>, Record<string, unknown>]>([
    ["no NUMA request: every host", { vcpus: 2, memory_mb: 4096 }, { "two-cells": null, "no-topology": null }],
    [
      "one guest cell that fits a host cell",
      { vcpus: 2, memory_mb: 4096, extra_specs: { "hw:numa_nodes": "1" } },
      { "two-cells": null, "no-topology": rejected(/no NUMA topology reported/) },
    ],
    [
      "one guest cell larger than any host cell",
      { vcpus: 2, memory_mb: 12288, extra_specs: { "hw:numa_nodes": "1" } },
      {
        "two-cells": rejected(/do not fit: cell 0: .*8192 MiB free, needs 12288; cell 1: .*8192 MiB free, needs 12288/),
        "no-topology": rejected(/no NUMA topology reported/),
      },
    ],
  ])("%s", (_, flavor, expected) => {
    expect(verdicts(NUMATopologyFilter, { hosts, request: { flavor } })).toEqual(expected);
  });
});

describe("PciPassthroughFilter", () => {
  const c = (alias?: string): Case => ({
    hosts: [
      host("two-gpus", { pci_device_pools: [{ vendor_id: "10de", product_id: "20b5", count: 2 }] }),
      host("other-device", { pci_device_pools: [{ vendor_id: "8086", product_id: "1572", count: 4 }] }),
      host("none"),
    ],
    config: { pci_alias: [{ name: "a100", vendor_id: "10de", product_id: "20b5" }] },
    request: { flavor: alias ? { extra_specs: { "pci_passthrough:alias": alias } } : {} },
  });
  it.each<[string, string | undefined, Record<string, unknown>]>([
    ["no PCI request: every host", undefined, { "two-gpus": null, "other-device": null, none: null }],
    [
      "two devices of the alias: the host with two",
      "a100:2",
      {
        "two-gpus": null,
        "other-device": rejected(/no pool of 10de:20b5 with 2 free device\(s\) \(alias a100: 0 free\)/),
        none: rejected(/alias a100: 0 free/),
      },
    ],
    [
      "three devices: no host has that many",
      "a100:3",
      {
        "two-gpus": rejected(/no pool of 10de:20b5 with 3 free device\(s\) \(alias a100: 2 free\)/),
        "other-device": rejected(/alias a100: 0 free/),
        none: rejected(/alias a100: 0 free/),
      },
    ],
  ])("%s", (_, alias, expected) => {
    expect(verdicts(PciPassthroughFilter, c(alias))).toEqual(expected);
  });
});
