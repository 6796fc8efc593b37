/**
 * Bundles written as the real clients print them (fixtures/): today's
 * python-openstackclient + osc-placement with compute-nodes.json and
 * nova.conf (modern), an old novaclient-era client before microversion 2.88
 * with properties as key='value' text (old-client), and broken ones.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CloudValidationError } from "@/lib/cloud/scenario-io";
import { parseList, parseProperties } from "./client-output";
import { bundleToCloud } from "./convert";
import { type PreparedImport, prepareImport } from "./import";
import { parseBundleFiles, readBundleDir } from "./read-bundle";

type Row = Record<string, unknown>;
const FIXTURES = path.join(__dirname, "fixtures");

function load(name: string): Map<string, Buffer> {
  return readBundleDir(path.join(FIXTURES, name));
}

function host(p: PreparedImport, name: string): Row {
  const h = p.doc.hosts.find((x) => x.name === name);
  if (!h) throw new Error(`no host ${name}`);
  return h;
}

describe("client output forms", () => {
  it.each([
    ["JSON object", { a: "1" }, { a: "1" }],
    ["key='value' text", "a='1', b='x'", { a: "1", b: "x" }],
    [
      "value with a comma",
      "hw:numa_cpus.0='0,1', hw:numa_nodes='2'",
      { "hw:numa_cpus.0": "0,1", "hw:numa_nodes": "2" },
    ],
    ["empty text", "", {}],
    ["null", null, {}],
    ["JSON text", '{"a": "1"}', { a: "1" }],
    ["not a dict", "just words", null],
  ])("properties: %s", (_name, input, expected) => {
    expect(parseProperties(input)).toEqual(expected);
  });

  it.each([
    ["JSON array", ["a", "b"], ["a", "b"]],
    ["comma text", "a, b", ["a", "b"]],
    ["Python repr", "['a', 'b']", ["a", "b"]],
    ["one item", "a", ["a"]],
    ["empty", "", []],
  ])("lists: %s", (_name, input, expected) => {
    expect(parseList(input)).toEqual(expected);
  });
});

describe("modern bundle (OSC 6, microversion 2.88+, compute-nodes.json, nova.conf)", () => {
  const p = prepareImport(load("modern"));

  it("has one host per hypervisor, named by its service host, in the file's order", () => {
    expect(p.doc.hosts.map((h) => [h.name, h.node, h.uuid])).toEqual([
      ["cmp-001", "cmp-001.cloud.example", "0a6e7d53-1c52-4b8f-9d3e-6f1a2b3c4d01"],
      ["cmp-002", "cmp-002.cloud.example", "0a6e7d53-1c52-4b8f-9d3e-6f1a2b3c4d02"],
      ["gpu-001", "gpu-001.cloud.example", "0a6e7d53-1c52-4b8f-9d3e-6f1a2b3c4d03"],
    ]);
  });

  it.each([
    // host, key, value: capacity from Placement; reserved memory/disk counted as used like the resource tracker
    ["cmp-001", "vcpus", 48],
    ["cmp-001", "vcpus_used", 1],
    ["cmp-001", "memory_mb", 196608],
    ["cmp-001", "memory_mb_used", 2048 + 8192],
    ["cmp-001", "reserved_memory_mb", 8192],
    ["cmp-001", "local_gb_used", 20 + 50],
    ["cmp-001", "reserved_disk_gb", 50],
    ["cmp-001", "cpu_allocation_ratio", 4],
    ["cmp-001", "host_ip", "192.168.10.11"],
    ["cmp-001", "traits", ["COMPUTE_IMAGE_TYPE_QCOW2", "HW_CPU_X86_AVX2"]],
    ["cmp-001", "num_instances", 1],
    [
      "cmp-001",
      "metrics",
      [
        { name: "cpu.percent", value: 0.41 },
        { name: "cpu.frequency", value: 2400 },
      ],
    ],
    ["cmp-001", "service", { disabled: false, disabled_reason: null, up: true }],
    ["cmp-001", "instances", ["9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c01"]],
    ["cmp-002", "service", { disabled: true, disabled_reason: "RAM replacement, ticket OPS-4411", up: true }],
    // the scenario derives COMPUTE_STATUS_DISABLED from the service, as nova-compute does
    ["cmp-002", "traits", ["COMPUTE_IMAGE_TYPE_QCOW2", "HW_CPU_X86_AVX2"]],
    ["cmp-002", "cpu_info", undefined],
    ["cmp-002", "num_instances", 1],
    ["gpu-001", "service", { disabled: false, disabled_reason: null, up: false }],
    ["gpu-001", "pcpus", 48],
    ["gpu-001", "pcpus_used", 8],
    [
      "gpu-001",
      "inventories",
      {
        CUSTOM_NVME_SCRATCH: {
          total: 4,
          reserved: 0,
          allocation_ratio: 1,
          min_unit: 1,
          max_unit: 2,
          step_size: 1,
          used: 1,
        },
      },
    ],
    ["gpu-001", "hypervisor_version", 8000000],
    ["gpu-001", "supported_instances", [["x86_64", "kvm", "hvm"]]],
    ["gpu-001", "num_io_ops", 1],
    ["gpu-001", "failed_builds", 2],
    [
      "gpu-001",
      "pci_device_pools",
      [{ vendor_id: "10de", product_id: "20b5", numa_node: 0, count: 3, tags: { dev_type: "type-PCI" } }],
    ],
  ])("%s.%s", (name, key, value) => {
    expect(host(p, name)[key]).toEqual(value);
  });

  it("reads the NUMA topology Nova stores (versioned objects) into the scenario's cells", () => {
    const cells = (host(p, "gpu-001").numa_topology as { cells: Row[] }).cells;
    expect(cells).toHaveLength(2);
    expect(cells[0]).toMatchObject({
      id: 0,
      cpuset: [0, 1, 2, 3, 4, 5, 6, 7],
      memory: 262144,
      memory_usage: 32768,
      pinned_cpus: [8, 9, 10, 11, 12, 13, 14, 15],
      socket: 0,
    });
    expect((cells[0].pcpuset as number[]).length).toBe(16);
    expect(cells[0].mempages).toEqual([
      { size_kb: 4, total: 67108864, used: 8388608, reserved: 0 },
      { size_kb: 1048576, total: 0, used: 0, reserved: 0 },
    ]);
    expect(cells[1].id).toBe(1);
  });

  it("takes aggregates, flavors, images, server groups and instances", () => {
    expect(p.doc.aggregates).toEqual([
      { name: "az1", hosts: ["cmp-001", "cmp-002"], metadata: {}, availability_zone: "az1", uuid: expect.any(String) },
      { name: "az2", hosts: ["gpu-001"], metadata: {}, availability_zone: "az2", uuid: expect.any(String) },
      {
        name: "gpu-a100",
        hosts: ["gpu-001"],
        metadata: { gpu: "true", ram_weight_multiplier: "-1.0" },
        uuid: expect.any(String),
      },
    ]);
    const flavors = p.doc.flavors as Row[];
    expect(flavors.find((f) => f.name === "gpu.large")).toEqual({
      name: "gpu.large",
      id: "c7f0a8f2-2a1d-4b2a-9b6e-4d2c1b0a9f01",
      vcpus: 8,
      memory_mb: 65536,
      root_gb: 100,
      ephemeral_gb: 0,
      swap: 1024,
      is_public: false,
      extra_specs: {
        "aggregate_instance_extra_specs:gpu": "true",
        "hw:cpu_policy": "dedicated",
        "pci_passthrough:alias": "a100:1",
      },
    });
    // Glance's own bookkeeping properties are not the scheduler's
    expect((p.doc.images as Row[])[0].properties).toEqual({
      hw_architecture: "x86_64",
      hw_disk_bus: "virtio",
      os_distro: "ubuntu",
    });
    expect(p.doc.server_groups).toEqual([
      expect.objectContaining({ name: "web", policy: "anti-affinity", rules: { max_server_per_host: 1 } }),
    ]);
    const instances = p.doc.instances as Row[];
    expect(instances).toHaveLength(4);
    // a shelved server is on no host; a deleted flavor is not kept
    expect(instances[3]).toEqual({
      uuid: "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c04",
      name: "old-build",
      image: "5e1f0a22-9a3b-4c4d-8e5f-6a7b8c9d0e01",
    });
    expect(p.counts).toEqual({ hosts: 3, aggregates: 3, flavors: 2, images: 1, serverGroups: 1, instances: 4 });
  });

  it("says what got neutral values", () => {
    expect(p.neutral.join("\n")).toMatch(
      /1 hypervisor\(s\) have no row in compute-nodes.json \(cmp-002.cloud.example\)/,
    );
    expect(p.neutral.join("\n")).toMatch(/1 server\(s\) use a flavor not in flavor-list.json/);
  });

  it("takes the scheduler options of nova.conf and lists the ones it does not use", () => {
    // the list as the fixture writes it, continuation lines and all
    const conf = fs.readFileSync(path.join(FIXTURES, "modern", "nova.conf"), "utf8");
    const confList = (key: string) =>
      new RegExp(`^${key} = (.*(?:\\n[ \\t]+.*)*)`, "m")
        .exec(conf)![1]
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    expect(p.doc.config).toEqual({
      enabled_filters: confList("enabled_filters"),
      weighers: "all",
      ram_weight_multiplier: -1,
      host_subset_size: 2,
      max_attempts: 5,
      query_placement_for_image_type_support: true,
      metrics_weight_setting: "cpu.percent=-1.0, cpu.frequency=0.5",
      metrics_required: false,
      pci_alias: [
        { name: "a100", vendor_id: "10de", product_id: "20b5", device_type: "type-PCI", numa_policy: "preferred" },
        { name: "t4", vendor_id: "10de", product_id: "1eb8" },
      ],
      // a real scheduler asks Placement first
      placement: true,
    });
    expect(p.novaConf?.unknown).toEqual(["[filter_scheduler] use_baremetal_filters"]);
    expect(p.novaConf?.notModelled).toEqual([
      "[filter_scheduler] track_instance_changes",
      "[scheduler] discover_hosts_in_cells_interval",
      "[pci] device_spec",
    ]);
    expect(p.novaConf?.otherSections).toEqual(["DEFAULT", "api_database"]);
    expect(p.warnings).toContain(
      "nova.conf: [filter_scheduler] use_baremetal_filters is not a Nova Zed option of this section (ignored)",
    );
  });
});

describe("old-client bundle (novaclient-era OSC, microversion < 2.88, text properties, no compute-nodes.json)", () => {
  const p = prepareImport(load("old-client"));

  it.each([
    // Placement still wins over the hypervisor API's own figures
    ["node-1", "vcpus", 16],
    ["node-1", "vcpus_used", 8],
    ["node-1", "memory_mb_used", 32768 + 512],
    ["node-1", "cpu_allocation_ratio", 16],
    ["node-1", "ram_allocation_ratio", 1.5],
    // what only the old API had
    ["node-1", "disk_available_least", 830],
    ["node-1", "num_instances", 2],
    ["node-1", "num_io_ops", 1],
    [
      "node-1",
      "cpu_info",
      {
        vendor: "Intel",
        model: "Broadwell",
        arch: "x86_64",
        features: ["pge", "avx2", "aes"],
        topology: { cores: 8, cells: 1, threads: 2, sockets: 1 },
      },
    ],
    ["node-1", "hypervisor_version", 2011001],
    // no DISK_GB inventory in Placement: the hypervisor API's figures
    ["node-2", "local_gb", 5000],
    ["node-2", "local_gb_used", 0],
    ["node-2", "service", { disabled: true, disabled_reason: "AUTO: Connection to libvirt lost: 1", up: false }],
    ["node-2", "traits", ["HW_CPU_X86_AVX2"]],
  ])("%s.%s", (name, key, value) => {
    expect(host(p, name)[key]).toEqual(value);
  });

  it("reads key='value' properties, text lists and `policies`", () => {
    expect(p.doc.aggregates).toEqual([
      {
        name: "ssd",
        availability_zone: "nova",
        hosts: ["node-1"],
        metadata: { ssd: "true", disk_weight_multiplier: "2.0" },
      },
    ]);
    const flavors = p.doc.flavors as Row[];
    expect(flavors[0]).toMatchObject({ name: "m1.medium", swap: 0, extra_specs: {} });
    expect(flavors[1].extra_specs).toEqual({
      "aggregate_instance_extra_specs:ssd": "true",
      "hw:cpu_policy": "dedicated",
      "quota:disk_read_iops_sec": "5000",
    });
    expect((p.doc.images as Row[])[0].properties).toEqual({
      hw_architecture: "x86_64",
      hw_qemu_guest_agent: "yes",
      os_distro: "centos",
    });
    expect(p.doc.server_groups).toEqual([
      {
        uuid: "d1c2b3a4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
        name: "db-cluster",
        policy: "affinity",
        members: ["f0e1d2c3-b4a5-4968-8776-655443322110", "f0e1d2c3-b4a5-4968-8776-655443322111"],
        project_id: "b7e3a8f0c1d24e5f9a6b7c8d9e0f1a2b",
      },
    ]);
    expect((p.doc.instances as Row[]).map((i) => i.flavor)).toEqual(["db.pinned", "db.pinned"]);
  });

  it("says what got neutral values and leaves the profiles alone", () => {
    const text = p.neutral.join("\n");
    expect(text).toMatch(/no compute-nodes.json/);
    expect(text).toMatch(/1 capacity value\(s\) came from the hypervisor API fields before microversion 2.88/);
    expect(text).toMatch(/no nova.conf/);
    expect(p.doc.config).toBeUndefined();
  });
});

function errorsOf(files: Map<string, Buffer>): string[] {
  try {
    prepareImport(files);
  } catch (e) {
    if (e instanceof CloudValidationError) return e.errors;
    throw e;
  }
  return [];
}

function edit(name: string, file: string, change: (v: unknown) => unknown): Map<string, Buffer> {
  const files = load(name);
  files.set(file, Buffer.from(JSON.stringify(change(JSON.parse(files.get(file)!.toString())))));
  return files;
}

describe("what Nova would take as it is: imported with a warning naming it", () => {
  it("a compute without a resource provider is left out, as Nova never considers it", () => {
    const files = edit("modern", "resource-provider-list.json", (v) => (v as Row[]).slice(1));
    const p = prepareImport(files);
    expect(p.warnings).toContainEqual(
      expect.stringMatching(
        /^hypervisor-show.json\[0\]: hypervisor "cmp-001.cloud.example" \(host "cmp-001"\) is missing from Placement \(no resource provider with uuid 0a6e7d53-1c52-4b8f-9d3e-6f1a2b3c4d01 or name "cmp-001.cloud.example" in resource-provider-list.json\): Nova never considers it; left out$/,
      ),
    );
    expect(p.doc.hosts.map((h) => h.name)).not.toContain("cmp-001");
  });

  it("aggregates saved with `aggregate list --long` (no hosts field): imported without hosts, said so", () => {
    const files = edit("modern", "aggregate-show.json", (v) => (v as Row[]).map(({ hosts: _h, ...rest }) => rest));
    const p = prepareImport(files);
    expect(p.warnings).toContainEqual(
      expect.stringMatching(/^aggregate-show.json: \d+ aggregate\(s\) have no hosts field \(.*aggregate list --long/),
    );
    expect(((p.doc.aggregates ?? []) as Row[]).every((a) => ((a.hosts ?? []) as string[]).length === 0)).toBe(true);
  });
});

describe("broken bundles: every problem named, nothing converted", () => {
  it("the broken fixture: a file cut short and an aggregate naming an unknown host, both reported", () => {
    const errors = errorsOf(load("broken"));
    expect(errors).toEqual([
      expect.stringMatching(/^flavor-list.json: is not valid JSON \(/),
      'aggregate-show.json[2].hosts[1]: aggregate "gpu-a100" names unknown host "cmp-999" (no hypervisor in hypervisor-show.json has this service host)',
    ]);
  });

  it.each<[string, () => Map<string, Buffer>, RegExp]>([
    [
      "a required file missing",
      () => {
        const f = load("modern");
        f.delete("server-list.json");
        return f;
      },
      /^server-list.json: is missing from the bundle \(written by: openstack server list --all-projects --long -f json\)$/,
    ],
    [
      "a file that is an object where an array is printed",
      () => edit("modern", "hypervisor-show.json", (v) => (v as Row[])[0]),
      /^hypervisor-show.json: must be a JSON array \(got object\)$/,
    ],
    [
      "an unknown server group policy",
      () => edit("modern", "server-group-show.json", (v) => [{ ...(v as Row[])[0], policy: "spread" }]),
      /^server-group-show.json\[0\].policy: must be one of affinity, anti-affinity, soft-affinity, soft-anti-affinity \(got "spread"\)$/,
    ],
    [
      "a trait name Placement would refuse",
      () =>
        edit("modern", "resource-provider-trait.json", (v) => ({
          ...(v as Row),
          "0a6e7d53-1c52-4b8f-9d3e-6f1a2b3c4d01": [{ name: "custom-gold" }],
        })),
      /^resource-provider-trait.json\["0a6e7d53-1c52-4b8f-9d3e-6f1a2b3c4d01"\]\[0\].name: must be a trait name/,
    ],
    [
      "a negative inventory total",
      () =>
        edit("modern", "resource-provider-inventory.json", (v) => {
          const o = v as Record<string, Row[]>;
          o["0a6e7d53-1c52-4b8f-9d3e-6f1a2b3c4d01"][0].total = -4;
          return o;
        }),
      /resource-provider-inventory.json\["0a6e7d53-1c52-4b8f-9d3e-6f1a2b3c4d01"\]\[0\].total: must be a non-negative integer \(got -4\)/,
    ],
    [
      "compute_nodes stats that are not numbers",
      () =>
        edit("modern", "compute-nodes.json", (v) => {
          const rows = v as Row[];
          rows[0].stats = JSON.stringify({ num_instances: "many" });
          return rows;
        }),
      /^compute-nodes.json\[0\].stats.num_instances: must be a non-negative integer \(got "many"\)$/,
    ],
    [
      "compute_nodes NUMA text that is not JSON",
      () =>
        edit("modern", "compute-nodes.json", (v) => {
          const rows = v as Row[];
          rows[1].numa_topology = "{cells:";
          return rows;
        }),
      /^compute-nodes.json\[1\].numa_topology: must be JSON text/,
    ],
    [
      "a nova.conf boolean Nova would refuse",
      () => {
        const f = load("modern");
        f.set("nova.conf", Buffer.from("[metrics]\nrequired = maybe\n"));
        return f;
      },
      /^\[metrics\] required \(line 2\): must be a boolean: true\/false, yes\/no, on\/off or 1\/0 \(got "maybe"\)$/,
    ],
  ])("%s", (_name, files, message) => {
    const errors = errorsOf(files());
    expect(
      errors.some((e) => message.test(e)),
      errors.join("\n"),
    ).toBe(true);
  });

  it("reports every unreadable file and still checks the rest", () => {
    const files = load("modern");
    files.set("hypervisor-show.json", Buffer.from("<html>502 Bad Gateway</html>"));
    const { bundle, errors } = parseBundleFiles(files);
    expect(errors).toEqual([expect.stringMatching(/^hypervisor-show.json: is not valid JSON/)]);
    // the aggregates then name hosts no hypervisor has
    expect(bundleToCloud(bundle).errors[0]).toMatch(
      /^aggregate-show.json\[0\].hosts\[0\]: aggregate "az1" names unknown host/,
    );
  });
});
