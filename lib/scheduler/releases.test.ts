/** One test per scheduler difference a Nova release brought, named after the Nova change. */
import { describe, expect, it } from "vitest";
import { buildDemoCloud, DEFAULT_PROFILE_CONFIG, DEMO_FLAVORS } from "@/lib/demo/cloud";
import { resolveConfig } from "./config";
import { schedule } from "./engine";
import { toResult } from "./result";
import type { Scenario, ScenarioConfig, ServerGroupPolicy } from "./scenario";

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

describe("Placement's os-traits follows the release (openstack/requirements upper-constraints.txt)", () => {
  const withTrait = (nova_release: string, trait: string): Scenario => ({
    config: { placement: true, enabled_filters: [], nova_release },
    hosts: [{ name: "a", vcpus: 4, memory_mb: 8192, local_gb: 100, traits: [trait] }],
    request: { flavor: { name: "m1", vcpus: 1, memory_mb: 1024 } },
  });
  it.each([
    ["COMPUTE_ADDRESS_SPACE_PASSTHROUGH", "zed", "2023.1"], // os-traits 2.10.0
    ["COMPUTE_NET_VIRTIO_PACKED", "2023.1", "2023.2"], // 3.0.0
    ["COMPUTE_SECURITY_TPM_CRB", "2024.1", "2024.2"], // 3.1.0
    ["COMPUTE_SECURITY_TPM_SECRET_SECURITY_HOST", "2024.2", "2025.1"], // 3.3.0
    ["COMPUTE_SOUND_MODEL_VIRTIO", "2025.1", "2025.2"], // 3.5.0
    ["HW_CPU_X86_AMXTILE", "2025.2", "2026.1"], // 3.6.0
  ])("%s: unknown under %s, a standard trait from %s", (trait, before, since) => {
    expect(schedule(withTrait(before, trait)).error?.message).toContain(`unknown trait ${trait}`);
    expect(schedule(withTrait(since, trait)).error).toBeNull();
  });
});

describe('2024.1 1038a63387 "libvirt: Support maxphysaddr.": the bits are checked by the filters', () => {
  const bitsHosts = [
    { name: "narrow", vcpus: 16, memory_mb: 65536, local_gb: 500, cpu_info: { maxphysaddr: { bits: 39 } } },
    { name: "wide", vcpus: 16, memory_mb: 32768, local_gb: 500, cpu_info: { maxphysaddr: { bits: 46 } } },
  ];
  it.each([
    ["2023.2", ["narrow", "wide"]],
    ["2024.1", ["wide"]],
    ["2026.1", ["wide"]],
  ])("ComputeCapabilitiesFilter, flavor hw:maxphysaddr_bits=42 under %s keeps %j", (nova_release, kept) => {
    const r = toResult(
      schedule({
        config: { enabled_filters: ["ComputeCapabilitiesFilter"], nova_release },
        hosts: bitsHosts,
        request: { flavor: { name: "m1", vcpus: 1, memory_mb: 1024, extra_specs: { "hw:maxphysaddr_bits": "42" } } },
      }),
    );
    expect(r.requests[0].weighed.map((w) => w.host).sort()).toEqual(kept);
  });

  it("ImagePropertiesFilter, image hw_maxphysaddr_bits: Nova 2024.1 calls .get() on the cpu_info text and raises", () => {
    const run = (nova_release: string) =>
      schedule({
        config: { enabled_filters: ["ImagePropertiesFilter"], nova_release },
        hosts: bitsHosts.map((h) => ({ ...h, supported_instances: [["x86_64", "kvm", "hvm"]] })),
        request: {
          flavor: { name: "m1", vcpus: 1, memory_mb: 1024 },
          image: { properties: { hw_architecture: "x86_64", hw_maxphysaddr_bits: 42 } },
        },
      });
    expect(run("2023.2").error).toBeNull();
    expect(run("2024.1").error).toEqual({ name: "AttributeError", message: "'str' object has no attribute 'get'" });
  });
});

