/**
 * An OpenStack bundle (what scripts/collect-openstack.sh writes: one file
 * per client command) -> a cloud document in the scenario format of
 * ../shared/nova-reference/SCENARIO.md, which importCloud then validates and
 * writes. Pure functions, one per bundle file; no I/O.
 *
 * Capacity is taken as Nova's scheduler sees it: Placement inventories and
 * usages (the hypervisor API stopped returning vCPUs and memory at
 * microversion 2.88; the older fields are used where Placement has no
 * inventory). As Nova's resource tracker reports them, memory_mb_used and
 * local_gb_used include the inventory's `reserved`; vcpus_used does not.
 * What no API exposes (CPU info, supported instances, NUMA, PCI pools,
 * metrics, stats) comes from the optional compute-nodes.json; without it
 * those keys are left out (the reference's neutral defaults) and `neutral`
 * says which.
 */
import { readUserJson } from "@/lib/core/input-limits";
import {
  normalizeRow,
  parseBoolLike,
  parseIntLike,
  parseList,
  parseNumberLike,
  parseProperties,
  UUID_RE,
} from "./client-output";
import { HOST_SIZE_FIELDS } from "@/lib/scenario/schema";
import { importNovaConf, type NovaConfImport } from "./nova-conf";
import type { NovaRelease } from "@/lib/scheduler/releases";

/** The bundle's files, the commands that print them, and whether a bundle needs them. */
export const BUNDLE_FILES = [
  { file: "compute-service-list.json", command: "openstack compute service list --long -f json", required: true },
  { file: "hypervisor-show.json", command: "openstack hypervisor show ID -f json (array)", required: true },
  { file: "aggregate-show.json", command: "openstack aggregate show ID -f json (array)", required: true },
  { file: "flavor-list.json", command: "openstack flavor list --all --long -f json", required: true },
  { file: "image-show.json", command: "openstack image show ID -f json (array)", required: true },
  { file: "server-group-show.json", command: "openstack server group show ID -f json (array)", required: true },
  { file: "server-list.json", command: "openstack server list --all-projects --long -f json", required: true },
  { file: "resource-provider-list.json", command: "openstack resource provider list -f json", required: true },
  {
    file: "resource-provider-inventory.json",
    command: "openstack resource provider inventory list UUID -f json (by uuid)",
    required: true,
  },
  {
    file: "resource-provider-usage.json",
    command: "openstack resource provider usage show UUID -f json (by uuid)",
    required: true,
  },
  {
    file: "resource-provider-trait.json",
    command: "openstack resource provider trait list UUID -f json (by uuid)",
    required: true,
  },
  {
    file: "resource-provider-aggregate.json",
    command: "openstack resource provider aggregate list UUID -f json (by uuid)",
    required: true,
  },
  { file: "compute-nodes.json", command: "the compute_nodes rows of each cell database", required: false },
  { file: "nova.conf", command: "the scheduler host's nova.conf", required: false },
] as const;

export type BundleFileName = (typeof BUNDLE_FILES)[number]["file"];

/** A bundle as read: each JSON file parsed, nova.conf as text. */
export interface Bundle {
  json: Partial<Record<BundleFileName, unknown>>;
  novaConf?: string;
  /** Files present but not readable (not JSON): already reported. */
  unreadable?: string[];
}

export interface Conversion {
  /** The cloud document (scenario format); meaningful only without errors. */
  doc: Record<string, unknown> & { hosts: Record<string, unknown>[] };
  errors: string[];
  warnings: string[];
  /** What got neutral values because no file carried it. */
  neutral: string[];
  novaConf?: NovaConfImport;
}

type Row = Record<string, unknown>;

class Issues {
  errors: string[] = [];
  warnings: string[] = [];
  error(where: string, msg: string) {
    this.errors.push(`${where}: ${msg}`);
  }
  warn(where: string, msg: string) {
    this.warnings.push(`${where}: ${msg}`);
  }
}

function shown(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** The file as an array of normalized rows, or an error. */
function rowsOf(file: BundleFileName, v: unknown, is: Issues): Row[] {
  if (!Array.isArray(v)) {
    is.error(file, `must be a JSON array (got ${v === null ? "null" : typeof v})`);
    return [];
  }
  const out: Row[] = [];
  v.forEach((r, i) => {
    if (r === null || typeof r !== "object" || Array.isArray(r)) is.error(`${file}[${i}]`, "must be a JSON object");
    else out.push(normalizeRow(r as Row));
  });
  return out;
}

/** A file keyed by provider uuid: each value an array of normalized rows. */
function byProvider(file: BundleFileName, v: unknown, is: Issues): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    is.error(file, "must be a JSON object keyed by resource provider uuid");
    return out;
  }
  for (const [uuid, rows] of Object.entries(v as Row)) {
    const where = `${file}["${uuid}"]`;
    if (!Array.isArray(rows)) {
      is.error(where, "must be a JSON array (the command's output for this provider)");
      continue;
    }
    out.set(
      uuid,
      rows.filter((r) => r && typeof r === "object").map((r) => normalizeRow(r as Row)),
    );
  }
  return out;
}

function str(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  const s = String(v).trim();
  return s === "" || s === "None" ? undefined : s;
}

function int(where: string, v: unknown, is: Issues, opts: { min?: number } = {}): number | undefined {
  const n = parseIntLike(v);
  if (n === null || (n !== undefined && opts.min !== undefined && n < opts.min)) {
    is.error(where, `must be ${opts.min === 0 ? "a non-negative " : "an "}integer (got ${shown(v)})`);
    return undefined;
  }
  return n;
}

function num(where: string, v: unknown, is: Issues): number | undefined {
  const n = parseNumberLike(v);
  if (n === null) {
    is.error(where, `must be a number (got ${shown(v)})`);
    return undefined;
  }
  return n;
}

