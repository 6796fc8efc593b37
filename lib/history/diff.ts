/**
 * What changed between two snapshots of the cloud (two exports): hosts
 * added, removed, disabled, enabled or changed; aggregates (hosts, metadata,
 * AZ); flavors; images; server groups; instances created, deleted or moved;
 * and usage per availability zone. Pure: the page, the CLI and the tests
 * read the same answer.
 */
import type { ExportedCloud } from "@/lib/cloud/scenario-io";
import { sortKeysDeep } from "@/lib/scenario/json";

type Obj = Record<string, unknown>;

export interface Changed {
  name: string;
  /** the keys whose values differ, e.g. "service.disabled", "memory_mb_used" */
  fields: string[];
}

export interface MetadataChange {
  aggregate: string;
  key: string;
  before: string | null;
  after: string | null;
}

export interface InstanceMove {
  uuid: string;
  name?: string;
  from: string;
  to: string;
}

export interface AzUsage {
  az: string;
  hosts: number;
  vcpus: number;
  vcpus_used: number;
  memory_mb: number;
  memory_mb_used: number;
  local_gb: number;
  local_gb_used: number;
  instances: number;
}

export interface SnapshotDiff {
  hosts: { added: string[]; removed: string[]; disabled: string[]; enabled: string[]; changed: Changed[] };
  aggregates: {
    added: string[];
    removed: string[];
    hostsAdded: { aggregate: string; host: string }[];
    hostsRemoved: { aggregate: string; host: string }[];
    metadata: MetadataChange[];
  };
  flavors: { added: string[]; removed: string[]; changed: Changed[] };
  images: { added: string[]; removed: string[]; changed: Changed[] };
  serverGroups: { added: string[]; removed: string[]; changed: Changed[] };
  instances: {
    created: { uuid: string; name?: string; host: string | null }[];
    deleted: string[];
    moved: InstanceMove[];
  };
  /** per AZ, before and after (an AZ present in one only has zeros in the other) */
  usage: { az: string; before: AzUsage; after: AzUsage }[];
  /** counts per section, for the page's headings and the CLI's summary */
  counts: Record<string, number>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(sortKeysDeep(a)) === JSON.stringify(sortKeysDeep(b));

/** Top-level keys (and service.X) whose values differ. */
function changedFields(a: Obj, b: Obj, ignore: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (ignore.includes(k)) continue;
    if (k === "service" && a[k] && b[k]) {
      const sa = a[k] as Obj;
      const sb = b[k] as Obj;
      for (const s of [...new Set([...Object.keys(sa), ...Object.keys(sb)])].sort())
        if (!same(sa[s], sb[s])) out.push(`service.${s}`);
    } else if (!same(a[k], b[k])) out.push(k);
  }
  return out;
}

function byKey<T extends Obj>(list: T[] | undefined, key: (e: T) => string): Map<string, T> {
  return new Map((list ?? []).map((e) => [key(e), e]));
}

function keyedDiff<T extends Obj>(
  a: T[] | undefined,
  b: T[] | undefined,
  key: (e: T) => string,
  ignore: readonly string[] = [],
): { added: string[]; removed: string[]; changed: Changed[]; both: [T, T][] } {
  const ma = byKey(a, key);
  const mb = byKey(b, key);
  const added = [...mb.keys()].filter((k) => !ma.has(k));
  const removed = [...ma.keys()].filter((k) => !mb.has(k));
  const changed: Changed[] = [];
  const both: [T, T][] = [];
  for (const [k, ea] of ma) {
    const eb = mb.get(k);
    if (!eb) continue;
    both.push([ea, eb]);
    // most entries are unchanged: one comparison of the whole entry first
    if (JSON.stringify(ea) === JSON.stringify(eb)) continue;
    const fields = changedFields(ea, eb, ignore);
    if (fields.length) changed.push({ name: k, fields });
  }
  return { added, removed, changed, both };
}

/** Hosts by service host name; the nodes of a service host with several (Ironic) as "host (node)". */
let multiNode = new Set<string>();
const hostKey = (h: Obj) => (multiNode.has(String(h.name)) ? `${h.name} (${h.node ?? h.name})` : String(h.name));

function multiNodeHosts(...docs: ExportedCloud[]): Set<string> {
  const out = new Set<string>();
  for (const d of docs) {
    const seen = new Set<string>();
    for (const h of d.hosts) {
      if (seen.has(h.name)) out.add(h.name);
      seen.add(h.name);
    }
  }
  return out;
}
const disabledOf = (h: Obj) => Boolean((h.service as Obj | undefined)?.disabled);

