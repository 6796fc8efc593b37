/**
 * nova/pci/stats.py PciDeviceStats, as the scheduler uses it: a host's free
 * devices pooled by their properties; can a request be served (with the
 * NUMA affinity its policy asks), and taking devices out of the pools.
 */
import type { PciRequest, PciSpec } from "./request";

export type PoolValue = string | number | null;

/** One pool: its properties (vendor_id, product_id, numa_node, tags) and free count. */
export interface PciPool {
  props: Map<string, PoolValue>;
  count: number;
  /** props' numa_node (null without one), read apart: the NUMA fit sorts cells by it for every host it fits. */
  numaNode: PoolValue;
}

/** NUMA affinity needs only each guest cell's host cell and each host cell's socket. */
export interface NumaCellRef {
  id: number;
}

export interface HostCellSocket {
  id: number;
  socket: number | null;
}

const TRUE_STRINGS = new Set(["1", "t", "true", "on", "y", "yes"]);
const boolFromString = (v: PoolValue | undefined): boolean =>
  typeof v === "string"
    ? TRUE_STRINGS.has(v.trim().toLowerCase())
    : v !== undefined && v !== null && TRUE_STRINGS.has(String(v));

/** A spec's entries with string values lower-cased, worked out once per spec. */
const LOWERED = new WeakMap<object, Array<[string, PoolValue]>>();

function lowered(spec: Record<string, PoolValue>): Array<[string, PoolValue]> {
  let entries = LOWERED.get(spec);
  if (!entries) {
    entries = Object.keys(spec).map((k) => {
      const v = spec[k];
      return [k, typeof v === "string" ? v.toLowerCase() : v];
    });
    LOWERED.set(spec, entries);
  }
  return entries;
}

