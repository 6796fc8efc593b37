/** Nova's request filters, one row per behaviour (request_filter.py, Zed). */
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../config";
import { buildAggregates, buildHostStates } from "../host-state";
import { stableUuid } from "../nova-uuid";
import { buildRequestSpec } from "../request-spec";
import type { Scenario, ScenarioAggregate, ScenarioConfig, ScenarioRequest } from "../scenario";
import { aggregateRows, processRequestSpec } from "./request-filters";
import { maxphysaddrTrait } from "./resource-request";

const agg = (name: string) => stableUuid(`agg-${name}`);

function filters(config: ScenarioConfig, aggregates: ScenarioAggregate[], request: Partial<ScenarioRequest> = {}) {
  const scenario: Scenario = {
    hosts: [{ name: "h", vcpus: 8, memory_mb: 8192, local_gb: 100 }],
    aggregates,
    request: { project_id: "acme", flavor: { name: "f", vcpus: 1, memory_mb: 512 }, ...request },
  };
  const spec = buildRequestSpec(scenario, buildHostStates(scenario));
  const image = scenario.request.image ?? {};
  return processRequestSpec(resolveConfig(config), spec, aggregateRows(buildAggregates(aggregates)), {
    diskFormat: image.disk_format ?? "qcow2",
    isBfv: Boolean(scenario.request.is_bfv),
  });
}

const tenant = { limit_tenants_to_placement_aggregate: true };

describe("request filters", () => {
  it.each([
    [
      "tenant: the whole value must equal the project",
      tenant,
      [{ name: "t", metadata: { filter_tenant_id: "acme" } }],
      {},
      [[agg("t")]],
    ],
    [
      "tenant: a comma list does not match",
      tenant,
      [{ name: "t", metadata: { filter_tenant_id: "acme,other" } }],
      {},
      [],
    ],
    [
      "tenant: filter_tenant_id2 counts too",
      tenant,
      [{ name: "t", metadata: { filter_tenant_id2: "acme" } }],
      {},
      [[agg("t")]],
    ],
    [
      "AZ: aggregates of the zone",
      {},
      [{ name: "z", availability_zone: "az1" }],
      { availability_zone: "az1" },
      [[agg("z")]],
    ],
    [
      "AZ: the default zone names no aggregate, so no constraint",
      {},
      [{ name: "z", availability_zone: "az1" }],
      { availability_zone: "nova" },
      [],
    ],
    [
      "AZ: off by option in Zed",
      { query_placement_for_availability_zone: false },
      [{ name: "z", availability_zone: "az1" }],
      { availability_zone: "az1" },
      [],
    ],
  ])("%s", (_what, config, aggregates, request, required) => {
    expect(filters(config, aggregates as ScenarioAggregate[], request).requiredAggregates).toEqual(required);
  });

  it("placement_aggregate_required_for_tenants: no aggregate for the project fails before Placement", () => {
    const r = filters({ ...tenant, placement_aggregate_required_for_tenants: true }, []);
    expect(r.failed).toBe("No hosts available for tenant acme");
  });

  it.each([
    [
      "trait:X=required isolates its aggregate",
      [{ name: "g", metadata: { "trait:CUSTOM_GPU": "required" } }],
      {},
      [agg("g")],
    ],
    ["LIKE 'trait:%' ignores case", [{ name: "g", metadata: { "TRAIT:CUSTOM_GPU": "required" } }], {}, [agg("g")]],
    [
      "not when the flavor requires the trait",
      [{ name: "g", metadata: { "trait:CUSTOM_GPU": "required" } }],
      { flavor: { name: "f", vcpus: 1, memory_mb: 512, extra_specs: { "trait:CUSTOM_GPU": "required" } } },
      [],
    ],
  ])("isolate_aggregates: %s", (_what, aggregates, request, forbidden) => {
    const r = filters({ enable_isolated_aggregate_filtering: true }, aggregates as ScenarioAggregate[], request);
    expect([...r.forbiddenAggregates]).toEqual(forbidden);
  });

  it.each([
    [{ query_placement_for_image_type_support: true }, { image: { disk_format: "raw" } }, ["COMPUTE_IMAGE_TYPE_RAW"]],
    [{ query_placement_for_image_type_support: true }, { image: { disk_format: "raw" }, is_bfv: true }, []],
    [
      { image_metadata_prefilter: true },
      { image: { properties: { hw_disk_bus: "virtio", hw_architecture: "x86_64" } } },
      ["COMPUTE_STORAGE_BUS_VIRTIO", "HW_ARCH_X86_64"],
    ],
    // One name os-traits does not know and the filter adds none.
    [
      { image_metadata_prefilter: true },
      { image: { properties: { hw_disk_bus: "virtio", hw_architecture: "armv7l" } } },
      [],
    ],
  ])("root traits %j %j", (config, request, required) => {
    const r = filters(config, [], request as Partial<ScenarioRequest>);
    expect([...r.rootRequired]).toEqual(required);
    expect([...r.rootForbidden]).toEqual(["COMPUTE_STATUS_DISABLED"]);
  });
});

