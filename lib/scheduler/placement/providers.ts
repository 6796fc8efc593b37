/**
 * The cloud as Placement holds it: one resource provider per compute node
 * (inventories, current usage, traits, aggregates), filled as nova-compute
 * and the aggregate API leave it. Placement refuses what it would refuse
 * (PlacementSetupError): reserved above total, bad inventory fields, trait
 * or resource class names it does not know.
 */
import { NovaError } from "../python";
import type { AggregateView, HostState } from "../host-state";
import { stableUuid } from "../nova-uuid";
import type { Scenario, ScenarioChildProvider, ScenarioHost, ScenarioInventory } from "../scenario";
import { KeptAnswers } from "./kept-answers";
import { type Inventory, ProviderColumns } from "./provider-columns";
import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from "./standard-names";

export type { Inventory };

/**
 * A resource provider: a compute node (Provider) or a provider nested under
 * one (ChildProvider: a vGPU's physical GPU, an SR-IOV PF, ...). Its usage
 * Map may be shared with an earlier request's provider: a claim copies it first.
 */
let usageVersions = 0;

export abstract class ResourceProvider {
  private usedOwned = false;
  /** Placement's internal id: creation order over every provider (roots and children). */
  seq = 0;
  /** What the host reported, before any claim (restored for the next request on a kept cloud). */
  private readonly reported: Map<string, number>;
  /** Changes whenever `used` does: a kept answer for this provider is stale once it has. */
  usageVersion = 0;
  /**
   * On a kept cloud: the list of its providers whose usage differs from the
   * reported one, so that the next request restores those only, not every provider.
   */
  changed: ResourceProvider[] | null = null;

  constructor(
    readonly inventories: Map<string, Inventory>,
    /** Allocations per resource class: existing instances, then this request's claims. */
    public used: Map<string, number>,
    readonly traits: ReadonlySet<string>,
  ) {
    this.reported = used;
  }

  /** Back to the reported usage; true when a claim had changed it. */
  restore(): boolean {
    if (this.used === this.reported) return false;
    this.used = this.reported;
    this.usedOwned = false;
    this.usageVersion = ++usageVersions;
    return true;
  }

  /** Usage as the host now reports it (a fill's boot). */
  reload(used: Map<string, number>): void {
    if (this.used === this.reported) this.changed?.push(this);
    this.used = used;
    this.usedOwned = false;
    this.usageVersion = ++usageVersions;
  }

  abstract get uuid(): string;
  abstract get name(): string;
  /** The compute node at the root of the provider's tree. */
  abstract get root(): Provider;
  /** Aggregates the provider itself is in (children: none; Placement applies the root's to the tree). */
  abstract get aggregates(): ReadonlySet<string>;

  /** Record a claim's amounts (the usage Map may be shared with an earlier request's provider). */
  allocate(amounts: Map<string, number>): void {
    if (!this.usedOwned) {
      if (this.used === this.reported) this.changed?.push(this);
      this.used = new Map(this.used);
      this.usedOwned = true;
    }
    this.usageVersion = ++usageVersions;
    for (const [rc, amount] of amounts) this.used.set(rc, (this.used.get(rc) ?? 0) + amount);
  }
}

/**
 * One compute node's resource provider. Built for every host of every
 * request, so it holds what the host reported (shared where hosts share it:
 * trait and aggregate sets) and copies its usage only when a claim changes it.
 */
export class Provider extends ResourceProvider {
  private uuidCache: string | null = null;
  /** Providers nested under this one, parents before their children (creation order). */
  children: readonly ChildProvider[] = NO_CHILDREN;

  constructor(
    readonly host: HostState,
    /** Position in the scenario's host list (= provider creation order). */
    readonly index: number,
    private readonly source: ScenarioHost,
    inventories: Map<string, Inventory>,
    used: Map<string, number>,
    traits: ReadonlySet<string>,
    readonly aggregates: ReadonlySet<string>,
  ) {
    super(inventories, used, traits);
  }