/** Where each instance is (host key, or null: on no host), and its name. */
function placements(doc: ExportedCloud): Map<string, { host: string | null; name?: string }> {
  const out = new Map<string, { host: string | null; name?: string }>();
  for (const h of doc.hosts as unknown as Obj[])
    for (const u of (h.instances as string[] | undefined) ?? []) out.set(u, { host: hostKey(h) });
  for (const i of (doc.instances ?? []) as Obj[]) {
    const u = String(i.uuid);
    const o = out.get(u) ?? { host: null };
    if (typeof i.name === "string") o.name = i.name;
    out.set(u, o);
  }
  return out;
}

/** The AZ of each host (aggregates' availability_zone; else the default AZ), as Nova's API shows it. */
export function azOfHosts(doc: ExportedCloud): Map<string, string> {
  const fallback = ((doc.config as Obj | undefined)?.default_availability_zone as string | undefined) ?? "nova";
  const az = new Map<string, string>();
  for (const a of (doc.aggregates ?? []) as unknown as Obj[]) {
    const zone =
      (a.availability_zone as string | undefined) ??
      ((a.metadata as Obj | undefined)?.availability_zone as string | undefined);
    if (!zone) continue;
    for (const h of (a.hosts as string[] | undefined) ?? []) if (!az.has(h)) az.set(h, zone);
  }
  const out = new Map<string, string>();
  for (const h of doc.hosts) out.set(h.name, az.get(h.name) ?? fallback);
  return out;
}

export function usagePerAz(doc: ExportedCloud): Map<string, AzUsage> {
  const az = azOfHosts(doc);
  const out = new Map<string, AzUsage>();
  for (const h of doc.hosts) {
    const zone = az.get(h.name)!;
    const u = out.get(zone) ?? emptyUsage(zone);
    u.hosts++;
    u.vcpus += h.vcpus;
    u.vcpus_used += h.vcpus_used ?? 0;
    u.memory_mb += h.memory_mb;
    u.memory_mb_used += h.memory_mb_used ?? 0;
    u.local_gb += h.local_gb;
    u.local_gb_used += h.local_gb_used ?? 0;
    u.instances += h.instances?.length ?? 0;
    out.set(zone, u);
  }
  return out;
}

function emptyUsage(az: string): AzUsage {
  return {
    az,
    hosts: 0,
    vcpus: 0,
    vcpus_used: 0,
    memory_mb: 0,
    memory_mb_used: 0,
    local_gb: 0,
    local_gb_used: 0,
    instances: 0,
  };
}