/** A JSON text column of compute_nodes (or the value already parsed). */
function jsonColumn(where: string, v: unknown, is: Issues): unknown {
  if (v === null || v === undefined || v === "") return undefined;
  if (typeof v !== "string") return v;
  const read = readUserJson(v, where, { maxBytes: Number.MAX_SAFE_INTEGER });
  if (read.ok) return read.value;
  is.error(
    where,
    read.message.includes("not valid JSON")
      ? `must be JSON text (${read.message.replace(/^.*?\(/, "").replace(/\)$/, "")})`
      : read.message.slice(where.length + 2),
  );
  return undefined;
}

// ---------------------------------------------------------------------------
// compute-service-list.json

export interface ServiceInfo {
  disabled: boolean;
  disabled_reason: string | null;
  up: boolean;
  forced_down?: boolean;
  zone?: string;
}

export function readServices(v: unknown, is: Issues): Map<string, ServiceInfo> {
  const file = "compute-service-list.json";
  const out = new Map<string, ServiceInfo>();
  rowsOf(file, v, is).forEach((r, i) => {
    const where = `${file}[${i}]`;
    if (str(r.binary) !== "nova-compute") return;
    const host = str(r.host);
    if (!host) {
      is.error(`${where}.Host`, "is required");
      return;
    }
    const status = str(r.status)?.toLowerCase();
    const state = str(r.state)?.toLowerCase();
    if (status !== "enabled" && status !== "disabled") {
      is.error(`${where}.Status`, `must be "enabled" or "disabled" (got ${shown(r.status)})`);
      return;
    }
    if (state !== "up" && state !== "down") {
      is.error(`${where}.State`, `must be "up" or "down" (got ${shown(r.state)})`);
      return;
    }
    const forced = parseBoolLike(r.forced_down);
    const info: ServiceInfo = {
      disabled: status === "disabled",
      disabled_reason: str(r.disabled_reason) ?? null,
      up: state === "up",
    };
    if (forced) info.forced_down = true;
    const zone = str(r.zone);
    if (zone) info.zone = zone;
    if (out.has(host)) is.warn(where, `second nova-compute service on host "${host}" (the first is kept)`);
    else out.set(host, info);
  });
  return out;
}

// ---------------------------------------------------------------------------
// hypervisor-show.json

export interface HypervisorInfo {
  index: number;
  id?: string;
  host: string;
  node: string;
  hypervisor_type?: string;
  hypervisor_version?: number;
  host_ip?: string;
  cpu_info?: Record<string, unknown>;
  status?: string;
  state?: string;
  /** Fields the API returned before microversion 2.88. */
  legacy: {
    vcpus?: number;
    vcpus_used?: number;
    memory_mb?: number;
    memory_mb_used?: number;
    local_gb?: number;
    local_gb_used?: number;
    disk_available_least?: number;
    running_vms?: number;
    current_workload?: number;
  };
}

export function readHypervisors(v: unknown, is: Issues): HypervisorInfo[] {
  const file = "hypervisor-show.json";
  const out: HypervisorInfo[] = [];
  rowsOf(file, v, is).forEach((r, i) => {
    const where = `${file}[${i}]`;
    const node = str(r.hypervisor_hostname) ?? str(r.name);
    if (!node) {
      is.error(`${where}.hypervisor_hostname`, "is required");
      return;
    }
    // service_host (flattened by the client) or service.host (older clients print the dict)
    const service = r.service && typeof r.service === "object" ? normalizeRow(r.service as Row) : {};
    const host = str(r.service_host) ?? str(service.host);
    if (!host) {
      is.error(`${where}.service_host`, `is required (hypervisor "${node}")`);
      return;
    }
    let cpuInfo: Record<string, unknown> | undefined;
    const rawCpu = r.cpu_info;
    if (rawCpu && typeof rawCpu === "object" && !Array.isArray(rawCpu)) cpuInfo = rawCpu as Row;
    else if (typeof rawCpu === "string" && rawCpu.trim().startsWith("{")) {
      const p = jsonColumn(`${where}.cpu_info`, rawCpu, is);
      if (p && typeof p === "object") cpuInfo = p as Row;
    }
    const h: HypervisorInfo = {
      index: i,
      id: str(r.id),
      host,
      node,
      hypervisor_type: str(r.hypervisor_type),
      hypervisor_version: int(`${where}.hypervisor_version`, r.hypervisor_version, is, { min: 0 }),
      host_ip: str(r.host_ip),
      cpu_info: cpuInfo,
      status: str(r.status),
      state: str(r.state),
      legacy: {},
    };
    for (const k of [...HOST_SIZE_FIELDS, "running_vms", "current_workload"] as const) {
      if (r[k] !== undefined) h.legacy[k] = int(`${where}.${k}`, r[k], is, { min: 0 });
    }
    if (r.disk_available_least !== undefined)
      h.legacy.disk_available_least = int(`${where}.disk_available_least`, r.disk_available_least, is);
    out.push(h);
  });
  return out;
}

// ---------------------------------------------------------------------------
// resource-provider-*.json

export interface InventoryRecord {
  total: number;
  reserved: number;
  allocation_ratio: number;
  min_unit: number;
  max_unit: number;
  step_size: number;
}

export interface ProviderInfo {
  uuid: string;
  name: string;
  /** parent_provider_uuid / root_provider_uuid (osc-placement at microversion 1.14+; absent before) */
  parent?: string;
  root?: string;
  inventories: Map<string, InventoryRecord>;
  usages: Map<string, number>;
  traits: string[];
}

