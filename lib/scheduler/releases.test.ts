/** One test per scheduler difference a Nova release brought, named after the Nova change. */
import { describe, expect, it } from "vitest";
import { buildDemoCloud, DEFAULT_PROFILE_CONFIG, DEMO_FLAVORS } from "@/lib/cloud/demo-cloud";
import { resolveConfig } from "./config";
import { schedule } from "./engine";
import { toResult } from "./result";
import type { Scenario, ScenarioConfig } from "./scenario";

const hosts = [
  { name: "old", vcpus: 16, memory_mb: 65536, local_gb: 500, hypervisor_version: 6002000 },
  { name: "new", vcpus: 16, memory_mb: 61440, local_gb: 500, hypervisor_version: 8000000 },
];
const scenario = (config: ScenarioConfig): Scenario => ({
  config: { enabled_filters: ["ComputeFilter"], ...config },
  hosts,
  request: { flavor: { name: "m1", vcpus: 1, memory_mb: 1024 } },
});

describe("Nova releases", () => {
  it("Zed is the default and every result names its release", () => {
    const r = toResult(schedule(scenario({})));
    expect(r.nova_release).toBe("26 (Zed)");
    expect(toResult(schedule(scenario({ nova_release: "2025.1" }))).nova_release).toBe("31 (2025.1 Epoxy)");
  });

  it.each([
    ["zed", 10, "old"],
    ["2023.1", 10, "old"],
    ["2023.2", 12, "new"],
    ["2024.2", 12, "new"],
    ["2025.1", 13, "new"],
  ])(
    '2023.2 "Add HypervisorVersionWeigher" / "Add NumInstancesWeigher", 2025.1 "Add ImagePropertiesWeigher": under %s, weighers "all" is %i weighers and %s wins',
    (release, count, winner) => {
      const run = schedule(scenario({ nova_release: release, weighers: "all" }));
      expect(run.config.weighers.length).toBe(count);
      expect(toResult(run).selections[0].host).toBe(winner);
    },
  );

  it('2023.2 "Remove AvailabilityZoneFilter": it no longer runs, and the result says so', () => {
    const r = toResult(
      schedule(scenario({ nova_release: "2023.2", enabled_filters: ["ComputeFilter", "AvailabilityZoneFilter"] })),
    );
    expect(r.requests[0].funnel.map((f) => f.filter)).toEqual(["ComputeFilter"]);
    expect(r.release_notes).toEqual([
      "AvailabilityZoneFilter is not in Nova 28 (2023.2 Bobcat) (removed); it did not run",
    ]);
    const zed = toResult(schedule(scenario({ enabled_filters: ["ComputeFilter", "AvailabilityZoneFilter"] })));
    expect(zed.requests[0].funnel.map((f) => f.filter)).toEqual(["ComputeFilter", "AvailabilityZoneFilter"]);
  });

  it("the demo cloud under Zed and under 2025.1: HypervisorVersionWeigher changes the ranking", () => {
    const cloud = buildDemoCloud();
    const request = { flavor: DEMO_FLAVORS.find((f) => f.name === "m1.small") ?? DEMO_FLAVORS[0] };
    const ranking = (nova_release: string) => {
      const r = toResult(
        schedule({ ...(cloud as Scenario), config: { ...DEFAULT_PROFILE_CONFIG, nova_release }, request }),
      );
      return {
        top: r.requests[0].weighed.slice(0, 5).map((w) => w.host),
        weighers: Object.keys(r.requests[0].weighed[0].weighers),
      };
    };
    const zed = ranking("zed");
    const epoxy = ranking("2025.1");
    expect(zed.weighers).not.toContain("HypervisorVersionWeigher");
    expect(epoxy.weighers).toContain("HypervisorVersionWeigher");
    expect(epoxy.top).not.toEqual(zed.top);
  });

  it.each([
    ["2024.2", false],
    ["2025.1", true],
    ["2026.1", true],
  ])('2025.1 "Add ImagePropertiesWeigher": under %s "all" includes it: %s', (release, included) => {
    expect(resolveConfig({ nova_release: release, weighers: "all" }).weighers.includes("ImagePropertiesWeigher")).toBe(
      included,
    );
  });

  it("2023.2: the availability zone request filter is always on", () => {
    const off = { query_placement_for_availability_zone: false };
    expect(resolveConfig(off).queryPlacementForAvailabilityZone).toBe(false);
    expect(resolveConfig({ ...off, nova_release: "2023.2" }).queryPlacementForAvailabilityZone).toBe(true);
  });
});

