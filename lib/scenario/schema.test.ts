import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NOVA_REFERENCE_DIR } from "@/lib/testing/cloud";
import type { Scenario } from "@/lib/scheduler/scenario";
import {
  checkCloudReferences,
  formatZodError,
  pythonStr,
  ScenarioSchema,
  validateCloud,
  validateScenario,
  type ScenarioDocument,
} from "./schema";

// Compile-time: what the schema accepts is what the engine's types describe.
// (`npm run typecheck` fails here if lib/scheduler/scenario.ts and the schema drift apart.)
const _compatible = (doc: ScenarioDocument): Scenario => doc;
void _compatible;

const EXAMPLES = path.join(NOVA_REFERENCE_DIR, "examples");

const base = () => ({
  hosts: [
    { name: "h1", vcpus: 8, memory_mb: 16384, local_gb: 100, instances: ["i-1", "i-2"] },
    { name: "h2", vcpus: 8, memory_mb: 16384, local_gb: 100 },
  ],
  aggregates: [{ name: "agg", hosts: ["h1"], metadata: { ssd: "true" } }],
  server_groups: [{ uuid: "g-1", name: "grp", policy: "anti-affinity", members: ["i-1"] }],
  request: { flavor: { name: "m1.small", vcpus: 1, memory_mb: 2048 } },
});

type Mutate = (d: ReturnType<typeof base> & Record<string, any>) => void;

describe("validateScenario: shape errors name the path and the rule", () => {
  const cases: [string, Mutate, string][] = [
    [
      "negative memory",
      (d) => ((d.hosts[1] as any).memory_mb = -5),
      "hosts[1].memory_mb: must be a non-negative integer (got -5)",
    ],
    [
      "string vcpus",
      (d) => ((d.hosts[0] as any).vcpus = "8"),
      'hosts[0].vcpus: must be a non-negative integer (got "8")',
    ],
    [
      "fractional usage",
      (d) => ((d.hosts[0] as any).vcpus_used = 1.5),
      "hosts[0].vcpus_used: must be a non-negative integer (got 1.5)",
    ],
    ["missing local_gb", (d) => delete (d.hosts[0] as any).local_gb, "hosts[0].local_gb: is required"],
    ["empty host name", (d) => ((d.hosts[0] as any).name = ""), 'hosts[0].name: must be a non-empty string (got "")'],
    [
      "negative ratio",
      (d) => ((d.hosts[0] as any).cpu_allocation_ratio = -1),
      "hosts[0].cpu_allocation_ratio: must be a non-negative number (got -1)",
    ],
    [
      "bad IP",
      (d) => ((d.hosts[0] as any).host_ip = "10.0.0"),
      'hosts[0].host_ip: must be an IPv4 or IPv6 address (got "10.0.0")',
    ],
    [
      "bad hv spec",
      (d) => ((d.hosts[0] as any).supported_instances = [["x86_64", "kvm"]]),
      "hosts[0].supported_instances[0]: must be [arch, hypervisor_type, vm_mode]",
    ],
    ["bad trait", (d) => ((d.hosts[0] as any).traits = ["hw_gpu"]), "hosts[0].traits[0]: must be a trait name"],
    [
      "service not object",
      (d) => ((d.hosts[0] as any).service = true),
      "hosts[0].service: must be an object (got true)",
    ],
    ["hosts not a list", (d) => ((d as any).hosts = {}), "hosts: must be a list of hosts (got {})"],
    [
      "bad policy",
      (d) => ((d.server_groups[0] as any).policy = "spread"),
      "server_groups[0].policy: must be one of affinity, anti-affinity, soft-affinity, soft-anti-affinity",
    ],
    [
      "bad max_server_per_host",
      (d) => ((d.server_groups[0] as any).rules = { max_server_per_host: 0 }),
      "server_groups[0].rules.max_server_per_host: must be an integer >= 1 (got 0)",
    ],
    [
      "metadata object value",
      (d) => ((d.aggregates[0] as any).metadata = { a: { b: 1 } }),
      "aggregates[0].metadata.a: must be a string",
    ],
    [
      "extra spec key path",
      (d) => ((d.request.flavor as any).extra_specs = { "aggregate_instance_extra_specs:gpu": [] }),
      'request.flavor.extra_specs["aggregate_instance_extra_specs:gpu"]: must be a string',
    ],
    [
      "weighers",
      (d) => ((d as any).config = { weighers: "some" }),
      'config.weighers: must be "all" or a list of weigher class names (got "some")',
    ],
    [
      "max_attempts 0",
      (d) => ((d as any).config = { max_attempts: 0 }),
      "config.max_attempts: must be an integer >= 1 (got 0)",
    ],
    [
      "negative pci multiplier",
      (d) => ((d as any).config = { pci_weight_multiplier: -1 }),
      "config.pci_weight_multiplier: must be a non-negative number (got -1)",
    ],
    [
      "num_instances 0",
      (d) => ((d.request as any).num_instances = 0),
      "request.num_instances: must be an integer >= 1 (got 0)",
    ],
    ["missing request", (d) => delete (d as any).request, "request: is required"],
  ];
  it.each(cases)("%s", (_name, mutate, message) => {
    const d = base() as any;
    mutate(d);
    const r = validateScenario(d);
    expect(r.ok).toBe(false);
    expect(r.errors.some((e) => e.startsWith(message))).toBe(true);
  });

  it("a non-object document", () => {
    expect(validateScenario([]).errors).toEqual(["(document): must be a JSON object (got [])"]);
  });

  it("reports every problem, not just the first", () => {
    const d = base() as any;
    d.hosts[0].vcpus = -1;
    d.hosts[1].memory_mb = "x";
    expect(validateScenario(d).errors).toHaveLength(2);
  });
});