  /**
   * The HostState's uuid: the host's own, else uuid5 of its name, or of its
   * node when several entries share the name (a SHA-1: only when asked).
   */
  get uuid(): string {
    if (this.uuidCache === null) this.uuidCache = this.host.uuid || this.source.uuid || stableUuid(this.source.name);
    return this.uuidCache;
  }

  /** Placement names a compute node's provider after its hypervisor_hostname. */
  get name(): string {
    return this.host.nodename;
  }

  get root(): Provider {
    return this;
  }
}

/** A provider under a compute node (SCENARIO.md "Nested providers"). */
export class ChildProvider extends ResourceProvider {
  constructor(
    readonly name: string,
    readonly uuid: string,
    readonly parent: ResourceProvider,
    readonly root: Provider,
    inventories: Map<string, Inventory>,
    used: Map<string, number>,
    traits: ReadonlySet<string>,
  ) {
    super(inventories, used, traits);
  }

  get aggregates(): ReadonlySet<string> {
    return EMPTY;
  }
}

const NO_CHILDREN: readonly ChildProvider[] = [];

export interface PlacementCloud {
  /** The compute nodes' providers, in the scenario's host order. */
  providers: Provider[];
  /** Some compute node has providers under it: Placement searches trees (its nested code paths). */
  hasTrees: boolean;
  customTraits: ReadonlySet<string>;
  customResourceClasses: ReadonlySet<string>;
  /** Standard traits newer than the os-traits Zed ships, known under the config's release. */
  addedStandardTraits: ReadonlySet<string>;
  /** On a kept cloud (a frozen snapshot's): each query's answer per provider, kept between requests. */
  answers?: KeptAnswers;
  /** On a kept cloud: its compute nodes' capacities and usage as columns (first answers to a query). */
  columns?: ProviderColumns;
}

const MAX_INT = 2147483647;
const SQL_SP_FLOAT_MAX = 3.40282e38;
const CUSTOM_NAME = /^CUSTOM_[A-Z0-9_]+$/;
const TRAIT_SPEC = /^trait([a-zA-Z0-9_-]{1,64})?:(.*)$/;
const STANDARD_RC = new Set(STANDARD_RESOURCE_CLASSES);

/** Placement's capacity of a class: (total − reserved) × allocation_ratio (a float). */
export function capacity(inv: Inventory): number {
  return (inv.total - inv.reserved) * inv.allocationRatio;
}

const int = (v: unknown) => Math.trunc(Number(v ?? 0));

function setupError(message: string): NovaError {
  return new NovaError("PlacementSetupError", message);
}

function inventory(total: number, reserved: unknown, ratio: unknown): Inventory {
  return { total, reserved: int(reserved), minUnit: 1, maxUnit: total, stepSize: 1, allocationRatio: Number(ratio) };
}

/** The inventories a host reports and what its existing instances use. */
export function hostInventories(h: ScenarioHost): { inv: Map<string, Inventory>; used: Map<string, number> } {
  const inv = new Map<string, Inventory>();
  const used = new Map<string, number>();
  // nova-compute reports no inventory of nothing (total 0)
  let total = int(h.vcpus);
  if (total > 0) {
    inv.set("VCPU", inventory(total, h.reserved_vcpus, h.cpu_allocation_ratio ?? 4.0));
    if (int(h.vcpus_used) > 0) used.set("VCPU", int(h.vcpus_used));
  }
  total = int(h.memory_mb);
  if (total > 0) {
    inv.set("MEMORY_MB", inventory(total, h.reserved_memory_mb, h.ram_allocation_ratio ?? 1.0));
    if (int(h.memory_mb_used) > 0) used.set("MEMORY_MB", int(h.memory_mb_used));
  }
  total = int(h.local_gb);
  if (total > 0) {
    inv.set("DISK_GB", inventory(total, h.reserved_disk_gb, h.disk_allocation_ratio ?? 1.0));
    if (int(h.local_gb_used) > 0) used.set("DISK_GB", int(h.local_gb_used));
  }
  total = int(h.pcpus);
  if (total > 0) {
    inv.set("PCPU", inventory(total, 0, 1.0));
    if (int(h.pcpus_used) > 0) used.set("PCPU", int(h.pcpus_used));
  }
  explicitInventories(h.inventories, inv, used);
  return { inv, used };
}

