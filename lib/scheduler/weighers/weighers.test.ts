// Every weigher: raw values and multipliers per host, as
// Nova's weighers compute them (nova/scheduler/weights/*.py, plus
// hypervisor_version.py and num_instances.py from 2024.1). Normalisation and
// the sum are the engine's, tested in engine.test.ts and the conformance
// corpus. Checked against the reference with check-unit-cases.py (see
// lib/scheduler/testing.ts).
import { describe, expect, it } from "vitest";
import { host, weights, type Case } from "@/lib/scheduler/testing";
import type { WeigherDescriptor } from "../plugin";
import { BuildFailureWeigher } from "./build-failure";
import { CPUWeigher } from "./cpu";
import { CrossCellWeigher } from "./cross-cell";
import { DiskWeigher } from "./disk";
import { HypervisorVersionWeigher } from "./hypervisor-version";
import { IoOpsWeigher } from "./io-ops";
import { MetricsWeigher } from "./metrics";
import { NumInstancesWeigher } from "./num-instances";
import { PCIWeigher } from "./pci";
import { RAMWeigher } from "./ram";
import { ServerGroupSoftAffinityWeigher } from "./server-group-soft-affinity";
import { ServerGroupSoftAntiAffinityWeigher } from "./server-group-soft-anti-affinity";

/** host name → [raw, multiplier] */
type Expected = Record<string, [number, number]>;

function expectWeights(factory: WeigherDescriptor, c: Case, expected: Expected) {
  const got = weights(factory, c);
  expect(Object.fromEntries(Object.entries(got).map(([h, w]) => [h, [w.raw, w.multiplier]]))).toEqual(expected);
}

const U1 = "11111111-1111-1111-1111-111111111111";
const U2 = "22222222-2222-2222-2222-222222222222";
const U3 = "33333333-3333-3333-3333-333333333333";