describe("checkCloudReferences: cross references", () => {
  const cases: [string, Mutate, string][] = [
    [
      "duplicate host",
      (d) => (d.hosts[1].name = "h1"),
      'hosts[1].name: duplicate compute node "h1" of host "h1" (also hosts[0]; several nodes of one host need different nodes)',
    ],
    [
      "a child provider whose parent is not one",
      (d) => ((d.hosts[0] as Record<string, unknown>).child_providers = [{ name: "h1_pci_0", parent: "nope" }]),
      'hosts[0].child_providers[0].parent: "nope" is no child provider of this host (null: the compute node)',
    ],
    [
      "a second node named like another host",
      (d) => {
        const hosts = d.hosts as Record<string, unknown>[];
        hosts[1].name = "h1";
        hosts[1].node = "h3";
        hosts.push({ ...hosts[0], name: "h3", node: "h3x", instances: [] });
      },
      'hosts[1].node: "h3" is also the name of hosts[2] (a second node of a host is kept under its node\'s name)',
    ],
    [
      "unknown host in aggregate",
      (d) => d.aggregates[0].hosts.push("nope"),
      'aggregates[0].hosts[1]: unknown host "nope" (not in hosts)',
    ],
    [
      "host twice in aggregate",
      (d) => d.aggregates[0].hosts.push("h1"),
      'aggregates[0].hosts[1]: host "h1" listed twice in this aggregate',
    ],
    [
      "duplicate aggregate",
      (d) => d.aggregates.push({ name: "agg", hosts: [], metadata: {} } as any),
      'aggregates[1].name: duplicate aggregate name "agg" (also aggregates[0])',
    ],
    [
      "member not an instance",
      (d) => d.server_groups[0].members.push("ghost"),
      'server_groups[0].members[1]: "ghost" is not an instance',
    ],
    [
      "instance on two hosts",
      (d) => ((d.hosts[1] as any).instances = ["i-2"]),
      'hosts[1].instances[0]: instance "i-2" is also on hosts[0] (h1)',
    ],
    [
      "instance in two groups",
      (d) => d.server_groups.push({ uuid: "g-2", name: "other", policy: "affinity", members: ["i-1"] }),
      'server_groups[1].members[0]: instance "i-1" is also a member of server_groups[0]',
    ],
    [
      "duplicate metric",
      (d) =>
        ((d.hosts[0] as any).metrics = [
          { name: "cpu.percent", value: 1 },
          { name: "cpu.percent", value: 2 },
        ]),
      'hosts[0].metrics[1].name: duplicate metric "cpu.percent"',
    ],
    [
      "unknown request server group",
      (d) => ((d.request as any).server_group = "nope"),
      'request.server_group: unknown server group "nope"',
    ],
    [
      "duplicate flavor",
      (d) =>
        ((d as any).flavors = [
          { name: "f", vcpus: 1, memory_mb: 1 },
          { name: "f", vcpus: 2, memory_mb: 1 },
        ]),
      'flavors[1].name: duplicate flavor name "f"',
    ],
    [
      "instance with unknown flavor",
      (d) => ((d as any).instances = [{ uuid: "i-1", flavor: "zz" }]),
      'instances[0].flavor: unknown flavor "zz"',
    ],
    [
      "contradicting AZ",
      (d) =>
        d.aggregates.push({
          name: "az",
          availability_zone: "az1",
          hosts: [],
          metadata: { availability_zone: "az2" },
        } as any),
      'aggregates[1].metadata.availability_zone: "az2" contradicts availability_zone "az1"',
    ],
  ];
  it.each(cases)("%s", (_name, mutate, message) => {
    const d = base() as any;
    mutate(d);
    const r = validateScenario(d);
    expect(r.ok).toBe(false);
    expect(
      r.errors.find((e) => e.startsWith(message)),
      r.errors.join("\n"),
    ).toBeTruthy();
  });

  it("accepts a member that is only in the instances list (an instance on no host)", () => {
    const d = base() as any;
    d.server_groups[0].members.push("i-9");
    d.instances = [{ uuid: "i-9", name: "shelved" }];
    expect(validateScenario(d).errors).toEqual([]);
  });

  it("warns (not fails) about unknown keys and names on import", () => {
    const d = base() as any;
    d.hosts[0].memory_mb_usd = 1;
    d.config = { enabled_filters: ["RamFilter"] };
    const r = validateScenario(d, { forImport: true });
    expect(r.ok).toBe(true);
    expect(r.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining("hosts[0]: unknown key(s) memory_mb_usd"),
        expect.stringContaining('config.enabled_filters[0]: "RamFilter" is not a Nova Zed filter'),
      ]),
    );
  });
});

