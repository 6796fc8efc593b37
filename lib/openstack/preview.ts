/**
 * What an import would change: per kind (hosts, aggregates, flavors, images,
 * server groups, instances), the records added, changed and removed, by
 * their OpenStack identity (host name, aggregate name, flavor name, image
 * uuid, server group uuid, instance uuid). Pure: both sides are cloud
 * documents; a record "changed" when anything the database keeps of it
 * differs, with the import's defaults applied to both.
 */
import { HOST_DEFAULTS, HOST_SIZE_FIELDS } from "@/lib/scenario/schema";
import { stableUuid } from "@/lib/scheduler/nova-uuid";

export const PREVIEW_KINDS = ["hosts", "aggregates", "flavors", "images", "server groups", "instances"] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

/** How many names each list of the preview shows (the counts are always complete). */
export const PREVIEW_NAMES = 20;

export interface KindChange {
  kind: PreviewKind;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  /** The first PREVIEW_NAMES names of each. */
  addedNames: string[];
  changedNames: string[];
  removedNames: string[];
}

type Row = Record<string, unknown>;
interface CloudLike {
  hosts?: Row[];
  aggregates?: Row[];
  flavors?: Row[];
  images?: Row[];
  server_groups?: Row[];
  instances?: Row[];
}

const sorted = (v: unknown) => (Array.isArray(v) ? [...v].map(String).sort() : []);

/** JSON with object keys sorted; prints are compared as text, so key order must not matter. */
function print(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x !== null && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x as object)
            .sort()
            .map((k) => [k, (x as Row)[k]]),
        )
      : x,
  );
}

function hostPrint(h: Row): string {
  const svc = (h.service ?? {}) as Row;
  const d = HOST_DEFAULTS as Record<string, unknown>;
  const pick = (k: string) => h[k] ?? d[k] ?? null;
  return JSON.stringify([
    h.node ?? h.name,
    h.uuid ?? null,
    ...[
      "cell",
      ...HOST_SIZE_FIELDS,
      "hypervisor_type",
      "hypervisor_version",
      "num_instances",
      "num_io_ops",
      "failed_builds",
      "cpu_allocation_ratio",
      "ram_allocation_ratio",
      "disk_allocation_ratio",
      "reserved_vcpus",
      "reserved_memory_mb",
      "reserved_disk_gb",
    ].map(pick),
    h.host_ip ?? null,
    h.disk_available_least ?? null,
    h.supported_instances ?? [],
    print(h.cpu_info ?? {}),
    [svc.disabled ?? false, svc.disabled_reason ?? null, svc.up ?? true, svc.forced_down ?? false],
    ((h.metrics ?? []) as Row[]).map((m) => [m.name, m.value]),
    sorted(h.traits),
    sorted(h.instances),
    h.pcpus ?? 0,
    h.pcpus_used ?? 0,
    print(h.inventories ?? {}),
    print(h.numa_topology ?? null),
    print(h.pci_device_pools ?? []),
  ]);
}

function aggregatePrint(a: Row): string {
  const md = { ...((a.metadata ?? {}) as Row) };
  const az = a.availability_zone ?? md.availability_zone ?? null;
  delete md.availability_zone;
  return print([az, a.uuid ?? null, a.hosts ?? [], md]);
}

function flavorPrint(f: Row): string {
  return print([
    f.id ?? null,
    f.vcpus,
    f.memory_mb,
    f.root_gb ?? 0,
    f.ephemeral_gb ?? 0,
    f.swap ?? 0,
    f.is_public ?? true,
    f.description ?? null,
    f.extra_specs ?? {},
  ]);
}

const imagePrint = (i: Row) => print([i.name ?? null, i.properties ?? {}]);
const groupPrint = (g: Row) => print([g.name, g.policy, g.rules ?? {}, sorted(g.members), g.project_id ?? null]);

function instancePrints(doc: CloudLike): Map<string, string> {
  const where = new Map<string, string>();
  for (const h of doc.hosts ?? []) for (const u of (h.instances ?? []) as string[]) where.set(u, String(h.name));
  const attrs = new Map((doc.instances ?? []).map((i) => [String(i.uuid), i]));
  const out = new Map<string, string>();
  for (const u of new Set([...where.keys(), ...attrs.keys()])) {
    const a = attrs.get(u) ?? {};
    out.set(
      u,
      JSON.stringify([where.get(u) ?? null, a.name ?? null, a.flavor ?? null, a.image ?? null, a.project_id ?? null]),
    );
  }
  return out;
}

function keyed(list: Row[] | undefined, key: (r: Row) => string, print: (r: Row) => string): Map<string, string> {
  return new Map((list ?? []).map((r) => [key(r), print(r)]));
}

function compare(kind: PreviewKind, before: Map<string, string>, after: Map<string, string>): KindChange {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  let unchanged = 0;
  for (const [k, v] of after) {
    const b = before.get(k);
    if (b === undefined) added.push(k);
    else if (b !== v) changed.push(k);
    else unchanged++;
  }
  for (const k of before.keys()) if (!after.has(k)) removed.push(k);
  return {
    kind,
    added: added.length,
    changed: changed.length,
    removed: removed.length,
    unchanged,
    addedNames: added.slice(0, PREVIEW_NAMES),
    changedNames: changed.slice(0, PREVIEW_NAMES),
    removedNames: removed.slice(0, PREVIEW_NAMES),
  };
}

/** The changes from `current` (the database's export) to `next` (the document to import), per kind. */
export function diffClouds(current: CloudLike, next: CloudLike): KindChange[] {
  const byName = (r: Row) => String(r.name);
  const groupKey = (g: Row) => String(g.uuid ?? stableUuid(`sg-${g.name}`));
  // each kind: its list in the document, what names a row, what of a row counts as a change
  const kinds: Array<[PreviewKind, Exclude<keyof CloudLike, "instances">, (r: Row) => string, (r: Row) => string]> = [
    ["hosts", "hosts", byName, hostPrint],
    ["aggregates", "aggregates", byName, aggregatePrint],
    ["flavors", "flavors", byName, flavorPrint],
    ["images", "images", (i) => String(i.id), imagePrint],
    ["server groups", "server_groups", groupKey, groupPrint],
  ];
  return [
    ...kinds.map(([kind, list, key, rowPrint]) =>
      compare(kind, keyed(current[list], key, rowPrint), keyed(next[list], key, rowPrint)),
    ),
    compare("instances", instancePrints(current), instancePrints(next)),
  ];
}
