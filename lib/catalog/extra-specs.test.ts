import { describe, expect, it } from "vitest";
import { describeExtraSpec, extraSpecKeyError, extraSpecNamespace, extraSpecValueError } from "./extra-specs";

describe("extra spec namespaces", () => {
  it.each([
    ["aggregate_instance_extra_specs:ssd", "aggregate_instance_extra_specs"],
    ["capabilities:hypervisor_type", "capabilities"],
    ["trait:HW_CPU_X86_AVX2", "trait"],
    ["hw:cpu_policy", "hw"],
    ["ssd", "unscoped"],
    ["os:secure_boot", "other"],
  ])("%s → %s", (key, ns) => {
    expect(extraSpecNamespace(key)).toBe(ns);
  });

  it("names the readers", () => {
    expect(describeExtraSpec("aggregate_instance_extra_specs:ssd", "true").readers).toEqual([
      "AggregateInstanceExtraSpecsFilter",
    ]);
    expect(describeExtraSpec("capabilities:hypervisor_type", "QEMU").readers).toEqual(["ComputeCapabilitiesFilter"]);
    // Unscoped keys: both filters' descriptors read them ("*"), named in the registry's order.
    expect(describeExtraSpec("ssd", "true").readers).toEqual([
      "ComputeCapabilitiesFilter",
      "AggregateInstanceExtraSpecsFilter",
    ]);
    expect(describeExtraSpec("hw:cpu_policy", "dedicated").readers).toEqual(["NUMATopologyFilter", "virt driver"]);
    expect(describeExtraSpec("pci_passthrough:alias", "a1:2").readers).toEqual([
      "PciPassthroughFilter",
      "NUMATopologyFilter",
    ]);
  });
});

describe("operator syntax", () => {
  it("explains values", () => {
    expect(describeExtraSpec("capabilities:hypervisor_type", "s== QEMU").meaning).toBe(
      "s== QEMU: string equal to QEMU",
    );
    expect(describeExtraSpec("capabilities:vcpus", ">= 4").meaning).toBe(">= 4: a number greater than or equal to 4");
    expect(describeExtraSpec("aggregate_instance_extra_specs:ssd", "true").meaning).toContain('equal to "true"');
    expect(describeExtraSpec("capabilities:cpu_info:features", "<all-in> avx aes").meaning).toContain(
      "containing all of avx, aes",
    );
  });

  it("nova-api stores an operator with no operand or a non-number operand: a warning, not a refusal", () => {
    expect(extraSpecValueError("capabilities:hypervisor_type", "s==")).toBeNull();
    expect(describeExtraSpec("capabilities:hypervisor_type", "s==").warning).toBe("s== needs an operand");
    expect(describeExtraSpec("capabilities:vcpus", ">= many").warning).toBe(
      '>= compares numbers, but "many" is not a number',
    );
    expect(describeExtraSpec("aggregate_instance_extra_specs:x", "<or>").warning).toMatch(
      /<or> needs at least one value/,
    );
    expect(describeExtraSpec("aggregate_instance_extra_specs:x", "<or> a <or> b").warning).toBeUndefined();
  });

  it("trait values are required or forbidden; a trait name Nova does not know is refused", () => {
    expect(extraSpecValueError("trait:CUSTOM_SSD", "required")).toBeNull();
    expect(extraSpecValueError("trait:CUSTOM_SSD", "forbidden")).toBeNull();
    expect(extraSpecValueError("trait:CUSTOM_SSD", "yes")).toBe(
      "value: Validation failed; 'yes' is not one of: required, forbidden.",
    );
    expect(extraSpecKeyError("trait:custom_ssd")).toBe(
      "key: Validation failed; extra spec 'trait:custom_ssd' does not appear to be a valid extra spec.",
    );
    expect(extraSpecKeyError("trait:")).toMatch(/does not appear to be a valid extra spec/);
  });

  it("keys in namespaces Nova does not know take any value", () => {
    expect(extraSpecKeyError("acme:tier")).toBeNull();
    expect(extraSpecValueError("acme:tier", "gold")).toBeNull();
    expect(extraSpecValueError("os:secure_boot", "required")).toBeNull();
    expect(extraSpecValueError("hw:mem_page_size", "large")).toBeNull();
    expect(extraSpecValueError("resources:VGPU", "1")).toBeNull();
    expect(extraSpecValueError("resources:VGPU", "one")).toMatch(/is not a valid integer value/);
  });
});