describe('2024.2 3cd26b0a08 "AggregateMultitenancyIsolation to support unlimited tenant"', () => {
  const tenantScenario = (nova_release: string, project_id: string): Scenario => ({
    config: { enabled_filters: ["AggregateMultiTenancyIsolation"], nova_release },
    hosts: [
      { name: "a", vcpus: 16, memory_mb: 65536, local_gb: 500 },
      { name: "b", vcpus: 16, memory_mb: 32768, local_gb: 500 },
    ],
    aggregates: [
      { name: "acme-more", hosts: ["a"], metadata: { filter_tenant_id_2: "acme", filter_tenant_idx: "zeta" } },
      { name: "beta", hosts: ["b"], metadata: { filter_tenant_id: "beta" } },
    ],
    request: { project_id, flavor: { name: "m1", vcpus: 1, memory_mb: 1024 } },
  });
  const kept = (r: string, p: string) =>
    toResult(schedule(tenantScenario(r, p)))
      .requests[0].weighed.map((w) => w.host)
      .sort();
  it.each([
    ["2024.1", "other", ["a"]],
    ["2024.2", "other", []],
    ["2024.1", "acme", ["a"]],
    ["2024.2", "acme", ["a"]],
    ["2024.2", "zeta", ["a"]],
    ["2024.2", "beta", ["b"]],
  ])("under %s project %s may use %j", (release, project, hosts) => {
    expect(kept(release, project)).toEqual(hosts);
  });
});

describe("Placement request changes of 2024.2, 2025.2 and 2026.1", () => {
  const query = (nova_release: string, extra_specs: Record<string, string>, image?: Record<string, string>) => {
    const r = toResult(
      schedule({
        config: { placement: true, enabled_filters: [], nova_release },
        hosts: [{ name: "a", vcpus: 4, memory_mb: 8192, local_gb: 100 }],
        request: { flavor: { name: "m1", vcpus: 1, memory_mb: 1024, extra_specs }, image: { properties: image } },
      }),
    );
    // NoValidHost is expected (no host has the traits): what matters is the query.
    const error = r.error === "NoValidHost" ? null : r.error ? `${r.error}: ${r.message}` : null;
    return { query: r.placement?.query ?? "", error, summary: r.diagnosis?.summary ?? "" };
  };

  it.each([
    // 2024.2: _translate_vtpm_request adds the model trait (tpm-tis unless tpm-crb).
    ["2024.1", { "hw:tpm_version": "2.0" }, undefined, "required=COMPUTE_SECURITY_TPM_2_0", /TPM_TIS/],
    ["2024.2", { "hw:tpm_version": "2.0" }, undefined, "COMPUTE_SECURITY_TPM_TIS", null],
    ["2024.2", { "hw:tpm_version": "2.0", "hw:tpm_model": "tpm-crb" }, undefined, "COMPUTE_SECURITY_TPM_CRB", null],
    // 2024.2 3169e7cebd "libvirt: Launch instances with stateless firmware".
    ["2024.1", {}, { hw_firmware_type: "uefi", hw_firmware_stateless: "true" }, "resources=", /STATELESS_FIRMWARE/],
    [
      "2024.2",
      {},
      { hw_firmware_type: "uefi", hw_firmware_stateless: "true" },
      "COMPUTE_SECURITY_STATELESS_FIRMWARE",
      null,
    ],
    // 2025.2 dab248718d "Implement sound model extra spec for libvirt." (virtio_sound_filter).
    ["2025.1", { "hw:sound_model": "virtio" }, undefined, "resources=", /SOUND/],
    ["2025.2", { "hw:sound_model": "virtio" }, undefined, "root_required=COMPUTE_SOUND_MODEL_VIRTIO", null],
    ["2025.2", { "hw:sound_model": "usb" }, undefined, "resources=", /SOUND/],
    ["2025.2", {}, { hw_sound_model: "virtio" }, "COMPUTE_SOUND_MODEL_VIRTIO", null],
    // 2026.1 "TPM: support instances with user/host/deployment secret security" (tpm_secret_security_filter).
    ["2025.2", { "hw:tpm_version": "2.0" }, undefined, "resources=", /SECRET_SECURITY/],
    ["2026.1", { "hw:tpm_version": "2.0" }, undefined, "COMPUTE_SECURITY_TPM_SECRET_SECURITY_USER", null],
    [
      "2026.1",
      { "hw:tpm_version": "2.0", "hw:tpm_secret_security": "host" },
      undefined,
      "COMPUTE_SECURITY_TPM_SECRET_SECURITY_HOST",
      null,
    ],
    ["2026.1", { "hw:tpm_secret_security": "host" }, undefined, "resources=", /SECRET_SECURITY/],
  ])("under %s, flavor %j image %j: the query has %s", (release, specs, image, has, hasNot) => {
    const { query: q, error } = query(release, specs, image);
    expect(error).toBeNull();
    expect(q).toContain(has);
    if (hasNot) expect(q).not.toMatch(hasNot);
  });

  it.each([
    [
      "2024.2",
      {},
      { hw_firmware_stateless: "true" },
      "Invalid: Stateless firmware is supported only when UEFI firmware type is used.",
    ],
    [
      "2025.2",
      { "hw:sound_model": "virtio" },
      { hw_sound_model: "usb" },
      /^FlavorImageConflict: Flavor m1 has hw:sound_model/,
    ],
    ["2025.2", { "hw:sound_model": "beeper" }, undefined, /^Invalid: Invalid sound device model 'beeper'/],
    // hardware.get_vtpm_constraint (every release): checked against Nova 31
    [
      "2025.1",
      { "hw:tpm_version": "1.2", "hw:tpm_model": "tpm-crb" },
      undefined,
      "Invalid: TPM model CRB is only valid with TPM version 2.0.",
    ],
    ["zed", { "hw:tpm_version": "3.0" }, undefined, "Invalid: Invalid TPM version '3.0'. Allowed values: 1.2, 2.0."],
    [
      "2025.1",
      { "hw:tpm_version": "2.0" },
      { hw_tpm_version: "1.2" },
      /^FlavorImageConflict: Flavor m1 has hw:tpm_version extra spec explicitly set to 2.0/,
    ],
    // _translate_maxphysaddr_request runs before _translate_stateless_firmware_request
    [
      "2025.1",
      { "hw:maxphysaddr_mode": "emulate" },
      { hw_maxphysaddr_mode: "passthrough", hw_firmware_stateless: "true" },
      /^FlavorImageConflict: Flavor m1 has hw:maxphysaddr_mode extra spec explicitly set to emulate/,
    ],
    [
      "2025.1",
      { "hw:maxphysaddr_mode": "bogus" },
      undefined,
      "Invalid: Invalid Maxphyaddr mode 'bogus'. Allowed values: passthrough, emulate.",
    ],
    [
      "2026.1",
      { "hw:tpm_version": "2.0", "hw:tpm_secret_security": "vault" },
      undefined,
      "0/1 hosts available: TPM secret security 'vault' is not supported.",
    ],
  ])("under %s, flavor %j image %j fails: %s", (release, specs, image, message) => {
    const { error, summary, query: q } = query(release, specs, image);
    if (error) expect(error).toMatch(message);
    else {
      expect(summary).toMatch(message);
      expect(q).toBe("");
    }
  });
});

