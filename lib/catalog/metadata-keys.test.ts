import { describe, expect, it } from "vitest";
import type { FilterReads } from "@/lib/scheduler/plugin";
import { FILTER_DESCRIPTORS, WEIGHER_DESCRIPTORS } from "@/lib/scheduler/registry";
import { describeMetadataKey, metadataKeyError, metadataValueError, SUGGESTED_METADATA_KEYS } from "./metadata-keys";

describe("describeMetadataKey", () => {
  it.each([
    ["availability_zone", "AvailabilityZoneFilter"],
    ["filter_tenant_id", "AggregateMultiTenancyIsolation"],
    ["instance_type", "AggregateTypeAffinityFilter"],
    ["max_instances_per_host", "AggregateNumInstancesFilter"],
    ["max_io_ops_per_host", "AggregateIoOpsFilter"],
    ["ram_weight_multiplier", "RAMWeigher"],
    ["cpu_weight_multiplier", "CPUWeigher"],
    ["disk_weight_multiplier", "DiskWeigher"],
    ["io_ops_weight_multiplier", "IoOpsWeigher"],
    ["pci_weight_multiplier", "PCIWeigher"],
    ["soft_affinity_weight_multiplier", "ServerGroupSoftAffinityWeigher"],
    ["soft_anti_affinity_weight_multiplier", "ServerGroupSoftAntiAffinityWeigher"],
    ["build_failure_weight_multiplier", "BuildFailureWeigher"],
    ["cross_cell_move_weight_multiplier", "CrossCellWeigher"],
    ["metrics_weight_multiplier", "MetricsWeigher"],
    ["hypervisor_version_weight_multiplier", "HypervisorVersionWeigher"],
    ["num_instances_weight_multiplier", "NumInstancesWeigher"],
    ["image_props_weight_multiplier", "ImagePropertiesWeigher"],
    ["hw_architecture", "AggregateImagePropertiesIsolation"],
    ["img_hv_type", "AggregateImagePropertiesIsolation"],
    ["ssd", "AggregateInstanceExtraSpecsFilter"],
    ["gpu_model", "AggregateInstanceExtraSpecsFilter"],
  ])("%s is read by %s", (key, reader) => {
    expect(describeMetadataKey(key).reader).toBe(reader);
  });

  it("names the flavor extra spec a free key is matched against", () => {
    expect(describeMetadataKey("ssd").meaning).toContain("aggregate_instance_extra_specs:ssd");
  });

  // The descriptors are the truth the catalogue is read from.
  it.each(
    Object.values(FILTER_DESCRIPTORS).flatMap((d) =>
      ((d.reads as FilterReads).metadata ?? []).flatMap((m) => (m === "*" ? [] : [[m.key, d.name]])),
    ),
  )("%s: the descriptor of %s reads it, and so says the catalogue", (key, name) => {
    expect(describeMetadataKey(key).reader).toBe(name);
  });

  it.each(Object.values(WEIGHER_DESCRIPTORS).map((d) => [d.multiplier, d.name]))(
    "%s: the multiplier of %s's descriptor, and so says the catalogue",
    (key, name) => {
      expect(describeMetadataKey(key).reader).toBe(name);
    },
  );

  it("suggests every key a filter reads by name and every weigher's multiplier", () => {
    expect(SUGGESTED_METADATA_KEYS).toEqual(
      expect.arrayContaining([
        "availability_zone",
        "filter_tenant_id",
        "instance_type",
        "max_instances_per_host",
        "max_io_ops_per_host",
        ...Object.values(WEIGHER_DESCRIPTORS).map((d) => d.multiplier),
      ]),
    );
    expect(Object.values(WEIGHER_DESCRIPTORS)).toHaveLength(13);
  });

  it("image property keys honour the isolation namespace", () => {
    expect(describeMetadataKey("hw_architecture", { imagePropertiesNamespace: "img" }).kind).toBe("extra_spec");
    expect(describeMetadataKey("img.hw_architecture", { imagePropertiesNamespace: "img" }).kind).toBe("image_property");
  });
});

describe("metadataValueError", () => {
  it("multipliers take Python float() syntax", () => {
    for (const ok of ["1", "-1.0", "2.", ".5", "1e3", " 1.5 ", "1_000.5", "+3"]) {
      expect(metadataValueError("ram_weight_multiplier", ok), ok).toBeNull();
    }
    for (const bad of ["abc", "1,5", "", "1.0.0", "0x10", "1e"]) {
      expect(metadataValueError("ram_weight_multiplier", bad), bad).toMatch(
        /must be a number \(Python float\(\) syntax/,
      );
    }
    expect(metadataValueError("ram_weight_multiplier", "inf")).toMatch(/finite/);
  });

  it("soft-affinity, soft-anti-affinity and pci multipliers must not be negative", () => {
    for (const key of [
      "soft_affinity_weight_multiplier",
      "soft_anti_affinity_weight_multiplier",
      "pci_weight_multiplier",
    ]) {
      expect(metadataValueError(key, "-0.5")).toMatch(/must be >= 0/);
      expect(metadataValueError(key, "0")).toBeNull();
    }
    expect(metadataValueError("ram_weight_multiplier", "-0.5")).toBeNull();
  });

  it("max_* must be whole numbers", () => {
    expect(metadataValueError("max_instances_per_host", "8")).toBeNull();
    expect(metadataValueError("max_io_ops_per_host", " 16 ")).toBeNull();
    expect(metadataValueError("max_instances_per_host", "1.5")).toMatch(/whole number/);
    expect(metadataValueError("max_io_ops_per_host", "many")).toMatch(/whole number/);
    expect(metadataValueError("max_io_ops_per_host", "-1")).toMatch(/>= 0/);
  });

  it("zones, tenants and flavor lists", () => {
    expect(metadataValueError("availability_zone", "az1")).toBeNull();
    expect(metadataValueError("availability_zone", "a:b")).toMatch(/':'/);
    expect(metadataValueError("filter_tenant_id", " ")).toMatch(/at least one project/);
    expect(metadataValueError("instance_type", "")).toMatch(/at least one flavor/);
  });

  it("accepts free keys with any value", () => {
    expect(metadataValueError("ssd", "true")).toBeNull();
    expect(metadataValueError("rack", "r12 row 3")).toBeNull();
    expect(metadataValueError("ssd", "x".repeat(256))).toMatch(/at most 255/);
  });
});

describe("metadataKeyError", () => {
  it("follows Nova's key rule", () => {
    expect(metadataKeyError("ssd")).toBeNull();
    expect(metadataKeyError("a.b:c-d e_f")).toBeNull();
    expect(metadataKeyError("")).toMatch(/required/);
    expect(metadataKeyError("a/b")).toMatch(/may only contain/);
    expect(metadataKeyError(" ssd")).toMatch(/spaces/);
  });
});

describe("allocation ratios in aggregate metadata", () => {
  it.each(["cpu_allocation_ratio", "ram_allocation_ratio", "disk_allocation_ratio"])(
    "%s: says Nova no longer reads it from aggregates, and takes any value as Nova does",
    (key) => {
      expect(describeMetadataKey(key).meaning).toMatch(/Nova no longer reads allocation ratios from aggregates/);
      expect(metadataValueError(key, "abc")).toBeNull();
    },
  );
});
