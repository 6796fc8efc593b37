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
    expect(describeExtraSpec("ssd", "true").readers).toEqual([
      "AggregateInstanceExtraSpecsFilter",
      "ComputeCapabilitiesFilter",
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

  it("rejects an operator with no operand and a numeric operator with a non-number", () => {
    expect(extraSpecValueError("capabilities:hypervisor_type", "s==")).toBe("value: s== needs an operand");
    expect(extraSpecValueError("capabilities:vcpus", ">= many")).toBe(
      'value: >= compares numbers, but "many" is not a number',
    );
    expect(extraSpecValueError("aggregate_instance_extra_specs:x", "<or>")).toMatch(/<or> needs at least one value/);
    expect(extraSpecValueError("aggregate_instance_extra_specs:x", "")).toMatch(/required/);
    expect(extraSpecValueError("aggregate_instance_extra_specs:x", "<or> a <or> b")).toBeNull();
  });

  it("trait values are required or forbidden, trait names upper case", () => {
    expect(extraSpecValueError("trait:CUSTOM_SSD", "required")).toBeNull();
    expect(extraSpecValueError("trait:CUSTOM_SSD", "forbidden")).toBeNull();
    expect(extraSpecValueError("trait:CUSTOM_SSD", "yes")).toMatch(/"required" or "forbidden"/);
    expect(extraSpecKeyError("trait:custom_ssd")).toMatch(/upper case/);
    expect(extraSpecKeyError("trait:")).toMatch(/needs a name/);
  });

  it("other namespaces take any value", () => {
    expect(extraSpecValueError("os:secure_boot", "required")).toBeNull();
    expect(extraSpecValueError("hw:mem_page_size", "large")).toBeNull();
    expect(extraSpecValueError("resources:VGPU", "1")).toBeNull();
    expect(extraSpecValueError("resources:VGPU", "one")).toMatch(/whole number/);
  });
});

describe("NUMA, CPU, page and PCI extra specs (Nova's API validators)", () => {
  it.each([
    ["hw:numa_nodes", "2", null],
    ["hw:numa_nodes", "0", /hw:numa_nodes must be a whole number >= 1/],
    ["hw:numa_nodes", "two", /hw:numa_nodes must be a whole number >= 1/],
    ["hw:numa_cpus.0", "0-3,^2", null],
    ["hw:numa_cpus.1", "0-", /cpu set/],
    ["hw:numa_mem.0", "2048", null],
    ["hw:numa_mem.0", "2G", /whole number/],
    ["hw:cpu_policy", "dedicated", null],
    ["hw:cpu_policy", "mixed", null],
    ["hw:cpu_policy", "banana", /hw:cpu_policy must be one of shared, dedicated, mixed, got "banana"/],
    ["hw:cpu_dedicated_mask", "^0-1", null],
    ["hw:cpu_realtime", "yes", null],
    ["hw:cpu_realtime", "maybe", /boolean/],
    ["hw:cpu_realtime_mask", "^0", null],
    ["hw:cpu_thread_policy", "isolate", null],
    ["hw:cpu_thread_policy", "always", /prefer, isolate, require/],
    ["hw:emulator_threads_policy", "share", null],
    ["hw:emulator_threads_policy", "shared", /share, isolate/],
    ["hw:mem_page_size", "large", null],
    ["hw:mem_page_size", "2MB", null],
    ["hw:mem_page_size", "1GB", null],
    ["hw:mem_page_size", "2048", null],
    ["hw:mem_page_size", "huge", /small, large, any or a size/],
    ["hw:pci_numa_affinity_policy", "socket", null],
    ["hw:pci_numa_affinity_policy", "strict", /required, legacy, preferred, socket/],
    ["pci_passthrough:alias", "a100:2", null],
    ["pci_passthrough:alias", "a100:1, vf:2", null],
    ["pci_passthrough:alias", "a100", /name:count/],
    ["resources:VCPU", "4", null],
    ["resources1:CUSTOM_VGPU", "0", null],
    ["resources:VCPU", "abc", /resources:CLASS must be a whole number, got "abc"/],
    ["trait1:HW_CPU_X86_AVX2", "required", null],
    ["group_policy", "isolate", null],
    ["group_policy", "strict", /none, isolate/],
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