describe("configuration refuses bad input, naming the field", () => {
  it.each([
    [
      { nova_release: "2099.9" },
      'config.nova_release: unknown release "2099.9" (known: zed, 2023.1, 2023.2, 2024.1, 2024.2, 2025.1, 2025.2, 2026.1)',
    ],
    [{ max_placement_results: 0 }, "config.max_placement_results: should be greater than or equal to 1, got 0"],
    [{ max_placment_results: 5 }, "config.max_placment_results: unknown option"],
    [{ placement: "yes" }, "config.placement: must be true or false"],
  ])("%j", (config, message) => {
    expect(schedule(scenario(config as ScenarioConfig)).error).toEqual({ name: "ValueError", message });
  });
});

describe("2024.1: packed virtqueue and maxphysaddr traits in Placement", () => {
  // Before 2024.1 Placement's os-traits lacks these names: no host can report them.
  const placementScenario = (nova_release: string, extra_specs: Record<string, string>, traits = true): Scenario => ({
    config: { placement: true, enabled_filters: ["ComputeFilter"], nova_release },
    hosts: [
      { name: "plain", vcpus: 16, memory_mb: 65536, local_gb: 500 },
      {
        name: "capable",
        vcpus: 16,
        memory_mb: 32768,
        local_gb: 500,
        traits: traits ? ["COMPUTE_NET_VIRTIO_PACKED", "COMPUTE_ADDRESS_SPACE_PASSTHROUGH"] : [],
      },
    ],
    request: { flavor: { name: "m1", vcpus: 1, memory_mb: 1024, extra_specs } },
  });

  it.each([
    [{ "hw:virtio_packed_ring": "true" }, "root_required=COMPUTE_NET_VIRTIO_PACKED"],
    [{ "hw:maxphysaddr_mode": "passthrough" }, "required=COMPUTE_ADDRESS_SPACE_PASSTHROUGH"],
  ])("%j: only the host with the trait is a candidate under 2024.1; 2023.2 ignores it", (extra_specs, param) => {
    const caracal = toResult(schedule(placementScenario("2024.1", extra_specs)));
    expect(caracal.placement?.query).toContain(param);
    expect(caracal.selections[0].host).toBe("capable");
    expect(caracal.placement?.candidates).toBe(1);
    const bobcat = toResult(schedule(placementScenario("2023.2", extra_specs, false)));
    expect(bobcat.placement?.query).not.toMatch(/VIRTIO_PACKED|ADDRESS_SPACE/);
    expect(bobcat.placement?.candidates).toBe(2);
    expect(bobcat.selections[0].host).toBe("plain");
  });

  it("hw:maxphysaddr_mode=emulate needs COMPUTE_ADDRESS_SPACE_EMULATED, which no host has: NoValidHost", () => {
    const r = toResult(schedule(placementScenario("2024.1", { "hw:maxphysaddr_mode": "emulate" })));
    expect(r.placement?.query).toContain("required=COMPUTE_ADDRESS_SPACE_EMULATED");
    expect(r.placement?.candidates).toBe(0);
    expect(r.selections).toEqual([]);
  });

  it("a host reporting a trait newer than Zed's os-traits is refused under Zed, known under 2024.1", () => {
    expect(schedule(placementScenario("zed", {})).error?.message).toContain("unknown trait COMPUTE_NET_VIRTIO_PACKED");
    expect(schedule(placementScenario("2024.1", {})).error).toBeNull();
  });
});