/** An `inventories` map into inv and used, each record replacing its class whole; total 0 removes it. */
function explicitInventories(
  records: Record<string, ScenarioInventory> | undefined,
  inv: Map<string, Inventory>,
  used: Map<string, number>,
): void {
  if (!records) return;
  for (const [rc, spec] of Object.entries(records)) {
    const total = int(spec.total);
    used.delete(rc);
    if (total <= 0) {
      inv.delete(rc);
      continue;
    }
    inv.set(rc, {
      total,
      reserved: int(spec.reserved ?? 0),
      minUnit: int(spec.min_unit ?? 1),
      maxUnit: int(spec.max_unit ?? total),
      stepSize: int(spec.step_size ?? 1),
      allocationRatio: Number(spec.allocation_ratio ?? 1.0),
    });
    if (int(spec.used ?? 0) > 0) used.set(rc, int(spec.used));
  }
  for (const rc of [...used.keys()]) if (!inv.has(rc)) used.delete(rc);
}

/** A child provider's inventories (defaults as a host's) and usage (`usages`, else a record's `used`). */
function childInventories(c: ScenarioChildProvider): { inv: Map<string, Inventory>; used: Map<string, number> } {
  const inv = new Map<string, Inventory>();
  const used = new Map<string, number>();
  explicitInventories(c.inventories, inv, used);
  for (const [rc, amount] of Object.entries(c.usages ?? {})) {
    if (int(amount) > 0 && inv.has(rc)) used.set(rc, int(amount));
    else used.delete(rc);
  }
  return { inv, used };
}

const FROZEN_HOST_NAMES = new WeakMap<readonly ScenarioHost[], { traits: Set<string>; classes: Set<string> }>();

/** CUSTOM_* traits and resource classes the hosts name (once per frozen host list). */
function hostCustomNames(hosts: readonly ScenarioHost[]): { traits: Set<string>; classes: Set<string> } {
  const kept = FROZEN_HOST_NAMES.get(hosts);
  if (kept) return kept;
  const traits = new Set<string>();
  const classes = new Set<string>();
  for (const h of hosts) {
    if (h.traits) for (const t of h.traits) if (t.startsWith("CUSTOM_")) traits.add(t);
    if (h.inventories) for (const rc in h.inventories) if (rc.startsWith("CUSTOM_")) classes.add(rc);
    if (h.child_providers)
      for (const c of h.child_providers) {
        if (c.traits) for (const t of c.traits) if (t.startsWith("CUSTOM_")) traits.add(t);
        if (c.inventories) for (const rc in c.inventories) if (rc.startsWith("CUSTOM_")) classes.add(rc);
      }
  }
  const out = { traits, classes };
  if (Object.isFrozen(hosts)) FROZEN_HOST_NAMES.set(hosts, out);
  return out;
}

/** CUSTOM_* traits and resource classes named anywhere: created first, as an operator would. */
function customNames(scenario: Scenario): { traits: Set<string>; classes: Set<string> } {
  const fromHosts = hostCustomNames(scenario.hosts);
  const traits = new Set(fromHosts.traits);
  const classes = new Set(fromHosts.classes);
  for (const key of Object.keys(scenario.request.flavor.extra_specs ?? {})) {
    const m = TRAIT_SPEC.exec(key);
    if (m?.[2].startsWith("CUSTOM_")) traits.add(m[2]);
  }
  for (const key of Object.keys(scenario.request.image?.properties ?? {}))
    if (key.startsWith("trait:CUSTOM_")) traits.add(key.slice(6));
  for (const a of scenario.aggregates ?? [])
    for (const key of Object.keys(a.metadata ?? {}))
      if (key.startsWith("trait:") && key.slice(6).startsWith("CUSTOM_")) traits.add(key.slice(6));
  return { traits, classes };
}

function outOfRange(rc: string, name: string, v: number, min: number): string | null {
  return v < min || v > MAX_INT ? `${rc} ${name} ${v} is out of range (${min}..${MAX_INT})` : null;
}

