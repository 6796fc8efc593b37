/**
 * Test helper: a scenario -> the bundle scripts/collect-openstack.sh would
 * write for that cloud, each file in the shape today's clients print it
 * (python-openstackclient 6.x at compute microversion 2.88+, osc-placement
 * 4.x, `-f json`), and compute-nodes.json rows as the compute_nodes table
 * stores them. `bundleCarriable` is the scenario reduced to what such a
 * bundle can carry, so the two can be compared through the importer.
 */
import { exportNovaConf } from "@/lib/openstack/nova-conf";
import { stableUuid } from "@/lib/scheduler/nova-uuid";

type Row = Record<string, unknown>;

const UPDATED = "2026-11-23T10:00:00.000000";

function ovo(name: string, version: string, data: Row): Row {
  return {
    "nova_object.name": name,
    "nova_object.namespace": "nova",
    "nova_object.version": version,
    "nova_object.data": data,
  };
}

/** The scenario's numa_topology as NUMATopology._to_json() stores it. */
function numaToNova(topo: { cells: Row[] }): string {
  return JSON.stringify(
    ovo("NUMATopology", "1.2", {
      cells: topo.cells.map((c) => {
        const cpus = [...((c.cpuset ?? []) as number[]), ...((c.pcpuset ?? []) as number[])].sort((a, b) => a - b);
        const data: Row = {
          id: c.id,
          cpuset: c.cpuset ?? [],
          pcpuset: c.pcpuset ?? [],
          memory: c.memory,
          cpu_usage: c.cpu_usage ?? 0,
          memory_usage: c.memory_usage ?? 0,
          pinned_cpus: c.pinned_cpus ?? [],
          siblings: c.siblings ?? cpus.map((x) => [x]),
          mempages: ((c.mempages ?? [{ size_kb: 4, total: (c.memory as number) * 256 }]) as Row[]).map((m) =>
            ovo("NUMAPagesTopology", "1.1", {
              size_kb: m.size_kb,
              total: m.total,
              used: m.used ?? 0,
              reserved: m.reserved ?? 0,
            }),
          ),
          network_metadata: ovo("NetworkMetadata", "1.0", { physnets: [], tunneled: false }),
          socket: c.socket ?? null,
        };
        return ovo("NUMACell", "1.5", data);
      }),
    }),
  );
}

function pciToNova(pools: Row[]): string {
  return JSON.stringify(
    ovo("PciDevicePoolList", "1.1", {
      objects: pools.map((p) =>
        ovo("PciDevicePool", "1.1", {
          product_id: p.product_id,
          vendor_id: p.vendor_id,
          numa_node: p.numa_node ?? null,
          tags: p.tags ?? {},
          count: p.count,
        }),
      ),
    }),
  );
}

