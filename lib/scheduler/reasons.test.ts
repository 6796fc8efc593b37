/** Every filter says why with a code from reasons.ts; NoValidHost groups by those codes. */
import { describe, expect, it } from "vitest";
import { host, reasonCodes, type Case } from "@/lib/scheduler/testing";
import { schedule } from "./engine";
import { AggregateImagePropertiesIsolation } from "./filters/aggregate-image-properties-isolation";
import { AggregateInstanceExtraSpecsFilter } from "./filters/aggregate-instance-extra-specs";
import { AggregateIoOpsFilter } from "./filters/aggregate-io-ops";
import { AggregateMultiTenancyIsolation } from "./filters/aggregate-multi-tenancy-isolation";
import { AggregateNumInstancesFilter } from "./filters/aggregate-num-instances";
import { AggregateTypeAffinityFilter } from "./filters/aggregate-type-affinity";
import { AvailabilityZoneFilter } from "./filters/availability-zone";
import { ComputeFilter } from "./filters/compute";
import { ComputeCapabilitiesFilter } from "./filters/compute-capabilities";
import { DifferentHostFilter } from "./filters/different-host";
import { ImagePropertiesFilter } from "./filters/image-properties";
import { IoOpsFilter } from "./filters/io-ops";
import { IsolatedHostsFilter } from "./filters/isolated-hosts";
import { JsonFilter } from "./filters/json";
import { MetricsFilter } from "./filters/metrics";
import { NumInstancesFilter } from "./filters/num-instances";
import { NUMATopologyFilter } from "./filters/numa-topology";
import { PciPassthroughFilter } from "./filters/pci-passthrough";
import { SameHostFilter } from "./filters/same-host";
import { ServerGroupAffinityFilter } from "./filters/server-group-affinity";
import { ServerGroupAntiAffinityFilter } from "./filters/server-group-anti-affinity";
import { SimpleCIDRAffinityFilter } from "./filters/simple-cidr-affinity";
import type { FilterDescriptor } from "./plugin";
import { PLACEMENT_REASONS } from "./placement/reasons";
import { REASON_LABELS } from "./reasons";
import { FILTER_DESCRIPTORS } from "./registry";
import { toResult } from "./result";

const U1 = "11111111-1111-1111-1111-111111111111";
const U2 = "22222222-2222-2222-2222-222222222222";
const ab = (a: Parameters<typeof host>[1] = {}, b: Parameters<typeof host>[1] = {}) => [host("a", a), host("b", b)];
const inAgg = (metadata: Record<string, string>) => [{ name: "agg", hosts: ["a"], metadata }];
const numaHost = {
  numa_topology: { cells: [{ id: 0, cpuset: [0, 1, 2, 3], memory: 8192 }] },
};

