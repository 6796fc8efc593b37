import { describe, expect, it } from "vitest";
import { FILTERS, WEIGHERS } from "@/lib/scheduler";
import { describeExtraSpec } from "../catalog/extra-specs";
import {
  AggregateCreateSchema,
  AggregateMetadataSchema,
  FlavorExtraSpecSchema,
  FlavorSchema,
  HostServiceSchema,
  ImagePropertySchema,
  profileSaveSchema,
  ServerGroupFormSchema,
} from "./form-schemas";

const known = { filters: Object.keys(FILTERS), weighers: Object.keys(WEIGHERS) };
const save = profileSaveSchema(known);

function errors(r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string[]> = {};
  for (const i of r.error?.issues ?? []) (out[i.path.join(".")] ??= []).push(i.message);
  return out;
}

describe("profileSaveSchema", () => {
  const base = { id: "1", weighers_mode: "all", enabled_filters: ["ComputeFilter", "AvailabilityZoneFilter"] };

  it("builds the scenario config, leaving empty options to Nova's defaults", () => {
    const r = save.safeParse({
      ...base,
      ram_weight_multiplier: "-1.0",
      host_subset_size: "2",
      metrics_required: "false",
      isolated_hosts: "a, b",
      cpu_weight_multiplier: "",
    });
    expect(r.success).toBe(true);
    expect(r.data!.config).toEqual({
      enabled_filters: ["ComputeFilter", "AvailabilityZoneFilter"],
      weighers: "all",
      ram_weight_multiplier: -1,
      host_subset_size: 2,
      metrics_required: false,
      isolated_hosts: ["a", "b"],
    });
  });

  it("a single repeated input is a one-item list; an ordered weigher list is kept", () => {
    const r = save.safeParse({
      id: "1",
      weighers_mode: "list",
      enabled_filters: "ComputeFilter",
      weighers: ["CPUWeigher", "RAMWeigher"],
    });
    expect(r.data!.config).toMatchObject({
      enabled_filters: ["ComputeFilter"],
      weighers: ["CPUWeigher", "RAMWeigher"],
    });
  });

  it("rejects unknown filter and weigher names, and duplicates", () => {
    const r = save.safeParse({
      id: "1",
      weighers_mode: "list",
      enabled_filters: ["ComputeFilter", "RamFilter", "ComputeFilter"],
      weighers: ["FooWeigher"],
    });
    const e = errors(r);
    expect(e.enabled_filters).toEqual([
      expect.stringMatching(/^enabled_filters: unknown filter "RamFilter"/),
      'enabled_filters: filter "ComputeFilter" is listed twice',
    ]);
    expect(e.weighers[0]).toMatch(/^weighers: unknown weigher "FooWeigher"/);
  });

  it.each([
    [
      "an out-of-tree filter and weigher marked not simulated are kept, in order",
      { enabled_filters: ["ComputeFilter", "ShardFilter"], weighers: ["BlazarWeigher", "RAMWeigher"] },
      ["ShardFilter", "BlazarWeigher"],
      { enabled_filters: ["ComputeFilter", "ShardFilter"], weighers: ["BlazarWeigher", "RAMWeigher"] },
    ],
    [
      "a mark on a known name changes nothing",
      { enabled_filters: ["ComputeFilter"], weighers: ["RAMWeigher"] },
      "ComputeFilter",
      { enabled_filters: ["ComputeFilter"], weighers: ["RAMWeigher"] },
    ],
  ])("%s", (_what, lists, notSimulated, config) => {
    const r = save.safeParse({ id: "1", weighers_mode: "list", ...lists, not_simulated: notSimulated });
    expect(errors(r)).toEqual({});
    expect(r.data!.config).toEqual(config);
  });

  it.each([
    [
      "an unmarked unknown filter is a typo, with the way to keep it named",
      { enabled_filters: ["ComputeFilter", "ShardFilter"] },
      "BlazarWeigher",
      { enabled_filters: [expect.stringMatching(/unknown filter "ShardFilter": add it as not simulated/)] },
    ],
    [
      "an empty name marked not simulated is still refused by the import's own rule",
      { enabled_filters: ["ComputeFilter", ""] },
      [""],
      { enabled_filters: ['enabled_filters.1: must be a non-empty string (got "")'] },
    ],
    [
      "a marked name listed twice",
      { enabled_filters: ["ShardFilter", "ShardFilter"] },
      "ShardFilter",
      { enabled_filters: ['enabled_filters: filter "ShardFilter" is listed twice'] },
    ],
  ])("%s", (_what, lists, notSimulated, expected) => {
    const r = save.safeParse({ id: "1", weighers_mode: "all", ...lists, not_simulated: notSimulated });
    expect(errors(r)).toEqual(expected);
  });

  it("rejects negative soft-affinity multipliers and host_subset_size < 1", () => {
    const e = errors(
      save.safeParse({
        ...base,
        soft_affinity_weight_multiplier: "-1",
        soft_anti_affinity_weight_multiplier: "-0.1",
        pci_weight_multiplier: "-2",
        host_subset_size: "0",
        max_attempts: "1.5",
        ram_weight_multiplier: "x",
      }),
    );
    expect(e.soft_affinity_weight_multiplier).toEqual(["soft_affinity_weight_multiplier: must be >= 0, got -1"]);
    expect(e.soft_anti_affinity_weight_multiplier).toEqual([
      "soft_anti_affinity_weight_multiplier: must be >= 0, got -0.1",
    ]);
    expect(e.pci_weight_multiplier).toEqual(["pci_weight_multiplier: must be >= 0, got -2"]);
    expect(e.host_subset_size).toEqual(["host_subset_size: must be >= 1, got 0"]);
    expect(e.max_attempts[0]).toMatch(/whole number/);
    expect(e.ram_weight_multiplier[0]).toMatch(/must be a number/);
  });
});