describe("values", () => {
  it("turns metadata and extra spec values into Python's str()", () => {
    const d = base() as any;
    d.aggregates[0].metadata = { a: true, b: 2, c: "x", d: 1.5 };
    const r = validateScenario(d);
    expect(r.ok).toBe(true);
    expect(r.value!.aggregates![0].metadata).toEqual({ a: "True", b: "2", c: "x", d: "1.5" });
    expect(pythonStr(false)).toBe("False");
    expect(pythonStr(null)).toBe("None");
  });

  it("keeps unknown keys (the reference ignores them; extensions pass through)", () => {
    const d = base() as any;
    d.config = { placement_prefilters: ["resources"], some_future_option: 3 };
    const r = validateScenario(d);
    expect(r.value!.config).toEqual({ placement_prefilters: ["resources"], some_future_option: 3 });
  });

  it("formatZodError quotes keys that are not identifiers", () => {
    const r = ScenarioSchema.safeParse({
      hosts: [],
      request: { flavor: { name: "f", vcpus: 1, memory_mb: 1, extra_specs: { "a:b": {} } } },
    });
    expect(r.success).toBe(false);
    expect(formatZodError(r.error!)).toEqual(['request.flavor.extra_specs["a:b"]: must be a string (got {})']);
  });

  it("a cloud document may leave out the request", () => {
    const d = base() as any;
    delete d.request;
    expect(validateCloud(d).ok).toBe(true);
  });
});

describe("the shared examples", () => {
  const files = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith(".scenario.json"));
  it("are there", () => expect(files.length).toBeGreaterThan(0));
  it.each(files)("%s is valid, with no warnings", (f) => {
    const doc = JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), "utf8"));
    const r = validateScenario(doc, { forImport: true });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(checkCloudReferences(r.value!).errors).toEqual([]);
  });
});

describe("speed", () => {
  it("validates a 10,000-host scenario quickly (printed, not asserted)", () => {
    const hosts = Array.from({ length: 10000 }, (_, i) => ({
      name: `cmp-${i}`,
      vcpus: 64,
      vcpus_used: 8,
      memory_mb: 262144,
      memory_mb_used: 8192,
      local_gb: 2000,
      local_gb_used: 100,
      supported_instances: [["x86_64", "kvm", "hvm"]],
      cpu_info: { arch: "x86_64", features: ["avx2"] },
      service: { disabled: false, up: true },
      metrics: [{ name: "cpu.percent", value: 10 }],
      instances: [`i-${i}-a`, `i-${i}-b`],
    }));
    const doc = {
      hosts,
      aggregates: [{ name: "all", hosts: hosts.map((h) => h.name) }],
      request: { flavor: { name: "f", vcpus: 1, memory_mb: 1 } },
    };
    const t0 = performance.now();
    const r = validateScenario(doc);
    const ms = performance.now() - t0;
    console.log(`validateScenario, 10,000 hosts: ${ms.toFixed(0)} ms`);
    expect(r.ok).toBe(true);
  });
});

