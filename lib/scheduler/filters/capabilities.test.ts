// ComputeCapabilitiesFilter, ImagePropertiesFilter, JsonFilter: expected
// verdicts read from Nova's compute_capabilities_filter.py,
// image_props_filter.py and json_filter.py (the quirks each of them has are
// covered by the conformance fixtures; these are the plain cases).
import { describe, expect, it } from "vitest";
import { host, verdicts, type Case } from "@/lib/scheduler/testing";
import { ComputeCapabilitiesFilter } from "./compute-capabilities";
import { ImagePropertiesFilter } from "./image-properties";
import { JsonFilter } from "./json";

const rejected = (reason: RegExp) => expect.stringMatching(reason);

describe("ComputeCapabilitiesFilter", () => {
  const hosts = [
    host("qemu-big", { memory_mb: 65536, cpu_info: { arch: "x86_64", vendor: "Intel" } }),
    host("xen-small", {
      hypervisor_type: "Xen",
      memory_mb: 8192,
      memory_mb_used: 4096,
      cpu_info: { arch: "aarch64", vendor: "ARM" },
    }),
  ];
  it.each([
    [
      "capabilities:hypervisor_type, exact string",
      { "capabilities:hypervisor_type": "QEMU" },
      { "qemu-big": null, "xen-small": rejected(/capability hypervisor_type=Xen not matching "QEMU"/) },
    ],
    [
      "an unscoped HostState attribute with a numeric operator",
      { free_ram_mb: ">= 16384" },
      { "qemu-big": null, "xen-small": rejected(/capability free_ram_mb=4096 not matching ">= 16384"/) },
    ],
    [
      "nested cpu_info",
      { "capabilities:cpu_info:arch": "x86_64" },
      { "qemu-big": null, "xen-small": rejected(/capability cpu_info:arch=aarch64 not matching "x86_64"/) },
    ],
    [
      "a capability the host does not have",
      { "capabilities:cpu_info:model": "Skylake" },
      { "qemu-big": rejected(/no capability cpu_info:model/), "xen-small": rejected(/no capability/) },
    ],
    [
      "other scopes and unknown unscoped keys are ignored",
      { "hw:cpu_policy": "dedicated", no_such_attribute: "x" },
      { "qemu-big": null, "xen-small": null },
    ],
  ])("%s", (_, extra_specs, expected) => {
    expect(verdicts(ComputeCapabilitiesFilter, { hosts, request: { flavor: { extra_specs } } })).toEqual(expected);
  });
});

describe("ImagePropertiesFilter", () => {
  const hosts = [
    host("x86-qemu-6.2", { hypervisor_version: 6002000 }),
    host("x86-qemu-5.0", { hypervisor_version: 5000000 }),
    host("arm-kvm", { supported_instances: [["aarch64", "kvm", "hvm"]] }),
    host("bare", { supported_instances: [] }),
  ];
  it.each([
    [
      "no compute properties: every host",
      {},
      { "x86-qemu-6.2": null, "x86-qemu-5.0": null, "arm-kvm": null, bare: null },
    ],
    [
      "hw_architecture among the supported instances",
      { hw_architecture: "aarch64" },
      {
        "x86-qemu-6.2": rejected(/image needs aarch64; host supports x86_64\/qemu\/hvm/),
        "x86-qemu-5.0": rejected(/image needs aarch64/),
        "arm-kvm": null,
        bare: rejected(/no supported instance types \(image needs aarch64\)/),
      },
    ],
    [
      "img_hv_type and hw_vm_mode too",
      { hw_architecture: "x86_64", img_hv_type: "qemu", hw_vm_mode: "hvm" },
      {
        "x86-qemu-6.2": null,
        "x86-qemu-5.0": null,
        "arm-kvm": rejected(/image needs x86_64\/qemu\/hvm/),
        bare: rejected(/no supported/),
      },
    ],
    [
      "img_hv_requested_version against the hypervisor version",
      { hw_architecture: "x86_64", img_hv_requested_version: ">=6.0" },
      {
        "x86-qemu-6.2": null,
        "x86-qemu-5.0": rejected(/with hypervisor version >=6\.0; .*\(hypervisor 5\.0\.0\)/),
        "arm-kvm": rejected(/image needs x86_64/),
        bare: rejected(/no supported/),
      },
    ],
  ])("%s", (_, properties, expected) => {
    expect(verdicts(ImagePropertiesFilter, { hosts, request: { image: { properties } } })).toEqual(expected);
  });
});

describe("JsonFilter", () => {
  const hosts = [host("big", { memory_mb: 65536, vcpus: 32 }), host("small", { memory_mb: 8192, vcpus: 4 })];
  const run = (query?: string) =>
    verdicts(JsonFilter, { hosts, request: { scheduler_hints: query === undefined ? {} : { query } } } as Case);
  it.each([
    ["no query: every host", undefined, { big: null, small: null }],
    [
      "a comparison on a HostState variable",
      '[">=", "$free_ram_mb", 16384]',
      { big: null, small: rejected(/not satisfying query \[">=", "\$free_ram_mb", 16384\]/) },
    ],
    [
      "and/or over comparisons",
      '["and", [">=", "$vcpus_total", 8], ["<", "$free_ram_mb", 100000]]',
      { big: null, small: rejected(/not satisfying query/) },
    ],
    ["or: either is enough", '["or", ["=", "$vcpus_total", 4], ["=", "$vcpus_total", 32]]', { big: null, small: null }],
  ])("%s", (_, query, expected) => {
    expect(run(query)).toEqual(expected);
  });
});