it('2023.2 "Remove deprecated AZ filter.": query_placement_for_availability_zone=false is said to be gone', () => {
  const r = toResult(schedule(scenario({ nova_release: "2023.2", query_placement_for_availability_zone: false })));
  expect(r.release_notes).toEqual([
    "query_placement_for_availability_zone is not in Nova 28 (2023.2 Bobcat) (removed); the availability zone request filter always runs",
  ]);
  expect(toResult(schedule(scenario({ query_placement_for_availability_zone: false }))).release_notes).toBeUndefined();
});

it('2025.1 "Add a new ImagePropertiesWeigher": instances\' image properties pack or spread the request', () => {
  const uuid = "44444444-4444-4444-4444-444444444444";
  const run = (nova_release: string, image_props_weight_multiplier: number) =>
    toResult(
      schedule({
        config: { enabled_filters: ["ComputeFilter"], weighers: "all", nova_release, image_props_weight_multiplier },
        hosts: [
          { ...hosts[0], instances: [uuid], instance_image_properties: { [uuid]: { os_distro: "windows" } } },
          hosts[1],
        ],
        request: { flavor: { name: "m1", vcpus: 1, memory_mb: 1024 }, image: { properties: { os_distro: "windows" } } },
      }),
    ).selections[0].host;
  // HypervisorVersionWeigher prefers "new"; packing on the windows image outweighs it, spreading keeps it.
  expect([run("2024.2", 10), run("2025.1", 0), run("2025.1", 10), run("2025.1", -10)]).toEqual([
    "new",
    "new",
    "old",
    "new",
  ]);
});