describe("packed_virtqueue_filter (2024.1+)", () => {
  it.each<[string, string, Record<string, string>, Record<string, string | number | boolean>, boolean]>([
    ["flavor hw:virtio_packed_ring=true", "2024.1", { "hw:virtio_packed_ring": "true" }, {}, true],
    ["image hw_virtio_packed_ring=yes", "2025.1", {}, { hw_virtio_packed_ring: "yes" }, true],
    ["flavor false", "2024.1", { "hw:virtio_packed_ring": "false" }, {}, false],
    ["nothing asked", "2024.1", {}, {}, false],
    ["under Zed the filter does not exist", "zed", { "hw:virtio_packed_ring": "true" }, {}, false],
    ["under 2023.2 the filter does not exist", "2023.2", {}, { hw_virtio_packed_ring: "true" }, false],
  ])("%s (%s): requires COMPUTE_NET_VIRTIO_PACKED: %s", (_, release, extra_specs, properties, required) => {
    const out = filters({ nova_release: release }, [], {
      flavor: { name: "f", vcpus: 1, memory_mb: 512, extra_specs },
      image: { properties },
    });
    expect(out.rootRequired.has("COMPUTE_NET_VIRTIO_PACKED")).toBe(required);
    expect(out.trace.some((t) => t.name === "packed_virtqueue_filter")).toBe(required);
  });

  it("a flavor and an image that disagree are a FlavorImageConflict", () => {
    expect(() =>
      filters({ nova_release: "2024.1" }, [], {
        flavor: { name: "f", vcpus: 1, memory_mb: 512, extra_specs: { "hw:virtio_packed_ring": "true" } },
        image: { properties: { hw_virtio_packed_ring: "false" } },
      }),
    ).toThrow(
      // hardware.get_packed_virtqueue_constraint prints the booleans, without names.
      "Flavor has hw:virtio_packed_ring extra spec explicitly set to True, conflicting with image which has hw_virtio_packed_ring explicitly set to False.",
    );
  });
});

describe("maxphysaddr mode → required trait (2024.1+)", () => {
  const spec = (extra_specs: Record<string, string>, properties: Record<string, string | number | boolean>) => {
    const scenario: Scenario = {
      hosts: [{ name: "h", vcpus: 8, memory_mb: 8192, local_gb: 100 }],
      request: { flavor: { name: "f", vcpus: 1, memory_mb: 512, extra_specs }, image: { properties } },
    };
    return buildRequestSpec(scenario, buildHostStates(scenario));
  };
  it.each<[Record<string, string>, Record<string, string | number | boolean>, string | null]>([
    [{ "hw:maxphysaddr_mode": "passthrough" }, {}, "COMPUTE_ADDRESS_SPACE_PASSTHROUGH"],
    [{}, { hw_maxphysaddr_mode: "emulate", hw_maxphysaddr_bits: 42 }, "COMPUTE_ADDRESS_SPACE_EMULATED"],
    [{ "hw:maxphysaddr_bits": "42" }, {}, null],
    [{ "hw:maxphysaddr_mode": "emulate" }, { hw_maxphysaddr_mode: "emulate" }, "COMPUTE_ADDRESS_SPACE_EMULATED"],
  ])("flavor %j, image %j: %s", (extra, props, trait) => {
    expect(maxphysaddrTrait(spec(extra, props))).toBe(trait);
  });
  it("a flavor and an image that disagree are a FlavorImageConflict", () => {
    expect(() =>
      maxphysaddrTrait(spec({ "hw:maxphysaddr_mode": "passthrough" }, { hw_maxphysaddr_mode: "emulate" })),
    ).toThrow("hw:maxphysaddr_mode extra spec explicitly set to passthrough");
  });
});
