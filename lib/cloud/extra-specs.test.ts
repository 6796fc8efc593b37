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