export function readProviders(
  list: unknown,
  inventory: unknown,
  usage: unknown,
  trait: unknown,
  aggregate: unknown,
  is: Issues,
): Map<string, ProviderInfo> {
  const out = new Map<string, ProviderInfo>();
  rowsOf("resource-provider-list.json", list, is).forEach((r, i) => {
    const where = `resource-provider-list.json[${i}]`;
    const uuid = str(r.uuid);
    const name = str(r.name);
    if (!uuid) {
      is.error(`${where}.uuid`, "is required");
      return;
    }
    if (!name) {
      is.error(`${where}.name`, "is required");
      return;
    }
    const p: ProviderInfo = { uuid, name, inventories: new Map(), usages: new Map(), traits: [] };
    const parent = str(r.parent_provider_uuid);
    const root = str(r.root_provider_uuid);
    if (parent) p.parent = parent;
    if (root) p.root = root;
    out.set(uuid, p);
  });
  const unknownProvider = (file: string, uuid: string) =>
    is.warn(`${file}["${uuid}"]`, "is not in resource-provider-list.json (ignored)");

  for (const [uuid, rows] of byProvider("resource-provider-inventory.json", inventory, is)) {
    const p = out.get(uuid);
    if (!p) {
      unknownProvider("resource-provider-inventory.json", uuid);
      continue;
    }
    rows.forEach((r, i) => {
      const where = `resource-provider-inventory.json["${uuid}"][${i}]`;
      const rc = str(r.resource_class);
      if (!rc) {
        is.error(`${where}.resource_class`, "is required");
        return;
      }
      const total = int(`${where}.total`, r.total, is, { min: 0 });
      if (total === undefined) {
        is.error(`${where}.total`, "is required");
        return;
      }
      const rec: InventoryRecord = {
        total,
        reserved: int(`${where}.reserved`, r.reserved, is, { min: 0 }) ?? 0,
        allocation_ratio: num(`${where}.allocation_ratio`, r.allocation_ratio, is) ?? 1.0,
        min_unit: int(`${where}.min_unit`, r.min_unit, is, { min: 1 }) ?? 1,
        max_unit: int(`${where}.max_unit`, r.max_unit, is, { min: 1 }) ?? total,
        step_size: int(`${where}.step_size`, r.step_size, is, { min: 1 }) ?? 1,
      };
      p.inventories.set(rc, rec);
    });
  }
  for (const [uuid, rows] of byProvider("resource-provider-usage.json", usage, is)) {
    const p = out.get(uuid);
    if (!p) {
      unknownProvider("resource-provider-usage.json", uuid);
      continue;
    }
    rows.forEach((r, i) => {
      const where = `resource-provider-usage.json["${uuid}"][${i}]`;
      const rc = str(r.resource_class);
      if (!rc) {
        is.error(`${where}.resource_class`, "is required");
        return;
      }
      const u = int(`${where}.usage`, r.usage, is, { min: 0 });
      if (u !== undefined) p.usages.set(rc, u);
    });
  }
  for (const [uuid, rows] of byProvider("resource-provider-trait.json", trait, is)) {
    const p = out.get(uuid);
    if (!p) {
      unknownProvider("resource-provider-trait.json", uuid);
      continue;
    }
    rows.forEach((r, i) => {
      const name = str(r.name);
      if (!name || !/^[A-Z0-9_]{1,255}$/.test(name)) {
        is.error(
          `resource-provider-trait.json["${uuid}"][${i}].name`,
          `must be a trait name (A-Z, 0-9, _) (got ${shown(r.name)})`,
        );
        return;
      }
      p.traits.push(name);
    });
  }
  // Placement aggregates mirror Nova's host aggregates; the scenario carries Nova's.
  byProvider("resource-provider-aggregate.json", aggregate, is);
  return out;
}

// ---------------------------------------------------------------------------
// compute-nodes.json

export interface ComputeNodeExtras {
  cpu_info?: Record<string, unknown>;
  supported_instances?: [string, string, string][];
  numa_topology?: { cells: Record<string, unknown>[] };
  pci_device_pools?: Record<string, unknown>[];
  metrics?: { name: string; value: number }[];
  num_instances?: number;
  num_io_ops?: number;
  failed_builds?: number;
  cell?: string;
}

/** The data of a Nova versioned object ({"nova_object.data": {...}}), or the value itself. */
function ovoData(v: unknown): Row | undefined {
  if (!v || typeof v !== "object") return undefined;
  const o = v as Row;
  if ("nova_object.data" in o) return (o["nova_object.data"] ?? undefined) as Row | undefined;
  return o;
}

/** compute_nodes.numa_topology (NUMATopology._to_json()) -> the scenario's numa_topology. */
export function numaFromNova(where: string, v: unknown, is: Issues): ComputeNodeExtras["numa_topology"] {
  const topo = ovoData(v);
  const cells = topo?.cells;
  if (!Array.isArray(cells)) {
    is.error(where, "must be a NUMATopology object with cells");
    return undefined;
  }
  return {
    cells: cells.map((c) => {
      const d = ovoData(c) ?? {};
      const cell: Row = {
        id: d.id,
        cpuset: d.cpuset ?? [],
        // NUMACell < 1.5 had no pcpuset: libvirt reported every CPU as both
        pcpuset: d.pcpuset ?? d.cpuset ?? [],
        memory: d.memory,
        cpu_usage: d.cpu_usage ?? 0,
        memory_usage: d.memory_usage ?? 0,
        pinned_cpus: d.pinned_cpus ?? [],
      };
      if (Array.isArray(d.siblings)) cell.siblings = d.siblings;
      if (Array.isArray(d.mempages)) {
        cell.mempages = d.mempages.map((m) => {
          const p = ovoData(m) ?? {};
          return { size_kb: p.size_kb, total: p.total, used: p.used ?? 0, reserved: p.reserved ?? 0 };
        });
      }
      if (d.socket !== undefined) cell.socket = d.socket;
      return cell;
    }),
  };
}