/** The scenario as a bundle of OpenStack client output: file name -> its text. */
export function scenarioToBundle(scenario: Row, opts: { novaConf?: boolean } = {}): Map<string, string> {
  const hosts = (scenario.hosts ?? []) as Row[];
  const aggregates = (scenario.aggregates ?? []) as Row[];
  const groups = (scenario.server_groups ?? []) as Row[];
  const request = (scenario.request ?? {}) as Row;
  const flavors = [...((scenario.flavors ?? []) as Row[])];
  const rf = request.flavor as Row | undefined;
  if (rf && !flavors.some((f) => f.name === rf.name)) flavors.push(rf);
  const images = [...((scenario.images ?? []) as Row[])];
  const ri = request.image as Row | undefined;
  if (ri?.id && !images.some((i) => i.id === ri.id)) images.push(ri);

  // several entries of one host (Ironic nodes): the reference names each node's provider by its node
  const shared = new Set(hosts.map((h) => String(h.name)).filter((n, i, all) => all.indexOf(n) !== i));
  const hostUuid = (h: Row) =>
    String(h.uuid ?? stableUuid(shared.has(String(h.name)) ? String(h.node ?? h.name) : String(h.name)));
  const aggUuid = (a: Row) => String(a.uuid ?? stableUuid(`agg-${a.name}`));
  const azOf = (h: Row): string =>
    String(
      aggregates.find((a) => ((a.hosts ?? []) as string[]).includes(String(h.name)) && a.availability_zone)
        ?.availability_zone ?? "nova",
    );

  const services: Row[] = [
    {
      ID: stableUuid("svc-scheduler"),
      Binary: "nova-scheduler",
      Host: "controller-1",
      Zone: "internal",
      Status: "enabled",
      State: "up",
      "Updated At": UPDATED,
      "Disabled Reason": null,
      "Forced Down": false,
    },
  ];
  const hypervisors: Row[] = [];
  const providers: Row[] = [];
  const inventory: Row = {};
  const usage: Row = {};
  const traits: Row = {};
  const rpAggregates: Row = {};
  const nodes: Row[] = [];
  const servers: Row[] = [];

  for (const h of hosts) {
    const name = String(h.name);
    const node = String(h.node ?? h.name);
    const uuid = hostUuid(h);
    const svc = (h.service ?? {}) as Row;
    const disabled = svc.disabled === true;
    const up = svc.up !== false;
    const memberOf = aggregates.filter((a) => ((a.hosts ?? []) as string[]).includes(name));
    if (!services.some((s) => s.Host === name && s.Binary === "nova-compute"))
      services.push({
        ID: stableUuid(`svc-${name}`),
        Binary: "nova-compute",
        Host: name,
        Zone: azOf(h),
        Status: disabled ? "disabled" : "enabled",
        State: up ? "up" : "down",
        "Updated At": UPDATED,
        "Disabled Reason": (svc.disabled_reason as string | undefined) ?? null,
        "Forced Down": svc.forced_down === true,
      });
    hypervisors.push({
      aggregates: memberOf.map((a) => a.name),
      cpu_info: null,
      host_ip: h.host_ip ?? "10.0.0.1",
      hypervisor_hostname: node,
      hypervisor_type: h.hypervisor_type ?? "QEMU",
      hypervisor_version: h.hypervisor_version ?? 6002000,
      id: uuid,
      service_host: name,
      service_id: stableUuid(`svc-${name}`),
      state: up ? "up" : "down",
      status: disabled ? "disabled" : "enabled",
      uptime: "10 days, 2:03",
    });
    providers.push({ uuid, name: node, generation: 7, root_provider_uuid: uuid, parent_provider_uuid: null });
    const inv: Row[] = [];
    const use: Row[] = [];
    const add = (rc: string, total: number, reserved: number, ratio: number, used: number) => {
      if (total <= 0) return;
      inv.push({
        allocation_ratio: ratio,
        min_unit: 1,
        max_unit: total,
        reserved,
        step_size: 1,
        total,
        resource_class: rc,
      });
      use.push({ resource_class: rc, usage: used });
    };
    const n = (k: string, d = 0) => (h[k] as number | undefined) ?? d;
    add("VCPU", n("vcpus"), n("reserved_vcpus"), n("cpu_allocation_ratio", 4.0), n("vcpus_used"));
    add(
      "MEMORY_MB",
      n("memory_mb"),
      n("reserved_memory_mb"),
      n("ram_allocation_ratio", 1.0),
      Math.max(0, n("memory_mb_used") - n("reserved_memory_mb")),
    );
    add(
      "DISK_GB",
      n("local_gb"),
      n("reserved_disk_gb"),
      n("disk_allocation_ratio", 1.0),
      Math.max(0, n("local_gb_used") - n("reserved_disk_gb")),
    );
    add("PCPU", n("pcpus"), 0, 1.0, n("pcpus_used"));
    for (const [rc, rec] of Object.entries((h.inventories ?? {}) as Record<string, Row>)) {
      const total = rec.total as number;
      if (total <= 0) continue;
      inv.push({
        allocation_ratio: rec.allocation_ratio ?? 1.0,
        min_unit: rec.min_unit ?? 1,
        max_unit: rec.max_unit ?? total,
        reserved: rec.reserved ?? 0,
        step_size: rec.step_size ?? 1,
        total,
        resource_class: rc,
      });
      use.push({ resource_class: rc, usage: rec.used ?? 0 });
    }
    inventory[uuid] = inv;
    usage[uuid] = use;
    traits[uuid] = [...((h.traits ?? []) as string[]), ...(disabled ? ["COMPUTE_STATUS_DISABLED"] : [])].map((t) => ({
      name: t,
    }));
    rpAggregates[uuid] = memberOf.map((a) => ({ uuid: aggUuid(a) }));
    // child providers: osc-placement's list with parent and root uuids, then each one's inventory and usage
    const children = (h.child_providers ?? []) as Row[];
    const childUuid = (c: Row) => String(c.uuid ?? stableUuid(`rp-${c.name}`));
    for (const c of children) {
      const cu = childUuid(c);
      const parent = c.parent == null ? uuid : childUuid(children.find((x) => x.name === c.parent)!);
      providers.push({ uuid: cu, name: c.name, generation: 2, root_provider_uuid: uuid, parent_provider_uuid: parent });
      const usages = (c.usages ?? {}) as Record<string, number>;
      inventory[cu] = Object.entries((c.inventories ?? {}) as Record<string, Row>).map(([rc, rec]) => ({
        allocation_ratio: rec.allocation_ratio ?? 1.0,
        min_unit: rec.min_unit ?? 1,
        max_unit: rec.max_unit ?? rec.total,
        reserved: rec.reserved ?? 0,
        step_size: rec.step_size ?? 1,
        total: rec.total,
        resource_class: rc,
      }));
      usage[cu] = Object.entries((c.inventories ?? {}) as Record<string, Row>).map(([rc, rec]) => ({
        resource_class: rc,
        usage: usages[rc] ?? rec.used ?? 0,
      }));
      traits[cu] = ((c.traits ?? []) as string[]).map((t) => ({ name: t }));
      rpAggregates[cu] = [];
    }
    const stats: Row = {
      num_instances: String(h.num_instances ?? 0),
      io_workload: String(h.num_io_ops ?? 0),
      failed_builds: String(h.failed_builds ?? 0),
      num_vm_active: String(h.num_instances ?? 0),
    };
    const row: Row = {
      host: name,
      hypervisor_hostname: node,
      cpu_info: JSON.stringify(h.cpu_info ?? {}),
      supported_instances: JSON.stringify(h.supported_instances ?? []),
      numa_topology: h.numa_topology ? numaToNova(h.numa_topology as { cells: Row[] }) : null,
      pci_stats: pciToNova((h.pci_device_pools ?? []) as Row[]),
      metrics: JSON.stringify(
        ((h.metrics ?? []) as Row[]).map((m) => ({
          name: m.name,
          value: m.value,
          source: "libvirt.LibvirtDriver",
          timestamp: UPDATED,
        })),
      ),
      stats: JSON.stringify(stats),
    };
    if (h.cell !== undefined) row.cell = h.cell;
    nodes.push(row);
    for (const u of (h.instances ?? []) as string[]) servers.push(serverRow(u, name, azOf(h)));
  }
  const placed = new Set(servers.map((s) => s.ID));
  for (const g of groups)
    for (const u of (g.members ?? []) as string[]) if (!placed.has(u)) servers.push(serverRow(u, null, null));

  const files = new Map<string, string>();
  const put = (name: string, v: unknown) => files.set(name, `${JSON.stringify(v, null, 2)}\n`);
  put("compute-service-list.json", services);
  put("hypervisor-show.json", hypervisors);
  put(
    "aggregate-show.json",
    aggregates.map((a, i) => {
      const md = { ...((a.metadata ?? {}) as Row) };
      delete md.availability_zone;
      return {
        availability_zone: a.availability_zone ?? null,
        created_at: UPDATED,
        deleted_at: null,
        hosts: a.hosts ?? [],
        id: i + 1,
        is_deleted: false,
        name: a.name,
        properties: md,
        updated_at: null,
        uuid: aggUuid(a),
      };
    }),
  );
  put(
    "flavor-list.json",
    flavors
      .map((f, i) => ({
        ID: String(f.id ?? stableUuid(`flavor-${f.name}`)),
        Name: f.name,
        RAM: f.memory_mb,
        Disk: f.root_gb ?? 0,
        Ephemeral: f.ephemeral_gb ?? 0,
        VCPUs: f.vcpus,
        "Is Public": f.is_public ?? true,
        Swap: f.swap ?? 0,
        "RX/TX Factor": 1.0,
        Properties: f.extra_specs ?? {},
        _order: i,
      }))
      .map(({ _order, ...f }) => f),
  );
  put(
    "image-show.json",
    images.map((im) => ({
      checksum: null,
      container_format: "bare",
      created_at: UPDATED,
      disk_format: "qcow2",
      file: `/v2/images/${im.id}/file`,
      id: im.id,
      min_disk: 0,
      min_ram: 0,
      name: im.name ?? "image",
      owner: "admin-project",
      properties: { ...((im.properties ?? {}) as Row), os_hidden: false, os_hash_algo: "sha512", os_hash_value: "abc" },
      protected: false,
      schema: "/v2/schemas/image",
      size: 1024,
      status: "active",
      tags: [],
      updated_at: UPDATED,
      visibility: "public",
    })),
  );
  put(
    "server-group-show.json",
    groups.map((g) => ({
      id: g.uuid ?? stableUuid(`sg-${g.name}`),
      members: g.members ?? [],
      name: g.name,
      policy: g.policy,
      project_id: g.project_id ?? "admin-project",
      rules: g.rules ?? {},
      user_id: "admin",
    })),
  );
  put("server-list.json", servers);
  put("resource-provider-list.json", providers);
  put("resource-provider-inventory.json", inventory);
  put("resource-provider-usage.json", usage);
  put("resource-provider-trait.json", traits);
  put("resource-provider-aggregate.json", rpAggregates);
  put("compute-nodes.json", nodes);
  if (opts.novaConf !== false && scenario.config) files.set("nova.conf", exportNovaConf(scenario.config as Row));
  return files;

  function serverRow(uuid: string, host: string | null, az: string | null): Row {
    return {
      ID: uuid,
      Name: `vm-${uuid.slice(0, 8)}`,
      Status: host ? "ACTIVE" : "SHELVED_OFFLOADED",
      "Task State": null,
      "Power State": host ? "Running" : "Shutdown",
      Networks: {},
      "Image Name": "N/A (booted from volume)",
      "Image ID": "",
      Flavor: rf?.name ?? "m1.small",
      "Availability Zone": az ?? "",
      Host: host,
      Properties: {},
    };
  }
}