/** PlacementSetupError for the first inventory field out of Placement's range, or null. */
function inventoryError(rc: string, inv: Inventory): string | null {
  const out =
    outOfRange(rc, "total", inv.total, 1) ??
    outOfRange(rc, "reserved", inv.reserved, 0) ??
    outOfRange(rc, "min_unit", inv.minUnit, 1) ??
    outOfRange(rc, "max_unit", inv.maxUnit, 1) ??
    outOfRange(rc, "step_size", inv.stepSize, 1);
  if (out) return out;
  if (!(inv.allocationRatio <= SQL_SP_FLOAT_MAX)) return `${rc} allocation_ratio ${inv.allocationRatio} is too large`;
  if (capacity(inv) < 0) return `${rc} reserved ${inv.reserved} exceeds total ${inv.total} (Placement refuses it)`;
  return null;
}

/** What a host reports to Placement, checked as Placement checks it on the way in. */
interface ProviderFacts {
  inventories: Map<string, Inventory>;
  /** Never changed: a claim copies it first (Provider.allocate). */
  used: Map<string, number>;
  /** Its `traits`, plus COMPUTE_STATUS_DISABLED for a disabled service. */
  traits: ReadonlySet<string>;
  /** PlacementSetupError of an inventory, without the host's name. */
  error: string | null;
  /** The providers under the compute node, parents before their children (else in the scenario's order). */
  children: ChildFacts[];
}

interface ChildFacts {
  name: string;
  uuid: string;
  /** Index into the host's ordered children; -1: the compute node. */
  parent: number;
  inventories: Map<string, Inventory>;
  used: Map<string, number>;
  traits: ReadonlySet<string>;
}

const NO_CHILD_FACTS: ChildFacts[] = [];

/** A host's child_providers in the order Placement gets them, or the PlacementSetupError it would raise. */
function childFacts(h: ScenarioHost): { children: ChildFacts[]; error: string | null } {
  const list = h.child_providers;
  if (!list?.length) return { children: NO_CHILD_FACTS, error: null };
  const names = new Set<string>();
  for (const c of list) {
    if (names.has(c.name)) return { children: [], error: `two child providers are named ${c.name}` };
    names.add(c.name);
  }
  const at = new Map<string, number>();
  const out: ChildFacts[] = [];
  let pending = list;
  while (pending.length) {
    const later: ScenarioChildProvider[] = [];
    for (const c of pending) {
      const parent = c.parent ?? null;
      if (parent !== null && !at.has(parent)) {
        later.push(c);
        continue;
      }
      const { inv, used } = childInventories(c);
      for (const [rc, record] of inv) {
        const error =
          !STANDARD_RC.has(rc) && !rc.startsWith("CUSTOM_")
            ? `unknown resource class ${rc}`
            : inventoryError(rc, record);
        if (error) return { children: [], error: `child provider ${c.name}: ${error}` };
      }
      at.set(c.name, out.length);
      out.push({
        name: c.name,
        uuid: c.uuid || stableUuid(`rp-${c.name}`),
        parent: parent === null ? -1 : at.get(parent)!,
        inventories: inv,
        used,
        traits: c.traits?.length ? new Set(c.traits) : EMPTY,
      });
    }
    if (later.length === pending.length)
      return {
        children: [],
        error: `child providers with an unknown parent (or a cycle): ${later.map((c) => c.name).join(", ")}`,
      };
    pending = later;
  }
  return { children: out, error: null };
}

const EMPTY: ReadonlySet<string> = new Set();
const DISABLED_ONLY: ReadonlySet<string> = new Set(["COMPUTE_STATUS_DISABLED"]);

function deriveProviderFacts(h: ScenarioHost, disabled: boolean): ProviderFacts {
  const { inv, used } = hostInventories(h);
  let error: string | null = null;
  for (const [rc, record] of inv) {
    // Classes named in `inventories` are the only ones not standard; CUSTOM_ ones are created first.
    if (!STANDARD_RC.has(rc) && !rc.startsWith("CUSTOM_")) error = `unknown resource class ${rc}`;
    else error = inventoryError(rc, record);
    if (error) break;
  }
  let traits = disabled ? DISABLED_ONLY : EMPTY;
  if (h.traits?.length) {
    const own = new Set(h.traits);
    if (disabled) own.add("COMPUTE_STATUS_DISABLED");
    traits = own;
  }
  const nested = childFacts(h);
  return { inventories: inv, used, traits, error: error ?? nested.error, children: nested.children };
}