/** compute_nodes.pci_stats (PciDevicePoolList) -> the scenario's pci_device_pools. */
export function pciPoolsFromNova(where: string, v: unknown, is: Issues): Row[] | undefined {
  const list = ovoData(v);
  const objects = Array.isArray(v) ? v : list?.objects;
  if (!Array.isArray(objects)) {
    is.error(where, "must be a PciDevicePoolList object");
    return undefined;
  }
  return objects.map((o) => {
    const d = ovoData(o) ?? {};
    return {
      vendor_id: d.vendor_id,
      product_id: d.product_id,
      numa_node: d.numa_node ?? null,
      count: d.count,
      tags: d.tags ?? {},
    };
  });
}

export function readComputeNodes(v: unknown, is: Issues): Map<string, ComputeNodeExtras> {
  const file = "compute-nodes.json";
  const out = new Map<string, ComputeNodeExtras>();
  rowsOf(file, v, is).forEach((r, i) => {
    const where = `${file}[${i}]`;
    const node = str(r.hypervisor_hostname);
    if (!node) {
      is.error(`${where}.hypervisor_hostname`, "is required");
      return;
    }
    const x: ComputeNodeExtras = {};
    const cpu = jsonColumn(`${where}.cpu_info`, r.cpu_info, is);
    if (cpu !== undefined) {
      if (cpu && typeof cpu === "object" && !Array.isArray(cpu)) x.cpu_info = cpu as Row;
      else is.error(`${where}.cpu_info`, "must be a JSON object");
    }
    const si = jsonColumn(`${where}.supported_instances`, r.supported_instances, is);
    if (si !== undefined) {
      if (Array.isArray(si) && si.every((e) => Array.isArray(e) && e.length === 3))
        x.supported_instances = si.map((e) => e.map(String) as [string, string, string]);
      else is.error(`${where}.supported_instances`, "must be a JSON list of [arch, hypervisor_type, vm_mode]");
    }
    const numa = jsonColumn(`${where}.numa_topology`, r.numa_topology, is);
    if (numa !== undefined && numa !== null) x.numa_topology = numaFromNova(`${where}.numa_topology`, numa, is);
    const pci = jsonColumn(`${where}.pci_stats`, r.pci_stats, is);
    if (pci !== undefined && pci !== null) {
      const pools = pciPoolsFromNova(`${where}.pci_stats`, pci, is);
      if (pools?.length) x.pci_device_pools = pools;
    }
    const metrics = jsonColumn(`${where}.metrics`, r.metrics, is);
    if (metrics !== undefined) {
      if (!Array.isArray(metrics)) is.error(`${where}.metrics`, "must be a JSON list of {name, value}");
      else
        x.metrics = metrics.flatMap((m, j) => {
          const name = str((m as Row)?.name);
          const value = parseNumberLike((m as Row)?.value);
          if (!name || value === undefined || value === null) {
            is.error(`${where}.metrics[${j}]`, `must be {name, value} with a numeric value (got ${shown(m)})`);
            return [];
          }
          return [{ name, value }];
        });
    }
    const stats = jsonColumn(`${where}.stats`, r.stats, is);
    if (stats !== undefined) {
      if (!stats || typeof stats !== "object" || Array.isArray(stats))
        is.error(`${where}.stats`, "must be a JSON object");
      else {
        const s = stats as Row;
        // nova-compute's stats are strings: {"num_instances": "3", "io_workload": "1", ...}
        x.num_instances = int(`${where}.stats.num_instances`, s.num_instances, is, { min: 0 });
        x.num_io_ops = int(`${where}.stats.io_workload`, s.io_workload, is, { min: 0 });
        x.failed_builds = int(`${where}.stats.failed_builds`, s.failed_builds, is, { min: 0 });
      }
    }
    const cell = str(r.cell);
    if (cell) x.cell = cell;
    out.set(node, x);
  });
  return out;
}

// ---------------------------------------------------------------------------
// aggregate-show.json

export function readAggregates(v: unknown, hosts: Set<string>, is: Issues, leftOut: Set<string> = new Set()): Row[] {
  const file = "aggregate-show.json";
  const noHosts: string[] = [];
  const out = rowsOf(file, v, is).flatMap((r, i) => {
    const where = `${file}[${i}]`;
    const name = str(r.name);
    if (!name) {
      is.error(`${where}.name`, "is required");
      return [];
    }
    const props = parseProperties(r.properties ?? r.metadata);
    if (props === null) {
      is.error(`${where}.properties`, `must be a dict or key='value' text (got ${shown(r.properties)})`);
      return [];
    }
    // `aggregate list --long` has no hosts column: the aggregate comes in, its hosts cannot
    if (!("hosts" in r)) noHosts.push(name);
    const given = parseList(r.hosts);
    if (given === null) {
      is.error(`${where}.hosts`, `must be a list of host names (got ${shown(r.hosts)})`);
      return [];
    }
    const list = given.filter((h, j) => {
      if (!leftOut.has(h)) return true;
      is.warn(`${where}.hosts[${j}]`, `aggregate "${name}": host "${h}" is left out (it has no resource provider)`);
      return false;
    });
    list.forEach((h, j) => {
      if (!hosts.has(h))
        is.error(
          `${where}.hosts[${j}]`,
          `aggregate "${name}" names unknown host "${h}" (no hypervisor in hypervisor-show.json has this service host)`,
        );
    });
    const metadata: Record<string, string> = {};
    for (const [k, val] of Object.entries(props)) if (k !== "availability_zone") metadata[k] = String(val);
    const az = str(r.availability_zone) ?? str(props.availability_zone);
    const agg: Row = { name, hosts: list, metadata };
    if (az) agg.availability_zone = az;
    const uuid = str(r.uuid);
    if (uuid) agg.uuid = uuid;
    return [agg];
  });
  if (noHosts.length)
    is.warn(
      file,
      `${noHosts.length} aggregate(s) have no hosts field (${noHosts.slice(0, 5).join(", ")}${noHosts.length > 5 ? ", ..." : ""}): is this "openstack aggregate list --long" instead of "aggregate show" for each? Imported with no hosts`,
    );
  return out;
}