describe("NUMA, CPU, page and PCI extra specs (Nova's API validators)", () => {
  it.each([
    ["hw:numa_nodes", "2", null],
    ["hw:numa_nodes", "0", /'0' is less than the min value of '1'/],
    ["hw:numa_nodes", "two", /'two' is not a valid integer value/],
    ["hw:numa_cpus.0", "0-3,^2", null],
    ["hw:numa_cpus.1", "0-", /is not of the format/],
    ["hw:numa_mem.0", "2048", null],
    ["hw:numa_mem.0", "2G", /not a valid integer/],
    ["hw:cpu_policy", "dedicated", null],
    ["hw:cpu_policy", "mixed", null],
    ["hw:cpu_policy", "banana", /'banana' is not one of: dedicated, shared, mixed/],
    ["hw:cpu_dedicated_mask", "^0-1", null],
    ["hw:cpu_realtime", "yes", null],
    ["hw:cpu_realtime", "maybe", /boolean-like/],
    ["hw:cpu_realtime_mask", "^0", null],
    ["hw:cpu_thread_policy", "isolate", null],
    ["hw:cpu_thread_policy", "always", /prefer, isolate, require/],
    ["hw:emulator_threads_policy", "share", null],
    ["hw:emulator_threads_policy", "shared", /isolate, share/],
    ["hw:mem_page_size", "large", null],
    ["hw:mem_page_size", "2MB", null],
    ["hw:mem_page_size", "1GB", null],
    ["hw:mem_page_size", "2048", null],
    ["hw:mem_page_size", "huge", /is not of the format/],
    ["hw:pci_numa_affinity_policy", "socket", null],
    ["hw:pci_numa_affinity_policy", "strict", /required, preferred, legacy, socket/],
    ["pci_passthrough:alias", "a100:2", null],
    ["pci_passthrough:alias", "a100:1, vf:2", null],
    ["pci_passthrough:alias", "a100", /is not of the format/],
    ["resources:VCPU", "4", null],
    ["resources1:CUSTOM_VGPU", "0", null],
    ["resources:VCPU", "abc", /'abc' is not a valid integer value/],
    ["trait1:HW_CPU_X86_AVX2", "required", null],
    ["group_policy", "isolate", null],
    ["group_policy", "strict", /isolate, none/],
  ])("%s=%s", (key, value, error) => {
    const e = extraSpecValueError(key, value);
    if (error === null) expect(e).toBeNull();
    else expect(e).toMatch(error);
  });

  it("explains legal values in the operator's words", () => {
    expect(describeExtraSpec("hw:cpu_policy", "dedicated").meaning).toMatch(/pinned to its own dedicated host CPU/);
    expect(describeExtraSpec("hw:numa_cpus.1", "0-3,^2").meaning).toBe("guest node 1 gets vCPUs 0, 1, 3");
    expect(describeExtraSpec("hw:mem_page_size", "1GB").meaning).toBe("pages of 1 GiB");
    expect(describeExtraSpec("pci_passthrough:alias", "a100:2,vf:1").meaning).toBe("2 × a100, 1 × vf");
    expect(describeExtraSpec("resources:PCPU", "4").meaning).toBe("4 of PCPU");
    expect(extraSpecNamespace("resources1:VCPU")).toBe("resources");
    expect(extraSpecNamespace("trait1:HW_CPU_X86_AVX2")).toBe("trait");
  });
});