// A frozen scenario (the app's cached snapshot) is asked many times: what
// each host reports is derived once and shared, as host states' facts are.
const FROZEN_PROVIDER_FACTS = new WeakMap<ScenarioHost, ProviderFacts>();

function providerFacts(h: ScenarioHost, disabled: boolean): ProviderFacts {
  if (!Object.isFrozen(h)) return deriveProviderFacts(h, disabled);
  let facts = FROZEN_PROVIDER_FACTS.get(h);
  if (!facts || facts.traits.has("COMPUTE_STATUS_DISABLED") !== disabled) {
    facts = deriveProviderFacts(h, disabled);
    FROZEN_PROVIDER_FACTS.set(h, facts);
  }
  return facts;
}

const VIEW_MEMBERSHIP = new WeakMap<AggregateView, ReadonlySet<string>>();

/**
 * Aggregate membership as Placement mirrors it (uuid5 of "agg-" + name): the
 * host state's aggregates, one Set per distinct list (hosts share them).
 */
function memberOf(view: AggregateView): ReadonlySet<string> {
  let set = VIEW_MEMBERSHIP.get(view);
  if (!set) {
    set = view.aggregates.length ? new Set(view.aggregates.map((a) => stableUuid(`agg-${a.name}`))) : EMPTY;
    VIEW_MEMBERSHIP.set(view, set);
  }
  return set;
}

/** The scenario's cloud in Placement, or PlacementSetupError where Placement says no. */
export function buildPlacementCloud(
  scenario: Scenario,
  hosts: HostState[],
  addedStandardTraits: ReadonlySet<string> = new Set(),
): PlacementCloud {
  const { traits: customTraits, classes: customResourceClasses } = customNames(scenario);
  for (const rc of [...customResourceClasses].sort())
    if (!CUSTOM_NAME.test(rc) || rc.length > 255) throw setupError(`resource class ${rc}: not a valid custom name`);
  for (const t of [...customTraits].sort())
    if (!CUSTOM_NAME.test(t) || t.length > 255) throw setupError(`trait ${t}: not a valid custom trait name`);
  const kept = keptCloud(scenario.hosts, hosts, addedStandardTraits);
  if (kept) return { ...kept, customTraits, customResourceClasses, addedStandardTraits };
  const cloud = buildProviders(scenario, hosts, addedStandardTraits, customTraits);
  if (Object.isFrozen(scenario.hosts)) {
    cloud.answers = new KeptAnswers();
    cloud.columns = new ProviderColumns(cloud.providers);
    const changed: ResourceProvider[] = [];
    for (const p of cloud.providers) {
      p.changed = changed;
      for (const c of p.children) c.changed = changed;
    }
    KEPT_CLOUDS.set(scenario.hosts, { hosts: hosts.slice(), cloud, changed });
  }
  return { ...cloud, customTraits, customResourceClasses };
}

/**
 * A frozen snapshot is asked many times: its providers are built once and
 * kept, with their reported usage restored before each request (claims
 * change a provider's own copy of it). Kept for the same host states only.
 */
const KEPT_CLOUDS = new WeakMap<
  readonly ScenarioHost[],
  { hosts: HostState[]; cloud: PlacementCloud; changed: ResourceProvider[] }
>();

function keptCloud(
  scenarioHosts: readonly ScenarioHost[],
  hosts: HostState[],
  addedStandardTraits: ReadonlySet<string>,
): PlacementCloud | null {
  const kept = KEPT_CLOUDS.get(scenarioHosts);
  if (!kept || kept.hosts.length !== hosts.length) return null;
  const known = kept.cloud.addedStandardTraits;
  if (known.size !== addedStandardTraits.size) return null;
  for (const t of addedStandardTraits) if (!known.has(t)) return null;
  for (let i = 0; i < hosts.length; i++) if (kept.hosts[i] !== hosts[i]) return null;
  // Only a claim or a reload changes a provider's usage, and each lists its provider in `changed`.
  for (const p of kept.changed) p.restore();
  kept.changed.length = 0;
  return kept.cloud;
}