// ---------------------------------------------------------------------------
// flavor-list.json

export function readFlavors(v: unknown, is: Issues): Row[] {
  const file = "flavor-list.json";
  return rowsOf(file, v, is).flatMap((r, i) => {
    const where = `${file}[${i}]`;
    const name = str(r.name);
    if (!name) {
      is.error(`${where}.Name`, "is required");
      return [];
    }
    // flavor list --long prints the extra specs as "Properties"; some versions say "Extra Specs"
    const specs = parseProperties(r.properties ?? r.extra_specs);
    if (specs === null) {
      is.error(`${where}.Properties`, `must be a dict or key='value' text (got ${shown(r.properties)})`);
      return [];
    }
    const f: Row = {
      name,
      vcpus: int(`${where}.VCPUs`, r.vcpus, is, { min: 0 }) ?? 0,
      memory_mb: int(`${where}.RAM`, r.ram, is, { min: 0 }) ?? 0,
      root_gb: int(`${where}.Disk`, r.disk, is, { min: 0 }) ?? 0,
      ephemeral_gb: int(`${where}.Ephemeral`, r.ephemeral, is, { min: 0 }) ?? 0,
      // swap is "" for none before microversion 2.75
      swap: int(`${where}.Swap`, r.swap, is, { min: 0 }) ?? 0,
      extra_specs: Object.fromEntries(Object.entries(specs).map(([k, val]) => [k, String(val)])),
    };
    const id = str(r.id);
    if (id) f.id = id;
    const pub = parseBoolLike(r.is_public);
    if (pub !== undefined && pub !== null) f.is_public = pub;
    const desc = str(r.description);
    if (desc) f.description = desc;
    return [f];
  });
}

// ---------------------------------------------------------------------------
// image-show.json

/** Glance's own bookkeeping properties: not read by the scheduler. */
const GLANCE_OWN = new Set([
  "os_hash_algo",
  "os_hash_value",
  "os_hidden",
  "stores",
  "direct_url",
  "locations",
  "self",
  "file",
  "schema",
]);
/**
 * Columns of `image show` that are attributes, not properties (older clients
 * printed properties beside them); the sync sorts Glance's answer by it too.
 */
export const IMAGE_COLUMNS: ReadonlySet<string> = new Set([
  "checksum",
  "container_format",
  "created_at",
  "disk_format",
  "file",
  "id",
  "min_disk",
  "min_ram",
  "name",
  "owner",
  "properties",
  "protected",
  "schema",
  "size",
  "status",
  "tags",
  "updated_at",
  "virtual_size",
  "visibility",
]);

export function readImages(v: unknown, is: Issues): Row[] {
  const file = "image-show.json";
  const raw = Array.isArray(v) ? v : [];
  return rowsOf(file, v, is).flatMap((r, i) => {
    const where = `${file}[${i}]`;
    const id = str(r.id);
    if (!id) {
      is.error(`${where}.id`, "is required");
      return [];
    }
    const props = parseProperties(r.properties);
    if (props === null) {
      is.error(`${where}.properties`, `must be a dict or key='value' text (got ${shown(r.properties)})`);
      return [];
    }
    // older clients print extra properties as top-level columns
    const original = raw[i] as Row;
    for (const [k, val] of Object.entries(original ?? {})) {
      if (!IMAGE_COLUMNS.has(k) && !(k in props) && /^[a-z][a-z0-9_:.]*$/.test(k)) props[k] = val;
    }
    const properties: Record<string, string | number | boolean> = {};
    const bookkeeping: string[] = [];
    for (const [k, val] of Object.entries(props)) {
      if (GLANCE_OWN.has(k) || k.startsWith("owner_specified.") || k.startsWith("os_glance")) {
        bookkeeping.push(k);
        continue;
      }
      if (typeof val === "string" || typeof val === "number" || typeof val === "boolean") properties[k] = val;
      else if (val !== null) is.warn(`${where}.properties.${k}`, "is not a string, number or boolean (ignored)");
    }
    if (bookkeeping.length)
      is.warn(
        `${where}.properties`,
        `${bookkeeping.join(", ")}: Glance's own bookkeeping, not read by the scheduler (left out)`,
      );
    const im: Row = { id, properties };
    const name = str(r.name);
    if (name) im.name = name;
    return [im];
  });
}

// ---------------------------------------------------------------------------
// server-group-show.json

const POLICIES = new Set(["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"]);