/**
 * The scenario as a bundle can carry it: free_ram_mb / free_disk_gb /
 * disk_available_least overrides dropped (no API or compute_nodes column of
 * the bundle has them), usage at least the reserved amount (the resource
 * tracker counts reserved memory and disk as used), nothing of a class whose
 * total is 0 (Placement has no such inventory).
 */
export function bundleCarriable(scenario: Row): Row {
  const out = structuredClone(scenario);
  for (const h of (out.hosts ?? []) as Row[]) {
    delete h.free_ram_mb;
    delete h.free_disk_gb;
    delete h.disk_available_least;
    const n = (k: string) => (h[k] as number | undefined) ?? 0;
    if (n("memory_mb_used") < n("reserved_memory_mb")) h.memory_mb_used = n("reserved_memory_mb");
    if (n("local_gb_used") < n("reserved_disk_gb")) h.local_gb_used = n("reserved_disk_gb");
    for (const [total, fields] of [
      ["vcpus", ["vcpus_used", "reserved_vcpus", "cpu_allocation_ratio"]],
      ["memory_mb", ["memory_mb_used", "reserved_memory_mb", "ram_allocation_ratio"]],
      ["local_gb", ["local_gb_used", "reserved_disk_gb", "disk_allocation_ratio"]],
    ] as const) {
      if (n(total) === 0) for (const f of fields) delete h[f];
    }
  }
  return out;
}