function buildProviders(
  scenario: Scenario,
  hosts: HostState[],
  addedStandardTraits: ReadonlySet<string>,
  customTraits: ReadonlySet<string>,
): PlacementCloud {
  // uuid5 of every name is only worth computing when a uuid (explicit, or
  // uuid5 of a node whose service host has several) could collide with
  // one; otherwise equal names are the only way to share one.
  let uuids = false;
  for (let i = 0; i < hosts.length && !uuids; i++) uuids = hosts[i].uuid !== "";
  const seen = new Set<string>();
  const providers: Provider[] = new Array(scenario.hosts.length);
  let hasTrees = false;
  let seq = 0;
  for (let i = 0; i < scenario.hosts.length; i++) {
    const h = scenario.hosts[i];
    const host = hosts[i];
    const facts = providerFacts(h, host.service.disabled);
    const p = new Provider(host, i, h, facts.inventories, facts.used, facts.traits, memberOf(host.aggregates));
    const key = uuids ? p.uuid : h.name;
    if (seen.has(key)) throw setupError(`two compute nodes share the provider uuid ${p.uuid}`);
    seen.add(key);
    if (facts.error) throw setupError(`hosts[${i}] (${h.name}): ${facts.error}`);
    for (const t of facts.traits)
      if (!STANDARD_TRAITS.has(t) && !customTraits.has(t) && !addedStandardTraits.has(t))
        throw setupError(`hosts[${i}] (${h.name}): unknown trait ${t}`);
    p.seq = seq++;
    if (facts.children.length) {
      hasTrees = true;
      const children: ChildProvider[] = [];
      for (const c of facts.children) {
        for (const t of c.traits)
          if (!STANDARD_TRAITS.has(t) && !customTraits.has(t) && !addedStandardTraits.has(t))
            throw setupError(`hosts[${i}] (${h.name}): child provider ${c.name}: unknown trait ${t}`);
        const parent = c.parent < 0 ? p : children[c.parent];
        const child = new ChildProvider(c.name, c.uuid, parent, p, c.inventories, c.used, c.traits);
        child.seq = seq++;
        children.push(child);
      }
      p.children = children;
    }
    providers[i] = p;
  }
  if (hasTrees) uniqueTreeNames(providers, uuids);
  return { providers, hasTrees, customTraits, customResourceClasses: EMPTY, addedStandardTraits };
}

/**
 * Build a frozen snapshot's providers ahead of a request, as its host states
 * are, so that the request finds them kept; a setup error is left for the
 * request to raise where Nova would.
 */
export function keepPlacementCloud(
  scenario: Scenario,
  hosts: HostState[],
  addedStandardTraits: ReadonlySet<string>,
): void {
  if (!Object.isFrozen(scenario.hosts)) return;
  try {
    buildPlacementCloud(scenario, hosts, addedStandardTraits);
  } catch (e) {
    if (!(e instanceof NovaError)) throw e;
  }
}

/** Placement's 409 for a provider name or uuid taken twice, where trees add names to the compute nodes'. */
function uniqueTreeNames(providers: Provider[], uuidsChecked: boolean): void {
  const names = new Set<string>();
  const uuids = new Set<string>();
  const add = (p: ResourceProvider) => {
    if (names.has(p.name)) throw setupError(`two resource providers are named ${p.name}`);
    names.add(p.name);
    if (p instanceof Provider && !uuidsChecked) return;
    if (uuids.has(p.uuid)) throw setupError(`two resource providers share the uuid ${p.uuid}`);
    uuids.add(p.uuid);
  };
  for (const p of providers) {
    add(p);
    for (const c of p.children) add(c);
  }
}

/** Set a provider tree's usage to what its (edited) scenario host now reports. */
export function reloadUsage(p: Provider, h: ScenarioHost): void {
  p.reload(hostInventories(h).used);
  const children = childFacts(h).children;
  for (let i = 0; i < p.children.length; i++) p.children[i].reload(children[i]?.used ?? new Map());
}
