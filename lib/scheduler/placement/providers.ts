/**
 * The cloud as Placement holds it: one resource provider per compute node
 * (inventories, current usage, traits, aggregates), filled as nova-compute
 * and the aggregate API leave it. Placement refuses what it would refuse
 * (PlacementSetupError): reserved above total, bad inventory fields, trait
 * or resource class names it does not know.
 */
import { NovaError } from "../python";
import type { HostState } from "../host-state";
import { stableUuid } from "../nova-uuid";
import type { Scenario, ScenarioHost } from "../scenario";
import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from "./standard-names";

export interface Inventory {
  total: number;
  reserved: number;
  minUnit: number;
  maxUnit: number;
  stepSize: number;
  allocationRatio: number;
}

export interface Provider {
  host: HostState;
  uuid: string;
  inventories: Map<string, Inventory>;
  /** Allocations per resource class: existing instances, then this request's claims. */
  used: Map<string, number>;
  traits: ReadonlySet<string>;
  aggregates: ReadonlySet<string>;
}

export interface PlacementCloud {
  providers: Provider[];
  customTraits: ReadonlySet<string>;
  customResourceClasses: ReadonlySet<string>;
  /** Standard traits newer than the os-traits Zed ships, known under the config's release. */
  addedStandardTraits: ReadonlySet<string>;
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

/** The inventories a host reports and what its existing instances use. */
export function hostInventories(h: ScenarioHost): { inv: Map<string, Inventory>; used: Map<string, number> } {
  const inv = new Map<string, Inventory>();
  const used = new Map<string, number>();
  const add = (rc: string, totalRaw: unknown, reservedRaw: unknown, ratio: unknown, amountRaw: unknown) => {
    const total = int(totalRaw);
    if (total <= 0) return; // nova-compute reports no inventory of nothing
    inv.set(rc, {
      total,
      reserved: int(reservedRaw),
      minUnit: 1,
      maxUnit: total,
      stepSize: 1,
      allocationRatio: Number(ratio),
    });
    const amount = int(amountRaw);
    if (amount > 0) used.set(rc, amount);
  };
  add("VCPU", h.vcpus, h.reserved_vcpus, h.cpu_allocation_ratio ?? 4.0, h.vcpus_used);
  add("MEMORY_MB", h.memory_mb, h.reserved_memory_mb, h.ram_allocation_ratio ?? 1.0, h.memory_mb_used);
  add("DISK_GB", h.local_gb, h.reserved_disk_gb, h.disk_allocation_ratio ?? 1.0, h.local_gb_used);
  if (int(h.pcpus) > 0) add("PCPU", h.pcpus, 0, 1.0, h.pcpus_used);
  for (const [rc, spec] of Object.entries(h.inventories ?? {})) {
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
  return { inv, used };
}

/** CUSTOM_* traits and resource classes named anywhere: created first, as an operator would. */
function customNames(scenario: Scenario): { traits: Set<string>; classes: Set<string> } {
  const traits = new Set<string>();
  const classes = new Set<string>();
  for (const h of scenario.hosts) {
    for (const t of h.traits ?? []) if (t.startsWith("CUSTOM_")) traits.add(t);
    for (const rc of Object.keys(h.inventories ?? {})) if (rc.startsWith("CUSTOM_")) classes.add(rc);
  }
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

function checkInventory(at: () => string, rc: string, inv: Inventory): void {
  const fields: Array<[string, number, number]> = [
    ["total", inv.total, 1],
    ["reserved", inv.reserved, 0],
    ["min_unit", inv.minUnit, 1],
    ["max_unit", inv.maxUnit, 1],
    ["step_size", inv.stepSize, 1],
  ];
  for (const [name, v, min] of fields) {
    if (v < min || v > MAX_INT) throw setupError(`${at()}: ${rc} ${name} ${v} is out of range (${min}..${MAX_INT})`);
  }
  if (!(inv.allocationRatio <= SQL_SP_FLOAT_MAX))
    throw setupError(`${at()}: ${rc} allocation_ratio ${inv.allocationRatio} is too large`);
  if (capacity(inv) < 0)
    throw setupError(`${at()}: ${rc} reserved ${inv.reserved} exceeds total ${inv.total} (Placement refuses it)`);
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
  const aggsByHost = new Map<string, string[]>();
  for (const a of scenario.aggregates ?? []) {
    const uuid = stableUuid(`agg-${a.name}`);
    for (const h of a.hosts ?? []) {
      let l = aggsByHost.get(h);
      if (!l) aggsByHost.set(h, (l = []));
      if (!l.includes(uuid)) l.push(uuid);
    }
  }
  // uuid5 of every name is only worth computing when an explicit uuid could
  // collide with one; otherwise equal names are the only way to share one.
  const explicit = scenario.hosts.some((h) => h.uuid);
  const seen = new Set<string>();
  const providers = scenario.hosts.map((h, i) => {
    const host = hosts[i];
    const key = explicit ? h.uuid || stableUuid(h.name) : h.name;
    if (seen.has(key)) throw setupError(`two compute nodes share the provider uuid ${h.uuid || stableUuid(h.name)}`);
    seen.add(key);
    const where = () => `hosts[${i}] (${h.name})`;
    const { inv, used } = hostInventories(h);
    for (const [rc, record] of inv) {
      if (!STANDARD_RC.has(rc) && !customResourceClasses.has(rc))
        throw setupError(`${where()}: unknown resource class ${rc}`);
      checkInventory(where, rc, record);
    }
    const traits = new Set(h.traits ?? []);
    if (host.service.disabled) traits.add("COMPUTE_STATUS_DISABLED");
    for (const t of traits)
      if (!STANDARD_TRAITS.has(t) && !customTraits.has(t) && !addedStandardTraits.has(t))
        throw setupError(`${where()}: unknown trait ${t}`);
    return {
      host,
      get uuid() {
        return h.uuid || stableUuid(h.name);
      },
      inventories: inv,
      used,
      traits,
      aggregates: new Set(aggsByHost.get(h.name) ?? []),
    } satisfies Provider;
  });
  return { providers, customTraits, customResourceClasses, addedStandardTraits };
}