export function diffSnapshots(a: ExportedCloud, b: ExportedCloud): SnapshotDiff {
  multiNode = multiNodeHosts(a, b);
  // hosts: the instances list and what follows from it are the instances section's
  const h = keyedDiff(a.hosts as unknown as Obj[], b.hosts as unknown as Obj[], hostKey, ["instances"]);
  const disabled = h.both.filter(([x, y]) => !disabledOf(x) && disabledOf(y)).map(([, y]) => hostKey(y));
  const enabled = h.both.filter(([x, y]) => disabledOf(x) && !disabledOf(y)).map(([, y]) => hostKey(y));

  const ag = keyedDiff(a.aggregates as unknown as Obj[], b.aggregates as unknown as Obj[], (x) => String(x.name));
  const hostsAdded: { aggregate: string; host: string }[] = [];
  const hostsRemoved: { aggregate: string; host: string }[] = [];
  const metadata: MetadataChange[] = [];
  const meta = (x: Obj) => {
    const m = { ...((x.metadata as Obj | undefined) ?? {}) };
    if (x.availability_zone !== undefined) m.availability_zone = x.availability_zone;
    return m;
  };
  const metaPairs: [string, Obj, Obj][] = [
    ...ag.both.map(([x, y]) => [String(y.name), meta(x), meta(y)] as [string, Obj, Obj]),
    ...ag.added.map(
      (n) => [n, {}, meta((b.aggregates as unknown as Obj[]).find((x) => x.name === n)!)] as [string, Obj, Obj],
    ),
  ];
  for (const [name, ma, mb] of metaPairs)
    for (const k of [...new Set([...Object.keys(ma), ...Object.keys(mb)])].sort())
      if (ma[k] !== mb[k])
        metadata.push({
          aggregate: name,
          key: k,
          before: ma[k] === undefined ? null : String(ma[k]),
          after: mb[k] === undefined ? null : String(mb[k]),
        });
  for (const [x, y] of ag.both) {
    const ha = new Set((x.hosts as string[] | undefined) ?? []);
    const hb = new Set((y.hosts as string[] | undefined) ?? []);
    for (const host of hb) if (!ha.has(host)) hostsAdded.push({ aggregate: String(y.name), host });
    for (const host of ha) if (!hb.has(host)) hostsRemoved.push({ aggregate: String(y.name), host });
  }

  const fl = keyedDiff(a.flavors, b.flavors, (x) => String(x.name));
  const im = keyedDiff(a.images, b.images, (x) => String(x.name ?? x.id));
  const sg = keyedDiff(a.server_groups as unknown as Obj[], b.server_groups as unknown as Obj[], (x) =>
    String(x.name ?? x.uuid),
  );

  const pa = placements(a);
  const pb = placements(b);
  const created = [...pb].filter(([u]) => !pa.has(u)).map(([uuid, p]) => ({ uuid, ...p }));
  const deleted = [...pa.keys()].filter((u) => !pb.has(u));
  const moved: InstanceMove[] = [];
  for (const [uuid, p] of pb) {
    const before = pa.get(uuid);
    if (before?.host && p.host && before.host !== p.host)
      moved.push({ uuid, ...(p.name ? { name: p.name } : {}), from: before.host, to: p.host });
  }

  const ua = usagePerAz(a);
  const ub = usagePerAz(b);
  const usage = [...new Set([...ua.keys(), ...ub.keys()])]
    .sort()
    .map((az) => ({ az, before: ua.get(az) ?? emptyUsage(az), after: ub.get(az) ?? emptyUsage(az) }));

  const diff: SnapshotDiff = {
    hosts: { added: h.added, removed: h.removed, disabled, enabled, changed: h.changed },
    aggregates: { added: ag.added, removed: ag.removed, hostsAdded, hostsRemoved, metadata },
    flavors: { added: fl.added, removed: fl.removed, changed: fl.changed },
    images: { added: im.added, removed: im.removed, changed: im.changed },
    serverGroups: { added: sg.added, removed: sg.removed, changed: sg.changed },
    instances: { created, deleted, moved },
    usage,
    counts: {},
  };
  diff.counts = {
    hosts: h.added.length + h.removed.length + h.changed.length,
    aggregates: ag.added.length + ag.removed.length + hostsAdded.length + hostsRemoved.length + metadata.length,
    flavors: fl.added.length + fl.removed.length + fl.changed.length,
    images: im.added.length + im.removed.length + im.changed.length,
    serverGroups: sg.added.length + sg.removed.length + sg.changed.length,
    instances: created.length + deleted.length + moved.length,
  };
  return diff;
}

/** The diff as JSON lines (the CLI): one line per change, each with its section and kind. */
export function diffLines(d: SnapshotDiff): Obj[] {
  const lines: Obj[] = [];
  const push = (section: string, change: string, rest: Obj) => lines.push({ section, change, ...rest });
  for (const n of d.hosts.added) push("hosts", "added", { host: n });
  for (const n of d.hosts.removed) push("hosts", "removed", { host: n });
  for (const n of d.hosts.disabled) push("hosts", "disabled", { host: n });
  for (const n of d.hosts.enabled) push("hosts", "enabled", { host: n });
  for (const c of d.hosts.changed) push("hosts", "changed", { host: c.name, fields: c.fields });
  for (const n of d.aggregates.added) push("aggregates", "added", { aggregate: n });
  for (const n of d.aggregates.removed) push("aggregates", "removed", { aggregate: n });
  for (const x of d.aggregates.hostsAdded) push("aggregates", "host-added", x);
  for (const x of d.aggregates.hostsRemoved) push("aggregates", "host-removed", x);
  for (const x of d.aggregates.metadata) push("aggregates", "metadata", { ...x });
  for (const [section, s] of [
    ["flavors", d.flavors],
    ["images", d.images],
    ["server_groups", d.serverGroups],
  ] as const) {
    const key = section === "server_groups" ? "server_group" : section.slice(0, -1);
    for (const n of s.added) push(section, "added", { [key]: n });
    for (const n of s.removed) push(section, "removed", { [key]: n });
    for (const c of s.changed) push(section, "changed", { [key]: c.name, fields: c.fields });
  }
  for (const x of d.instances.created) push("instances", "created", { ...x });
  for (const u of d.instances.deleted) push("instances", "deleted", { uuid: u });
  for (const x of d.instances.moved) push("instances", "moved", { ...x });
  for (const u of d.usage) push("usage", "az", { az: u.az, before: u.before, after: u.after });
  return lines;
}