describe.each<[string, WeigherDescriptor, Case, Expected]>([
  [
    "RAMWeigher: free RAM in MB, multiplier 1.0",
    RAMWeigher,
    { hosts: [host("a", { memory_mb: 32768, memory_mb_used: 8192 }), host("b", { memory_mb: 16384 })] },
    { a: [24576, 1], b: [16384, 1] },
  ],
  [
    "CPUWeigher: vCPUs × allocation ratio − used",
    CPUWeigher,
    {
      hosts: [
        host("a", { vcpus: 16, vcpus_used: 10, cpu_allocation_ratio: 4 }),
        host("b", { vcpus: 8, vcpus_used: 2, cpu_allocation_ratio: 1.5 }),
      ],
      config: { cpu_weight_multiplier: -2 },
    },
    { a: [54, -2], b: [10, -2] },
  ],
  [
    "DiskWeigher: free disk in MB (the smaller of free_disk_gb and disk_available_least)",
    DiskWeigher,
    {
      hosts: [host("a", { local_gb: 500, local_gb_used: 100 }), host("b", { local_gb: 500, disk_available_least: 50 })],
    },
    { a: [409600, 1], b: [51200, 1] },
  ],
  [
    "IoOpsWeigher: I/O operations in progress, multiplier −1.0",
    IoOpsWeigher,
    { hosts: [host("a", { num_io_ops: 3 }), host("b")] },
    { a: [3, -1], b: [0, -1] },
  ],
  [
    "MetricsWeigher: Σ metric × ratio",
    MetricsWeigher,
    {
      hosts: [
        host("a", {
          metrics: [
            { name: "cpu.frequency", value: 2400 },
            { name: "cpu.user.time", value: 100 },
          ],
        }),
        host("b", {
          metrics: [
            { name: "cpu.frequency", value: 3000 },
            { name: "cpu.user.time", value: 20 },
          ],
        }),
      ],
      config: { metrics_weight_setting: ["cpu.frequency=1.0", "cpu.user.time=-2.0"] },
    },
    { a: [2200, 1], b: [2960, 1] },
  ],
  [
    "MetricsWeigher: a missing metric weighs metrics_weight_of_unavailable",
    MetricsWeigher,
    {
      hosts: [host("a", { metrics: [{ name: "cpu.frequency", value: 2400 }] }), host("b")],
      config: {
        metrics_weight_setting: ["cpu.frequency=0.5"],
        metrics_required: false,
        metrics_weight_of_unavailable: -7,
      },
    },
    { a: [1200, 1], b: [-7, 1] },
  ],
  [
    "ServerGroupSoftAffinityWeigher: members of a soft-affinity group on the host",
    ServerGroupSoftAffinityWeigher,
    {
      hosts: [host("a", { instances: [U1, U2] }), host("b", { instances: [U3] }), host("c")],
      server_groups: [{ name: "g", policy: "soft-affinity", members: [U1, U2] }],
      request: { server_group: "g" },
    },
    { a: [2, 1], b: [0, 1], c: [0, 1] },
  ],
  [
    "ServerGroupSoftAntiAffinityWeigher: minus the members of a soft-anti-affinity group",
    ServerGroupSoftAntiAffinityWeigher,
    {
      hosts: [host("a", { instances: [U1, U2] }), host("b", { instances: [U3] }), host("c")],
      server_groups: [{ name: "g", policy: "soft-anti-affinity", members: [U1, U2, U3] }],
      request: { server_group: "g" },
      config: { soft_anti_affinity_weight_multiplier: 3 },
    },
    { a: [-2, 3], b: [-1, 3], c: [0, 3] },
  ],
  [
    "ServerGroupSoftAffinityWeigher: 0 for a group of another policy",
    ServerGroupSoftAffinityWeigher,
    {
      hosts: [host("a", { instances: [U1] }), host("b")],
      server_groups: [{ name: "g", policy: "soft-anti-affinity", members: [U1] }],
      request: { server_group: "g" },
    },
    { a: [0, 1], b: [0, 1] },
  ],
  [
    "BuildFailureWeigher: failed builds, the multiplier negated (−1,000,000)",
    BuildFailureWeigher,
    { hosts: [host("a", { failed_builds: 2 }), host("b")] },
    { a: [2, -1000000], b: [0, -1000000] },
  ],
  [
    "CrossCellWeigher: 0 for a boot (it only prefers the source cell of a move)",
    CrossCellWeigher,
    { hosts: [host("a", { cell: "cell1" }), host("b", { cell: "cell2" })] },
    { a: [0, 1000000], b: [0, 1000000] },
  ],
  [
    "HypervisorVersionWeigher: the hypervisor version as an integer",
    HypervisorVersionWeigher,
    { hosts: [host("a", { hypervisor_version: 6002000 }), host("b", { hypervisor_version: 8000000 })] },
    { a: [6002000, 1], b: [8000000, 1] },
  ],
  [
    "PCIWeigher: 100 − min(free PCI devices, 99), whether or not the request asks for one",
    PCIWeigher,
    {
      hosts: [
        host("two", { pci_device_pools: [{ vendor_id: "10de", product_id: "20b5", count: 2 }] }),
        host("many", {
          pci_device_pools: [
            { vendor_id: "10de", product_id: "20b5", count: 100 },
            { vendor_id: "8086", product_id: "1572", count: 50 },
          ],
        }),
        host("none"),
      ],
      config: { pci_weight_multiplier: 2 },
    },
    { two: [98, 2], many: [1, 2], none: [100, 2] },
  ],
  [
    "NumInstancesWeigher: instances on the host, multiplier 0.0 unless set",
    NumInstancesWeigher,
    { hosts: [host("a", { num_instances: 7 }), host("b", { num_instances: 1 })] },
    { a: [7, 0], b: [1, 0] },
  ],
])("%s", (_, factory, c, expected) => {
  it("raw values and multipliers", () => expectWeights(factory, c, expected));
});

describe("aggregate multipliers (nova.scheduler.utils.get_weight_multiplier)", () => {
  const hosts = [host("one-agg"), host("two-aggs"), host("no-agg"), host("bad")];
  const c: Case = {
    hosts,
    aggregates: [
      { name: "fast", hosts: ["one-agg", "two-aggs"], metadata: { ram_weight_multiplier: "2.5" } },
      { name: "slow", hosts: ["two-aggs"], metadata: { ram_weight_multiplier: "-1" } },
      { name: "typo", hosts: ["bad"], metadata: { ram_weight_multiplier: "two" } },
    ],
    config: { ram_weight_multiplier: 0.5 },
  };
  it("the minimum of the host's aggregates' values; unset or unparsable: the option", () => {
    const got = weights(RAMWeigher, c);
    expect(Object.fromEntries(Object.entries(got).map(([h, w]) => [h, [w.multiplier, w.source]]))).toEqual({
      "one-agg": [2.5, "aggregate fast"],
      "two-aggs": [-1, "aggregate slow"],
      "no-agg": [0.5, "config"],
      bad: [0.5, "config (aggregate value unparsable)"],
    });
  });
});