describe("form schemas", () => {
  it("aggregate metadata: the rule of the reader, on the value field", () => {
    expect(errors(AggregateMetadataSchema.safeParse({ id: "3", key: "ram_weight_multiplier", value: "abc" }))).toEqual({
      value: ['value: ram_weight_multiplier must be a number (Python float() syntax, e.g. -1.0), got "abc"'],
    });
    expect(AggregateMetadataSchema.safeParse({ id: "3", key: "ssd", value: "true" }).success).toBe(true);
    expect(errors(AggregateMetadataSchema.safeParse({ id: "3", key: "a/b", value: "1" })).key[0]).toMatch(
      /may only contain/,
    );
  });

  it("flavor extra specs: nova-api stores an operator without operand, and so do we (the editor warns)", () => {
    expect(
      FlavorExtraSpecSchema.safeParse({ id: "1", key: "capabilities:hypervisor_type", value: "s==" }).success,
    ).toBe(true);
    expect(describeExtraSpec("capabilities:hypervisor_type", "s==").warning).toBe("s== needs an operand");
    expect(
      FlavorExtraSpecSchema.safeParse({ id: "1", key: "aggregate_instance_extra_specs:ssd", value: "true" }).success,
    ).toBe(true);
  });

  it("flavors: sizes are whole numbers, names required", () => {
    const e = errors(FlavorSchema.safeParse({ name: " ", vcpus: "0", memory_mb: "1.5" }));
    expect(e.name).toEqual(["name: is required"]);
    expect(e.vcpus).toEqual(["vcpus: must be a whole number >= 1, got 0"]);
    expect(e.memory_mb).toEqual(['memory_mb: must be a whole number >= 1, got "1.5"']);
    const ok = FlavorSchema.safeParse({ name: "x", vcpus: "2", memory_mb: "512", is_public: "on" });
    expect(ok.data).toMatchObject({ vcpus: 2, memory_mb: 512, root_gb: 0, is_public: true, flavorid: null });
  });

  it("host service: a reason when disabling", () => {
    expect(errors(HostServiceSchema.safeParse({ host: "h", disabled: "true", reason: "" })).reason[0]).toMatch(
      /required when disabling/,
    );
    expect(HostServiceSchema.safeParse({ host: "h", disabled: "false" }).success).toBe(true);
  });

  it("aggregates and server groups", () => {
    expect(
      errors(AggregateCreateSchema.safeParse({ name: "x", availability_zone: "a:b" })).availability_zone[0],
    ).toMatch(/':'/);
    expect(AggregateCreateSchema.safeParse({ name: "x", availability_zone: "" }).data).toEqual({
      name: "x",
      availability_zone: null,
    });
    expect(
      errors(ServerGroupFormSchema.safeParse({ name: "g", policy: "affinity", max_server_per_host: "2" }))
        .max_server_per_host[0],
    ).toMatch(/only the anti-affinity/);
    expect(errors(ServerGroupFormSchema.safeParse({ name: "g", policy: "sideways" })).policy[0]).toMatch(
      /policy: must be one of/,
    );
  });
});