const CASES: Array<[string, FilterDescriptor, Case, Record<string, string | null>]> = [
  [
    "ComputeFilter",
    ComputeFilter,
    { hosts: ab({ service: { disabled: true } }, { service: { up: false } }) },
    { a: "DISABLED", b: "DOWN" },
  ],
  [
    "AvailabilityZoneFilter",
    AvailabilityZoneFilter,
    {
      hosts: ab(),
      aggregates: [{ name: "z", hosts: ["a"], metadata: { availability_zone: "az1" } }],
      request: { availability_zone: "az1" },
    },
    { a: null, b: "WRONG_AVAILABILITY_ZONE" },
  ],
  [
    "AggregateMultiTenancyIsolation",
    AggregateMultiTenancyIsolation,
    { hosts: ab(), aggregates: inAgg({ filter_tenant_id: "other" }), request: { project_id: "acme" } },
    { a: "TENANT_NOT_ALLOWED", b: null },
  ],
  [
    "AggregateTypeAffinityFilter",
    AggregateTypeAffinityFilter,
    { hosts: ab(), aggregates: inAgg({ instance_type: "m1.large" }) },
    { a: "FLAVOR_NOT_ALLOWED", b: null },
  ],
  [
    "AggregateInstanceExtraSpecsFilter",
    AggregateInstanceExtraSpecsFilter,
    {
      hosts: ab(),
      aggregates: inAgg({ gpu: "false" }),
      request: { flavor: { extra_specs: { "aggregate_instance_extra_specs:gpu": "true" } } },
    },
    { a: "AGGREGATE_EXTRA_SPEC_MISMATCH", b: "AGGREGATE_EXTRA_SPEC_MISSING" },
  ],
  [
    "AggregateImagePropertiesIsolation",
    AggregateImagePropertiesIsolation,
    {
      hosts: ab(),
      aggregates: inAgg({ os_distro: "ubuntu" }),
      request: { image: { properties: { os_distro: "windows" } } },
    },
    { a: "AGGREGATE_IMAGE_PROPS_MISMATCH", b: null },
  ],
  [
    "NumInstancesFilter",
    NumInstancesFilter,
    { hosts: ab({ num_instances: 2 }), config: { max_instances_per_host: 2 } },
    { a: "TOO_MANY_INSTANCES", b: null },
  ],
  [
    "AggregateNumInstancesFilter",
    AggregateNumInstancesFilter,
    { hosts: ab({ num_instances: 2 }), aggregates: inAgg({ max_instances_per_host: "2" }) },
    { a: "TOO_MANY_INSTANCES", b: null },
  ],
  ["IoOpsFilter", IoOpsFilter, { hosts: ab({ num_io_ops: 8 }) }, { a: "TOO_MANY_IO_OPS", b: null }],
  [
    "AggregateIoOpsFilter",
    AggregateIoOpsFilter,
    { hosts: ab({ num_io_ops: 3 }), aggregates: inAgg({ max_io_ops_per_host: "3" }) },
    { a: "TOO_MANY_IO_OPS", b: null },
  ],
  [
    "ComputeCapabilitiesFilter",
    ComputeCapabilitiesFilter,
    {
      hosts: ab({}, { cpu_info: { arch: "x86_64", vendor: "AMD" } }),
      request: { flavor: { extra_specs: { "capabilities:cpu_info:vendor": "Intel" } } },
    },
    { a: "CAPABILITY_MISSING", b: "CAPABILITY_MISMATCH" },
  ],
  [
    "ImagePropertiesFilter",
    ImagePropertiesFilter,
    { hosts: ab({}, { supported_instances: [] }), request: { image: { properties: { hw_architecture: "aarch64" } } } },
    { a: "IMAGE_PROPS_MISMATCH", b: "IMAGE_PROPS_MISMATCH" },
  ],
  [
    "IsolatedHostsFilter, isolated image",
    IsolatedHostsFilter,
    { hosts: ab(), config: { isolated_hosts: ["a"], isolated_images: ["img"] }, request: { image: { id: "img" } } },
    { a: null, b: "ISOLATED_IMAGE" },
  ],
  [
    "IsolatedHostsFilter, other image",
    IsolatedHostsFilter,
    { hosts: ab(), config: { isolated_hosts: ["a"], isolated_images: ["img"] }, request: { image: { id: "other" } } },
    { a: "ISOLATED_HOST", b: null },
  ],
  [
    "SameHostFilter",
    SameHostFilter,
    { hosts: ab({ instances: [U1] }), request: { scheduler_hints: { same_host: U1 } } },
    { a: null, b: "SAME_HOST" },
  ],
  [
    "DifferentHostFilter",
    DifferentHostFilter,
    { hosts: ab({ instances: [U1] }), request: { scheduler_hints: { different_host: U1 } } },
    { a: "DIFFERENT_HOST", b: null },
  ],
  [
    "ServerGroupAffinityFilter",
    ServerGroupAffinityFilter,
    {
      hosts: ab({ instances: [U1] }),
      server_groups: [{ name: "g", policy: "affinity", members: [U1] }],
      request: { server_group: "g" },
    },
    { a: null, b: "AFFINITY" },
  ],
  [
    "ServerGroupAntiAffinityFilter",
    ServerGroupAntiAffinityFilter,
    {
      hosts: ab({ instances: [U1] }, { instances: [U2] }),
      server_groups: [{ name: "g", policy: "anti-affinity", members: [U1] }],
      request: { server_group: "g" },
    },
    { a: "ANTI_AFFINITY", b: null },
  ],
  [
    "JsonFilter",
    JsonFilter,
    { hosts: ab({ vcpus: 4 }), request: { scheduler_hints: { query: '[">=", "$vcpus_total", 8]' } } },
    { a: "QUERY_NOT_SATISFIED", b: null },
  ],
  [
    "MetricsFilter",
    MetricsFilter,
    {
      hosts: ab({ metrics: [{ name: "cpu.frequency", value: 2000 }] }),
      config: { metrics_weight_setting: "cpu.frequency=1" },
    },
    { a: null, b: "METRIC_MISSING" },
  ],
  [
    "SimpleCIDRAffinityFilter",
    SimpleCIDRAffinityFilter,
    { hosts: ab({}, { host_ip: "10.1.0.9" }), request: { scheduler_hints: { build_near_host_ip: "10.0.0.5" } } },
    { a: null, b: "OUTSIDE_CIDR" },
  ],
  [
    "NUMATopologyFilter, no topology or no fit",
    NUMATopologyFilter,
    { hosts: ab(numaHost), request: { flavor: { vcpus: 2, memory_mb: 12288, extra_specs: { "hw:numa_nodes": "1" } } } },
    { a: "NUMA_NO_FIT", b: "NUMA_NO_TOPOLOGY" },
  ],
  [
    "NUMATopologyFilter, thread policy require",
    NUMATopologyFilter,
    {
      hosts: ab(numaHost),
      request: { flavor: { extra_specs: { "hw:cpu_policy": "dedicated", "hw:cpu_thread_policy": "require" } } },
    },
    { a: "NUMA_NO_SMT", b: "NUMA_NO_TOPOLOGY" },
  ],
  [
    "PciPassthroughFilter",
    PciPassthroughFilter,
    {
      hosts: ab({ pci_device_pools: [{ vendor_id: "10de", product_id: "20b5", count: 2 }] }),
      config: { pci_alias: [{ name: "a100", vendor_id: "10de", product_id: "20b5" }] },
      request: { flavor: { extra_specs: { "pci_passthrough:alias": "a100:1" } } },
    },
    { a: null, b: "PCI_NO_POOL" },
  ],
];