export function readServerGroups(v: unknown, is: Issues): Row[] {
  const file = "server-group-show.json";
  return rowsOf(file, v, is).flatMap((r, i) => {
    const where = `${file}[${i}]`;
    const uuid = str(r.id) ?? str(r.uuid);
    const name = str(r.name);
    if (!uuid) {
      is.error(`${where}.id`, "is required");
      return [];
    }
    if (!name) {
      is.error(`${where}.name`, "is required");
      return [];
    }
    // "policy" since microversion 2.64; "policies" (a list, or text) before
    const policies = r.policy !== undefined ? parseList(r.policy) : parseList(r.policies);
    const policy = policies?.[0];
    if (!policy || !POLICIES.has(policy)) {
      is.error(
        `${where}.policy`,
        `must be one of affinity, anti-affinity, soft-affinity, soft-anti-affinity (got ${shown(r.policy ?? r.policies)})`,
      );
      return [];
    }
    const members = parseList(r.members);
    if (members === null) {
      is.error(`${where}.members`, `must be a list of instance uuids (got ${shown(r.members)})`);
      return [];
    }
    const rulesRaw = parseProperties(r.rules);
    if (rulesRaw === null) {
      is.error(`${where}.rules`, `must be a dict or key='value' text (got ${shown(r.rules)})`);
      return [];
    }
    const rules: Record<string, string | number> = {};
    for (const [k, val] of Object.entries(rulesRaw)) {
      rules[k] = typeof val === "number" ? val : /^\d+$/.test(String(val)) ? Number(val) : String(val);
    }
    const g: Row = { uuid, name, policy, members };
    if (Object.keys(rules).length) g.rules = rules;
    const project = str(r.project_id);
    if (project) g.project_id = project;
    return [g];
  });
}

// ---------------------------------------------------------------------------
// server-list.json

export interface ServerInfo {
  uuid: string;
  name?: string;
  host?: string;
  flavor?: string;
  image?: string;
  project_id?: string;
  /** the compute node (OS-EXT-SRV-ATTR:hypervisor_hostname), where the source gives it */
  node?: string;
  /** the AZ Nova reports (OS-EXT-AZ:availability_zone / "Availability Zone") */
  availability_zone?: string;
  /** creation time (the API's `created`), where the source gives it */
  created?: string;
}

export function readServers(v: unknown, is: Issues): ServerInfo[] {
  const file = "server-list.json";
  return rowsOf(file, v, is).flatMap((r, i) => {
    const where = `${file}[${i}]`;
    const uuid = str(r.id);
    if (!uuid) {
      is.error(`${where}.ID`, "is required");
      return [];
    }
    const s: ServerInfo = { uuid };
    const name = str(r.name);
    if (name) s.name = name;
    const host = str(r.host);
    if (host) s.host = host;
    // "Flavor Name" before microversion 2.47 / older clients, "Flavor" after
    const flavor = str(r.flavor_name) ?? str(r.flavor);
    if (flavor) s.flavor = flavor;
    const image = str(r.image_id);
    if (image && UUID_RE.test(image)) s.image = image;
    const project = str(r.project_id) ?? str(r.tenant_id);
    if (project) s.project_id = project;
    const node = str(r.hypervisor_hostname);
    if (node) s.node = node;
    const az = str(r.availability_zone);
    if (az) s.availability_zone = az;
    const created = str(r.created) ?? str(r.created_at);
    if (created && !Number.isNaN(Date.parse(created))) s.created = created;
    return [s];
  });
}

// ---------------------------------------------------------------------------
// The whole bundle

const STANDARD_CLASSES = new Set(["VCPU", "MEMORY_MB", "DISK_GB", "PCPU"]);

/** A node with something in use (an Ironic node holds its one instance's whole inventory). */
function busyNode(host: Row): boolean {
  const inv = (host.inventories ?? {}) as Record<string, { used?: number }>;
  return (
    Number(host.vcpus_used ?? 0) > 0 ||
    Number(host.pcpus_used ?? 0) > 0 ||
    Object.values(inv).some((i) => (i.used ?? 0) > 0)
  );
}

/**
 * The providers of a compute node's tree below it (parent/root uuids of
 * `resource provider list`, microversion 1.14+), parents before children,
 * as the scenario's child_providers.
 */
function childProvidersOf(root: ProviderInfo, providers: Map<string, ProviderInfo>): Row[] {
  const byParent = new Map<string, ProviderInfo[]>();
  for (const p of providers.values()) {
    if (!p.parent || p.uuid === root.uuid) continue;
    byParent.set(p.parent, [...(byParent.get(p.parent) ?? []), p]);
  }
  const out: Row[] = [];
  const visit = (parent: ProviderInfo) => {
    for (const c of byParent.get(parent.uuid) ?? []) {
      const child: Row = { name: c.name, parent: parent.uuid === root.uuid ? null : parent.name, uuid: c.uuid };
      if (c.inventories.size) child.inventories = Object.fromEntries(c.inventories);
      const usages = Object.fromEntries([...c.usages].filter(([, n]) => n > 0));
      if (Object.keys(usages).length) child.usages = usages;
      if (c.traits.length) child.traits = c.traits;
      out.push(child);
      visit(c);
    }
  };
  visit(root);
  return out;
}