/** utils.pci_device_prop_match: every key of some spec equals the pool's (strings case-insensitively). */
export function propMatch(pool: PciPool, specs: ReadonlyArray<Record<string, PoolValue>>): boolean {
  for (const spec of specs) {
    let all = true;
    for (const [k, v] of lowered(spec)) {
      let p = pool.props.get(k) ?? null;
      if (typeof p === "string") p = p.toLowerCase();
      if (p !== v) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

/** pci_device_prop_match(pool, [{"numa_node": id}]) */
const onNode = (pool: PciPool, id: number | null): boolean => pool.numaNode === id;

function total(pools: PciPool[]): number {
  let n = 0;
  for (let i = 0; i < pools.length; i++) n += pools[i].count;
  return n;
}

/** pools.filter(keep), but the same array when every pool is kept: a host has few pools and most filters keep them all. */
function kept(pools: PciPool[], keep: (p: PciPool) => boolean): PciPool[] {
  for (let i = 0; i < pools.length; i++) if (!keep(pools[i])) return pools.filter(keep);
  return pools;
}

/** The pools on one of the cells' NUMA nodes (or on none, with `orNone`); the same array when all are. */
function keptOnCells(pools: PciPool[], cells: NumaCellRef[], orNone: boolean): PciPool[] {
  return kept(pools, (p) => (orNone && p.numaNode === null) || cells.some((c) => onNode(p, c.id)));
}

/** What a request's specs rule out, worked out once per request (it is asked for every host). */
interface RequestRules {
  noPhysicalFunctions: boolean;
  noVdpa: boolean;
  noRemoteManaged: boolean;
}

const RULES = new WeakMap<PciRequest, RequestRules>();

function rulesOf(request: PciRequest): RequestRules {
  let r = RULES.get(request);
  if (!r) {
    const specs = request.spec as ReadonlyArray<PciSpec>;
    r = {
      noPhysicalFunctions: specs.every((s) => s.dev_type !== "type-PF"),
      noVdpa: specs.every((s) => s.dev_type !== "vdpa"),
      noRemoteManaged: specs.every((s) => !boolFromString(s.remote_managed)),
    };
    RULES.set(request, r);
  }
  return r;
}

const notPhysicalFunction = (p: PciPool) => p.props.get("dev_type") !== "type-PF";
const notVdpa = (p: PciPool) => p.props.get("dev_type") !== "vdpa";
const notRemoteManaged = (p: PciPool) => !boolFromString(p.props.get("remote_managed"));

function samePool(a: PciPool, b: PciPool): boolean {
  if (a.count !== b.count || a.props.size !== b.props.size) return false;
  for (const [k, v] of a.props) if (b.props.get(k) !== v || !b.props.has(k)) return false;
  return true;
}

export class PciDeviceStats {
  /**
   * The free devices of every pool, kept as taking devices changes them:
   * PCIWeigher reads it for every host of every request, and adding up each
   * host's pools read objects that are nowhere else in cache.
   */
  freeDevices: number;

  constructor(
    /** Changed only by applyRequests (which keeps freeDevices with them). */
    readonly pools: PciPool[],
    /** The host's cells when the stats were built (socket policy). */
    readonly hostCells: ReadonlyArray<HostCellSocket> | null,
  ) {
    this.freeDevices = total(pools);
  }

  /** PciDeviceStats(numa_topology, stats=pools): pools with fewer keys first (stable). */
  static fromPools(pools: PciPool[], hostCells: ReadonlyArray<HostCellSocket> | null): PciDeviceStats {
    return new PciDeviceStats(
      [...pools].sort((a, b) => a.props.size - b.props.size),
      hostCells,
    );
  }

  clone(): PciDeviceStats {
    return new PciDeviceStats(
      this.pools.map((p) => ({ props: p.props, count: p.count, numaNode: p.numaNode })),
      this.hostCells,
    );
  }

  private forNumaCells(pools: PciPool[], request: PciRequest, cells: NumaCellRef[] | null): PciPool[] {
    if (!cells?.length) return pools;
    const policy = request.numaPolicy || "legacy";
    let filtered = keptOnCells(pools, cells, false);
    if (policy === "required" || total(filtered) >= request.count) return filtered;
    if (policy === "socket") return this.forSocket(pools, cells);
    filtered = keptOnCells(pools, cells, true);
    if (policy === "legacy" || total(filtered) >= request.count) return filtered;
    // preferred: every pool, those with affinity first (a stable sort: already in order, nothing moves)
    const affine = (p: PciPool) => (p.numaNode === null || cells.some((c) => c.id === p.numaNode) ? 0 : 1);
    let ordered = true;
    for (let i = 1; i < pools.length && ordered; i++) ordered = affine(pools[i - 1]) <= affine(pools[i]);
    return ordered ? pools : [...pools].sort((a, b) => affine(a) - affine(b));
  }

  private forSocket(pools: PciPool[], cells: NumaCellRef[]): PciPool[] {
    const hostCells = this.hostCells ?? [];
    if (hostCells.some((c) => c.socket === null)) return [];
    const sockets = new Set<number | null>();
    for (const g of cells) for (const h of hostCells) if (g.id === h.id) sockets.add(h.socket);
    const nodes = hostCells.filter((h) => sockets.has(h.socket)).map((h) => h.id);
    return pools.filter((p) => nodes.some((n) => onNode(p, n)));
  }

  /** _filter_pools: spec, NUMA affinity, unrequested PFs, VDPA and remote-managed devices. */
  filterPools(pools: PciPool[], request: PciRequest, cells: NumaCellRef[] | null): PciPool[] | null {
    const specs = request.spec as ReadonlyArray<PciSpec>;
    let out = kept(pools, (p) => propMatch(p, specs));
    if (total(out) < request.count) return null;
    out = this.forNumaCells(out, request, cells);
    if (total(out) < request.count) return null;
    const rules = rulesOf(request);
    if (rules.noPhysicalFunctions) out = kept(out, notPhysicalFunction);
    if (total(out) < request.count) return null;
    if (rules.noVdpa) out = kept(out, notVdpa);
    if (rules.noRemoteManaged) out = kept(out, notRemoteManaged);
    if (total(out) < request.count) return null;
    return out;
  }

  private applyRequest(request: PciRequest, cells: NumaCellRef[] | null): boolean {
    let filtered = this.filterPools(this.pools, request, cells);
    if (!filtered?.length) return false;
    // this.pools loses pools below while the loop walks `filtered`
    if (filtered === this.pools) filtered = [...filtered];
    let count = request.count;
    for (const pool of filtered) {
      if (pool.count > count) {
        pool.count -= count;
        count = 0;
      } else {
        count -= pool.count;
        // list.remove: the first pool equal to it goes
        const at = this.pools.findIndex((p) => samePool(p, pool));
        if (at >= 0) this.pools.splice(at, 1);
      }
      if (!count) break;
    }
    return true;
  }

  /**
   * apply_requests: take the devices; false (Nova raises
   * PciDeviceRequestFailed) when a request cannot be served, the requests
   * before it staying applied.
   */
  applyRequests(requests: PciRequest[], cells: NumaCellRef[] | null): boolean {
    try {
      for (const r of requests) if (!this.applyRequest(r, cells)) return false;
      return true;
    } finally {
      this.freeDevices = total(this.pools);
    }
  }

  /** support_requests: apply_requests on a copy. */
  supportRequests(requests: PciRequest[], cells: NumaCellRef[] | null = null): boolean {
    // One request changes nothing it reads: no copy needed.
    if (requests.length === 1) return !!this.filterPools(this.pools, requests[0], cells)?.length;
    return this.clone().applyRequests(requests, cells);
  }
}