describe("every filter rejects with a code", () => {
  it.each(CASES)("%s", (_, filter, c, expected) => {
    const got = reasonCodes(filter, c);
    expect(got).toEqual(expected);
    for (const code of Object.values(got)) if (code) expect(filter.reasons[code]).toBe(REASON_LABELS[code]);
  });
});

describe("reason labels", () => {
  const tables: Array<[string, Readonly<Record<string, string>>]> = [
    ...Object.values(FILTER_DESCRIPTORS).map((d): [string, Readonly<Record<string, string>>] => [d.name, d.reasons]),
    ["Placement", PLACEMENT_REASONS],
  ];
  it.each(tables.flatMap(([owner, t]) => Object.entries(t).map(([code, label]) => [owner, code, label])))(
    "%s %s: one label wherever the code is answered",
    (_, code, label) => {
      expect(label).not.toBe("");
      expect(REASON_LABELS[code]).toBe(label);
    },
  );
});

describe("NoValidHost groups the funnel by code", () => {
  it("hosts whose messages differ are counted under the code's label", () => {
    const r = toResult(
      schedule({
        config: { enabled_filters: ["ComputeFilter", "NumInstancesFilter"], max_instances_per_host: 2 },
        hosts: [
          { name: "a", vcpus: 8, memory_mb: 8192, local_gb: 100, num_instances: 2 },
          { name: "b", vcpus: 8, memory_mb: 8192, local_gb: 100, num_instances: 3 },
          { name: "c", vcpus: 8, memory_mb: 8192, local_gb: 100, num_instances: 5 },
          { name: "d", vcpus: 8, memory_mb: 8192, local_gb: 100, service: { up: false } },
        ],
        request: { flavor: { name: "m1", vcpus: 1, memory_mb: 512 } },
      }),
    );
    expect(r.diagnosis?.summary).toBe(
      "0/4 hosts available: 3 at max_instances_per_host, 1 compute service down (not heard from)",
    );
    expect(r.diagnosis?.groups?.map((g) => [g.code, g.count, g.stage])).toEqual([
      ["TOO_MANY_INSTANCES", 3, "NumInstancesFilter"],
      ["DOWN", 1, "ComputeFilter"],
    ]);
  });

  it("hosts sharing one message that starts with a number read after the count with 'with'", () => {
    const r = toResult(
      schedule({
        config: { enabled_filters: ["NumInstancesFilter"], max_instances_per_host: 2 },
        hosts: ["a", "b"].map((name) => ({ name, vcpus: 8, memory_mb: 8192, local_gb: 100, num_instances: 2 })),
        request: { flavor: { name: "m1", vcpus: 1, memory_mb: 512 } },
      }),
    );
    expect(r.diagnosis?.summary).toBe("0/2 hosts available: 2 with 2 instances already (max 2)");
  });
});