describe("NUMA topology, PCI pools and Placement keys", () => {
  const cell = (over: Record<string, unknown> = {}) => ({
    id: 0,
    cpuset: [0, 1],
    pcpuset: [2, 3],
    memory: 4096,
    ...over,
  });
  const withCell = (c: Record<string, unknown>) => ({
    hosts: [{ name: "h1", vcpus: 4, memory_mb: 4096, local_gb: 10, numa_topology: { cells: [c] } }],
  });
  it.each([
    ["disjoint shared and dedicated CPUs", cell(), null],
    ["cpuset == pcpuset (neither set configured)", cell({ cpuset: [0, 1], pcpuset: [0, 1], pinned_cpus: [1] }), null],
    [
      "a partial overlap",
      cell({ cpuset: [0, 1, 2] }),
      "hosts[0].numa_topology.cells[0].pcpuset: cpuset and pcpuset overlap on CPUs 2",
    ],
    [
      "pinned shared CPUs",
      cell({ pinned_cpus: [0] }),
      "hosts[0].numa_topology.cells[0].pinned_cpus: pinned CPUs 0 are not in pcpuset",
    ],
    [
      "siblings of unknown CPUs",
      cell({ siblings: [[0, 9]] }),
      "hosts[0].numa_topology.cells[0].siblings[0]: CPUs 9 are not in this cell",
    ],
    [
      "negative used pages",
      cell({ mempages: [{ size_kb: 4, total: 10, used: -1 }] }),
      "hosts[0].numa_topology.cells[0].mempages[0].used: must be a non-negative integer (got -1)",
    ],
  ])("%s", (_name, c, error) => {
    const r = validateCloud(withCell(c));
    if (error === null) expect(r.errors).toEqual([]);
    else
      expect(
        r.errors.find((e) => e.startsWith(error)),
        r.errors.join("\n"),
      ).toBeTruthy();
  });

  it("refuses a CPU in two cells and a pool with a bad vendor id", () => {
    const r = validateCloud({
      hosts: [
        {
          name: "h1",
          vcpus: 4,
          memory_mb: 4096,
          local_gb: 10,
          numa_topology: { cells: [cell(), cell({ id: 1, cpuset: [1], pcpuset: [] })] },
          pci_device_pools: [{ vendor_id: "nvidia", product_id: "20b5", count: 1 }],
        },
      ],
    });
    expect(r.errors).toEqual(
      expect.arrayContaining([
        "hosts[0].numa_topology.cells[1].cpuset: CPU 1 is also in cell 0 (a CPU belongs to one NUMA cell)",
        'hosts[0].pci_device_pools[0].vendor_id: must be 4 hex digits (got "nvidia")',
      ]),
    );
  });

  it("accepts every Zed [scheduler] option and known release; refuses unknown ones only for a stored profile", () => {
    const config = {
      placement: true,
      query_placement_for_availability_zone: false,
      limit_tenants_to_placement_aggregate: true,
      placement_aggregate_required_for_tenants: true,
      query_placement_for_image_type_support: true,
      enable_isolated_aggregate_filtering: true,
      image_metadata_prefilter: true,
      max_placement_results: 1,
      disable_fallback_pcpu_query: true,
      nova_release: "2024.1",
      pci_alias: [{ name: "a100", vendor_id: "10de", product_id: "20b5", numa_policy: "socket" }],
    };
    const hosts = [{ name: "h1", vcpus: 4, memory_mb: 4096, local_gb: 10 }];
    expect(validateCloud({ config, hosts }, { forImport: true }).errors).toEqual([]);
    const typo = { ...config, max_placment_results: 5 };
    expect(validateCloud({ config: typo, hosts }).errors).toEqual([]);
    expect(validateCloud({ config: typo, hosts }, { forImport: true }).errors).toEqual([
      "config.max_placment_results: unknown option (not a [filter_scheduler], [scheduler], [pci], [compute] or [workarounds] option Schedscope knows)",
    ]);
  });
});

describe("a move's request", () => {
  const move = (request: Record<string, unknown>) => ({ ...base(), request });
  const instance = { uuid: "i-1", host: "h1", flavor: { name: "m1", vcpus: 1, memory_mb: 512 } };
  it.each([
    ["a migrate without a flavor", { operation: "migrate", instance }, []],
    ["a move without its instance", { operation: "migrate" }, ["request.instance: is required"]],
    [
      "an unknown operation",
      { operation: "rebuild", instance },
      [expect.stringMatching(/^request.operation: must be one of resize/)],
    ],
    [
      "an instance without a flavor",
      { operation: "evacuate", instance: { uuid: "i-1" } },
      ["request.instance.flavor: is required"],
    ],
  ])("%s", (_what, request, errors) => {
    expect(validateScenario(move(request)).errors).toEqual(errors);
  });
});