describe("profile editor: Placement options, PCI aliases, release", () => {
  const base = { id: "1", weighers_mode: "all", enabled_filters: ["ComputeFilter"] };

  it("keeps the [scheduler] options, the aliases (blank rows skipped) and the release", () => {
    const r = save.safeParse({
      ...base,
      placement: "true",
      query_placement_for_availability_zone: "false",
      max_placement_results: "25",
      disable_fallback_pcpu_query: "",
      nova_release: "2024.1",
      pci_alias_name: ["a100", "", "vf"],
      pci_alias_vendor_id: ["10de", "", "8086"],
      pci_alias_product_id: ["20b5", "", "154c"],
      pci_alias_device_type: ["", "", "type-VF"],
      pci_alias_numa_policy: ["required", "", ""],
    });
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    expect(r.data!.config).toEqual({
      enabled_filters: ["ComputeFilter"],
      weighers: "all",
      placement: true,
      query_placement_for_availability_zone: false,
      max_placement_results: 25,
      nova_release: "2024.1",
      pci_alias: [
        { name: "a100", vendor_id: "10de", product_id: "20b5", numa_policy: "required" },
        { name: "vf", vendor_id: "8086", product_id: "154c", device_type: "type-VF" },
      ],
    });
  });

  it.each([
    [
      { max_placement_results: "0" },
      "max_placement_results",
      'max_placement_results: must be a whole number >= 1, got "0"',
    ],
    [{ nova_release: "2022.2" }, "nova_release", "nova_release: must be a known Nova release (zed, 2023.1"],
    [
      { limit_tenants_to_placment_aggregate: "true" },
      "limit_tenants_to_placment_aggregate",
      "limit_tenants_to_placment_aggregate: unknown option",
    ],
    [{ pci_alias_product_id: "20b5" }, "pci_alias", "pci_alias[0].name: is required"],
    [
      { pci_alias_name: "a100", pci_alias_product_id: "20b" },
      "pci_alias",
      "pci_alias[0].product_id: must be 4 hex digits (e.g. 20b5)",
    ],
    [
      { pci_alias_name: "a100", pci_alias_vendor_id: "10de", pci_alias_numa_policy: "strict" },
      "pci_alias",
      "pci_alias[0].numa_policy: must be one of legacy, preferred, required, socket",
    ],
  ])("refuses %j", (input, field, message) => {
    const e = errors(save.safeParse({ ...base, ...input }));
    expect(e[field]?.[0], JSON.stringify(e)).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  });
});

describe("image properties Nova reads for NUMA, CPUs, pages and PCI", () => {
  it.each([
    ["hw_cpu_policy", "dedicated", null],
    ["hw_cpu_policy", "banana", 'value: hw_cpu_policy must be one of shared, dedicated, mixed, got "banana"'],
    ["hw_numa_nodes", "0", 'value: hw_numa_nodes must be a whole number >= 1, got "0"'],
    ["hw_mem_page_size", "2MB", null],
    ["hw_pci_numa_affinity_policy", "strict", "value: hw_pci_numa_affinity_policy must be one of required, legacy"],
    ["os_distro", "banana", null],
  ])("%s=%s", (key, value, message) => {
    const r = ImagePropertySchema.safeParse({ id: "1", key, value });
    if (message === null) expect(r.success).toBe(true);
    else expect(errors(r).value?.[0]).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  });
});

describe("flavor extra specs refused before saving (Nova's validators)", () => {
  it.each([
    ["hw:cpu_policy", "banana", "value: Validation failed; 'banana' is not one of: dedicated, shared, mixed."],
    ["resources:VCPU", "abc", "value: Validation failed; 'abc' is not a valid integer value."],
    ["pci_passthrough:alias", "a40", "value: Validation failed; 'a40' is not of the format"],
  ])("%s=%s", (key, value, message) => {
    const e = errors(FlavorExtraSpecSchema.safeParse({ id: "1", key, value }));
    expect(e.value?.[0], JSON.stringify(e)).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  });
});