it.each([
  ["zed", ["HypervisorVersionWeigher", "ImagePropertiesWeigher"]],
  ["2024.2", ["ImagePropertiesWeigher"]],
  ["2025.1", []],
])("a weigher named under %s that only a later release has is left out and said so: %j", (nova_release, later) => {
  const weighers = ["RAMWeigher", "HypervisorVersionWeigher", "ImagePropertiesWeigher"];
  const r = toResult(schedule(scenario({ nova_release, weighers })));
  expect(Object.keys(r.requests[0].weighed[0].weighers)).toEqual(weighers.filter((w) => !later.includes(w)));
  expect(r.release_notes ?? []).toEqual(
    later.map(
      (w) => `${w} is not in Nova ${resolveConfig({ nova_release }).release.label} (added later); it did not run`,
    ),
  );
});

describe('Nova 30 f14c16af82 "hardware: Use free small pages for pinned instances" (bug 1811886)', () => {
  // One host cell: 8 pCPUs, 8192 MiB, 2048 MiB of it used; 6144 MiB of
  // 4 KiB pages (3072 MiB of them used), 2048 MiB of 2 MiB pages.
  const cell = (smallUsedMib: number) => ({
    id: 0,
    cpuset: [0, 1, 2, 3, 4, 5, 6, 7],
    pcpuset: [0, 1, 2, 3, 4, 5, 6, 7],
    memory: 8192,
    memory_usage: 2048,
    mempages: [
      { size_kb: 4, total: 1572864, used: smallUsedMib * 256 },
      { size_kb: 2048, total: 1024, used: 0 },
    ],
  });
  const run = (nova_release: string, extra: Record<string, string>, smallUsedMib = 3072) =>
    toResult(
      schedule({
        config: { enabled_filters: ["NUMATopologyFilter"], weighers: ["RAMWeigher"], nova_release },
        hosts: [
          { name: "h", vcpus: 8, memory_mb: 8192, local_gb: 100, numa_topology: { cells: [cell(smallUsedMib)] } },
        ],
        request: {
          flavor: { name: "pinned", vcpus: 2, memory_mb: 4096, extra_specs: { "hw:numa_nodes": "1", ...extra } },
        },
      }),
    ).requests[0].weighed.length;
  it.each([
    // pinned, no page size: up to Nova 29 the cell's free memory (6144 MiB) and all its small pages (6144 MiB); since 30 its free small pages (3072 MiB)
    ["2024.1", { "hw:cpu_policy": "dedicated" }, 1],
    ["2024.2", { "hw:cpu_policy": "dedicated" }, 0],
    ["2025.1", { "hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "^0" }, 0],
    // unpinned: overcommit allowed in every release (total small pages)
    ["2025.1", {}, 1],
  ])("under %s a guest cell with %j fits: %i", (release, extra, fits) => {
    expect(run(release, extra)).toBe(fits);
  });
  it.each([
    ["2024.1", 0],
    ["2024.2", 1],
  ])("under %s a pinned guest cell with 2 MiB pages needs the cell's free memory as well: fits %i", (release, fits) => {
    // 7168 MiB used: the cell has 1024 MiB of free memory, but 2048 MiB of free 2 MiB pages for a 2048 MiB guest
    const r = toResult(
      schedule({
        config: { enabled_filters: ["NUMATopologyFilter"], weighers: ["RAMWeigher"], nova_release: release },
        hosts: [
          {
            name: "h",
            vcpus: 8,
            memory_mb: 8192,
            local_gb: 100,
            numa_topology: { cells: [{ ...cell(0), memory_usage: 7168 }] },
          },
        ],
        request: {
          flavor: {
            name: "huge",
            vcpus: 2,
            memory_mb: 2048,
            extra_specs: { "hw:cpu_policy": "dedicated", "hw:mem_page_size": "2048" },
          },
        },
      }),
    );
    expect(r.requests[0].weighed.length).toBe(fits);
  });
});

describe("2025.1: img_hv_requested_version is read as PEP 440 versions (oslo_utils.versionutils.VersionPredicate)", () => {
  const run = (nova_release: string, predicate: string) =>
    toResult(
      schedule({
        config: { enabled_filters: ["ImagePropertiesFilter"], weighers: ["RAMWeigher"], nova_release },
        hosts: hosts.map((h) => ({ ...h, supported_instances: [["x86_64", "kvm", "hvm"]] })),
        request: {
          flavor: { name: "m1", vcpus: 1, memory_mb: 1024 },
          image: { properties: { hw_architecture: "x86_64", img_hv_requested_version: predicate } },
        },
      }),
    );
  it.each([
    // distutils' StrictVersion needs "major.minor"
    ["2024.2", ">=8", "ValueError", []],
    ["2025.1", ">=8", null, ["new"]],
    ["2025.1", ">6.2.post1", null, ["new"]],
    ["2025.1", ">=6.2,<8.0.0.dev1", null, ["old"]],
    ["2025.1", ">=v8", null, ["new"]],
    ["2025.1", ">=eight", "ValueError", []],
    ["2024.2", ">=6.2, <8.0", null, ["old"]],
  ])("under %s %s: error %s, hosts %j", (release, predicate, error, kept) => {
    const r = run(release, predicate);
    expect(r.error ?? null).toBe(error);
    expect(r.requests.flatMap((q) => q.weighed.map((w) => w.host)).sort()).toEqual(kept);
  });
});

describe("2025.1 ImagePropertiesWeigher and a multi-instance server-group request", () => {
  const group = "55555555-5555-4555-8555-555555555555";
  const run = (policy: ServerGroupPolicy, image_props_weight_multiplier: number, nova_release = "2025.1") =>
    toResult(
      schedule({
        config: {
          enabled_filters: ["ComputeFilter", "ServerGroupAffinityFilter"],
          weighers: ["RAMWeigher", "ImagePropertiesWeigher"],
          nova_release,
          image_props_weight_multiplier,
        },
        hosts,
        server_groups: [{ uuid: group, name: "g", policy, members: [] }],
        request: { flavor: { name: "m1", vcpus: 1, memory_mb: 1024 }, num_instances: 2, server_group: group },
      }),
    ).error;
  it.each<[ServerGroupPolicy, number, string, string | null]>([
    // the second instance weighs the host holding the first one's stub Instance: its image_meta cannot load
    ["soft-affinity", 1, "2025.1", "OrphanedObjectError"],
    ["soft-affinity", 1, "2026.1", "OrphanedObjectError"],
    // the weigher returns before reading instances
    ["soft-affinity", 0, "2025.1", null],
    // one host left for the second instance (the first one's): nothing is weighed
    ["affinity", 1, "2025.1", null],
    // no ImagePropertiesWeigher before 2025.1
    ["soft-affinity", 1, "2024.2", null],
  ])("policy %s, multiplier %d, under %s: error %s", (policy, multiplier, release, error) => {
    expect(run(policy, multiplier, release) ?? null).toBe(error);
  });
});

it.each([
  ["2024.2", 0],
  ["2025.1", 1],
])(
  "Nova 31 _pack_instance_onto_cores: a mixed guest cell with no dedicated vCPU of its own fits under %s: %i",
  (nova_release, fits) => {
    // two guest cells: vCPU 0 shared on one, vCPU 1 dedicated on the other
    const cell = (id: number) => ({ id, cpuset: [id * 2, id * 2 + 1], pcpuset: [id * 2, id * 2 + 1], memory: 4096 });
    const r = toResult(
      schedule({
        config: { enabled_filters: ["NUMATopologyFilter"], weighers: ["RAMWeigher"], nova_release },
        hosts: [{ name: "h", vcpus: 4, memory_mb: 8192, local_gb: 100, numa_topology: { cells: [cell(0), cell(1)] } }],
        request: {
          flavor: {
            name: "mixed",
            vcpus: 2,
            memory_mb: 2048,
            extra_specs: { "hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "^0", "hw:numa_nodes": "2" },
          },
        },
      }),
    );
    expect(r.requests[0].weighed.length).toBe(fits);
  },
);

it("Nova 31 numa_usage_from_instance_numa: the second mixed instance pins another CPU (cpu_pinning or set())", () => {
  const cell = (id: number) => ({ id, cpuset: [id * 2, id * 2 + 1], pcpuset: [id * 2, id * 2 + 1], memory: 4096 });
  const r = toResult(
    schedule({
      config: { enabled_filters: ["NUMATopologyFilter"], weighers: ["RAMWeigher"], nova_release: "2025.1" },
      hosts: [{ name: "h", vcpus: 4, memory_mb: 8192, local_gb: 100, numa_topology: { cells: [cell(0), cell(1)] } }],
      request: {
        num_instances: 2,
        flavor: {
          name: "mixed",
          vcpus: 2,
          memory_mb: 2048,
          extra_specs: { "hw:cpu_policy": "mixed", "hw:cpu_dedicated_mask": "^0", "hw:numa_nodes": "2" },
        },
      },
    }),
  );
  expect(r.selections.map((s) => s.numa?.[1].cpu_pinning)).toEqual([{ "1": 2 }, { "1": 3 }]);
});