/** The bundle -> a cloud document, with every problem found (nothing is written here). */
export function bundleToCloud(bundle: Bundle, opts: { release?: NovaRelease } = {}): Conversion {
  const is = new Issues();
  const neutral: string[] = [];
  const unreadable = new Set(bundle.unreadable ?? []);
  for (const f of BUNDLE_FILES) {
    if (f.file === "nova.conf" || !f.required || bundle.json[f.file] !== undefined || unreadable.has(f.file)) continue;
    is.error(f.file, `is missing from the bundle (written by: ${f.command})`);
  }
  // A missing or unreadable file is reported once; the rest is still checked, as if it were empty.
  const json = (f: BundleFileName, empty: unknown) =>
    bundle.json[f] === undefined && (unreadable.has(f) || BUNDLE_FILES.some((b) => b.file === f && b.required))
      ? empty
      : bundle.json[f];
  const list = (f: BundleFileName) => json(f, []);
  const keyed = (f: BundleFileName) => json(f, {});

  const services = readServices(list("compute-service-list.json"), is);
  const hypervisors = readHypervisors(list("hypervisor-show.json"), is);
  const providers = readProviders(
    list("resource-provider-list.json"),
    keyed("resource-provider-inventory.json"),
    keyed("resource-provider-usage.json"),
    keyed("resource-provider-trait.json"),
    keyed("resource-provider-aggregate.json"),
    is,
  );
  const providerByName = new Map([...providers.values()].map((p) => [p.name, p]));
  const hasNodes = bundle.json["compute-nodes.json"] !== undefined || unreadable.has("compute-nodes.json");
  const nodes = hasNodes ? readComputeNodes(json("compute-nodes.json", []), is) : new Map();
  const servers = readServers(list("server-list.json"), is);

  // hosts: one per hypervisor (compute node); the scenario's host is its service host
  const hostNames = new Set<string>();
  const serversOnHost = new Map<Row, string[]>();
  const hosts: Row[] = [];
  const usedNodes = new Set<string>();
  /** service host -> its compute nodes' entries (several for Ironic), in hypervisor order */
  const entriesOfHost = new Map<string, Row[]>();
  const leftOut = new Set<string>();
  const rootsTaken = new Set<string>();
  let legacyCapacity = 0;
  for (const h of hypervisors) {
    const where = `hypervisor-show.json[${h.index}]`;
    const p = (h.id && providers.get(h.id)) || providerByName.get(h.node);
    if (!p) {
      // Nova only ever considers compute nodes Placement returns
      is.warn(
        where,
        `hypervisor "${h.node}" (host "${h.host}") is missing from Placement (no resource provider with uuid ${h.id ?? "?"} or name "${h.node}" in resource-provider-list.json): Nova never considers it; left out`,
      );
      if (!entriesOfHost.has(h.host)) leftOut.add(h.host);
      continue;
    }
    leftOut.delete(h.host);
    const name = h.host;
    hostNames.add(name);
    usedNodes.add(h.node);
    rootsTaken.add(p.uuid);
    const host: Row = { name, node: h.node, uuid: p.uuid };
    const inv = (rc: string) => p.inventories.get(rc);
    const use = (rc: string) => p.usages.get(rc) ?? 0;
    const vcpu = inv("VCPU");
    const mem = inv("MEMORY_MB");
    const disk = inv("DISK_GB");
    const pcpu = inv("PCPU");
    const legacy = h.legacy;
    if (vcpu) {
      host.vcpus = vcpu.total;
      host.vcpus_used = use("VCPU");
      host.cpu_allocation_ratio = vcpu.allocation_ratio;
      host.reserved_vcpus = vcpu.reserved;
    } else if (legacy.vcpus !== undefined) {
      host.vcpus = legacy.vcpus;
      host.vcpus_used = legacy.vcpus_used ?? 0;
      legacyCapacity++;
    } else host.vcpus = 0;
    if (mem) {
      host.memory_mb = mem.total;
      // Nova's resource tracker counts the host's reserved memory as used
      host.memory_mb_used = use("MEMORY_MB") + mem.reserved;
      host.ram_allocation_ratio = mem.allocation_ratio;
      host.reserved_memory_mb = mem.reserved;
    } else if (legacy.memory_mb !== undefined) {
      host.memory_mb = legacy.memory_mb;
      host.memory_mb_used = legacy.memory_mb_used ?? 0;
      legacyCapacity++;
    } else host.memory_mb = 0;
    if (disk) {
      host.local_gb = disk.total;
      host.local_gb_used = use("DISK_GB") + disk.reserved;
      host.disk_allocation_ratio = disk.allocation_ratio;
      host.reserved_disk_gb = disk.reserved;
    } else if (legacy.local_gb !== undefined) {
      host.local_gb = legacy.local_gb;
      host.local_gb_used = legacy.local_gb_used ?? 0;
      legacyCapacity++;
    } else host.local_gb = 0;
    if (legacy.disk_available_least !== undefined) host.disk_available_least = legacy.disk_available_least;
    if (pcpu) {
      host.pcpus = pcpu.total;
      host.pcpus_used = use("PCPU");
    }
    const custom: Record<string, Row> = {};
    for (const [rc, rec] of p.inventories) {
      if (STANDARD_CLASSES.has(rc)) continue;
      custom[rc] = { ...rec, used: use(rc) };
    }
    if (Object.keys(custom).length) host.inventories = custom;
    if (h.hypervisor_type) host.hypervisor_type = h.hypervisor_type;
    if (h.hypervisor_version !== undefined) host.hypervisor_version = h.hypervisor_version;
    if (h.host_ip) host.host_ip = h.host_ip;
    // nova-compute sets COMPUTE_STATUS_DISABLED from the service; the scenario derives it the same way
    const traits = p.traits.filter((t) => t !== "COMPUTE_STATUS_DISABLED");
    if (traits.length) host.traits = traits;
    const children = childProvidersOf(p, providers);
    if (children.length) host.child_providers = children;

    const svc = services.get(h.host);
    if (svc) {
      host.service = {
        disabled: svc.disabled,
        disabled_reason: svc.disabled_reason,
        up: svc.up,
        ...(svc.forced_down ? { forced_down: true } : {}),
      };
    } else {
      is.warn(
        where,
        `no nova-compute service for host "${h.host}" in compute-service-list.json (taken as up and enabled)`,
      );
    }

    const x: ComputeNodeExtras | undefined = nodes.get(h.node);
    const cpuInfo = x?.cpu_info ?? h.cpu_info;
    if (cpuInfo) host.cpu_info = cpuInfo;
    if (x) {
      if (x.cell) host.cell = x.cell;
      if (x.supported_instances) host.supported_instances = x.supported_instances;
      if (x.numa_topology) host.numa_topology = x.numa_topology;
      if (x.pci_device_pools) host.pci_device_pools = x.pci_device_pools;
      if (x.metrics?.length) host.metrics = x.metrics;
      if (x.num_instances !== undefined) host.num_instances = x.num_instances;
      if (x.num_io_ops !== undefined) host.num_io_ops = x.num_io_ops;
      if (x.failed_builds !== undefined) host.failed_builds = x.failed_builds;
    } else {
      if (legacy.running_vms !== undefined) host.num_instances = legacy.running_vms;
      if (legacy.current_workload !== undefined) host.num_io_ops = legacy.current_workload;
    }
    hosts.push(host);
    entriesOfHost.set(h.host, [...(entriesOfHost.get(h.host) ?? []), host]);
  }
  // providers in no compute node's tree (sharing providers, strays): Nova's scheduler asks only about trees of nodes
  for (const p of providers.values()) {
    if (rootsTaken.has(p.uuid) || (p.root && rootsTaken.has(p.root))) continue;
    is.warn(
      "resource-provider-list.json",
      `provider "${p.name}" (${p.uuid}) is under no compute node of hypervisor-show.json (left out)`,
    );
  }
  if (hasNodes) {
    for (const node of nodes.keys()) {
      if (!usedNodes.has(node))
        is.warn("compute-nodes.json", `row for "${node}" matches no hypervisor in hypervisor-show.json (ignored)`);
    }
    const missing = hypervisors.filter((h) => !nodes.has(h.node)).map((h) => h.node);
    if (missing.length)
      neutral.push(
        `${missing.length} hypervisor(s) have no row in compute-nodes.json (${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""}): CPU info, supported instances, NUMA, PCI pools, metrics and stats are neutral for them`,
      );
  } else {
    neutral.push(
      "no compute-nodes.json: cpu_info {} (hypervisor API before 2.88 aside), supported_instances [], no NUMA topology, no PCI pools, no metrics; num_io_ops and failed_builds 0; num_instances counted from server-list.json",
      "cells: every host is in cell1 (no API tells a compute node's cell)",
    );
  }
  if (legacyCapacity)
    neutral.push(
      `${legacyCapacity} capacity value(s) came from the hypervisor API fields before microversion 2.88 (no Placement inventory of that class)`,
    );

  // instances: on the host server-list.json names
  const aggregates = readAggregates(list("aggregate-show.json"), hostNames, is, leftOut);
  const flavors = readFlavors(list("flavor-list.json"), is);
  const images = readImages(list("image-show.json"), is);
  const groups = readServerGroups(list("server-group-show.json"), is);
  const flavorNames = new Set(flavors.map((f) => f.name as string));
  const imageIds = new Set(images.map((i) => i.id as string));
  const instances: Row[] = [];
  const known = new Set<string>();
  let unknownFlavor = 0;
  let unknownImage = 0;
  servers.forEach((s, i) => {
    if (known.has(s.uuid)) {
      is.warn(`server-list.json[${i}]`, `server ${s.uuid} listed twice (the first is kept)`);
      return;
    }
    known.add(s.uuid);
    const entries = s.host !== undefined ? entriesOfHost.get(s.host) : undefined;
    if (s.host !== undefined && entries === undefined)
      is.warn(
        `server-list.json[${i}].Host`,
        `server ${s.uuid} is on "${s.host}", which has ${leftOut.has(s.host) ? "no resource provider" : "no hypervisor"} (imported on no host)`,
      );
    if (entries !== undefined) {
      // server list names the service host only: on several nodes (Ironic), the next node Placement
      // shows in use takes it, else the first node
      // (the API names the node too: then it decides)
      const named = s.node !== undefined ? entries.find((e) => (e.node ?? e.name) === s.node) : undefined;
      const busy = entries.filter((e) => busyNode(e) && (serversOnHost.get(e)?.length ?? 0) === 0);
      const on = named ?? busy[0] ?? entries[0];
      serversOnHost.set(on, [...(serversOnHost.get(on) ?? []), s.uuid]);
    }
    const inst: Row = { uuid: s.uuid };
    if (s.name) inst.name = s.name;
    if (s.flavor) {
      if (flavorNames.has(s.flavor)) inst.flavor = s.flavor;
      else unknownFlavor++;
    }
    if (s.image) {
      if (imageIds.has(s.image)) inst.image = s.image;
      else unknownImage++;
    }
    if (s.project_id) inst.project_id = s.project_id;
    if (s.availability_zone) inst.availability_zone = s.availability_zone;
    if (s.created) inst.created = s.created;
    instances.push(inst);
  });
  if (unknownFlavor)
    neutral.push(
      `${unknownFlavor} server(s) use a flavor not in flavor-list.json (deleted or private): no flavor kept`,
    );
  if (unknownImage) neutral.push(`${unknownImage} server(s) use an image not in image-show.json: no image kept`);
  for (const h of hosts) {
    const list = serversOnHost.get(h) ?? [];
    h.instances = list;
    if (h.num_instances === undefined) h.num_instances = list.length;
  }
  for (const g of groups) {
    const members = (g.members as string[]).filter((m) => known.has(m));
    const dropped = (g.members as string[]).length - members.length;
    if (dropped)
      is.warn(
        `server-group-show.json (${g.name})`,
        `${dropped} member(s) not in server-list.json (deleted servers?): left out`,
      );
    g.members = members;
  }

  const doc: Conversion["doc"] = {
    hosts,
    aggregates,
    server_groups: groups,
    flavors,
    images,
    instances,
  };
  let novaConf: NovaConfImport | undefined;
  if (bundle.novaConf !== undefined) {
    novaConf = importNovaConf(bundle.novaConf, opts);
    for (const e of novaConf.errors) is.errors.push(e);
    for (const u of novaConf.unknown) is.warn("nova.conf", `${u} is not a Nova Zed option of this section (ignored)`);
    doc.config = novaConf.config;
  } else {
    neutral.push("no nova.conf: the scheduler profiles are left as they are");
  }
  return { doc, errors: is.errors, warnings: is.warnings, neutral, novaConf };
}
