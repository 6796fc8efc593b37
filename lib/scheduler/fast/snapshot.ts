/**
 * A frozen scenario (the app's cached snapshot) cannot change, so what its
 * hosts and aggregates say is derived once and shared by every request
 * made on it: host states (copied per request, or shared until the consume
 * step copies one: HostState.shared), facts equal across hosts as one
 * object, metric values and NUMA summaries packed into one table each.
 * host-state.ts reads a scenario afresh; snapshot.test.ts holds the two to
 * the same answers on every fixture.
 */
import {
  type Aggregate,
  type AggregateKeys,
  type AggregateView,
  aggregateKeys,
  buildAggregates,
  buildHostState,
  deriveHostFacts,
  type HostFacts,
  type HostState,
  hostStatesOf,
  repeatedNames,
} from "../host-state";
import { buildNumaCells } from "../numa/host-topology";
import type { NUMACell } from "../numa/objects";
import type { Scenario, ScenarioHost } from "../scenario";

const FROZEN_AGGREGATE_KEYS = new WeakMap<object, AggregateKeys>();

function aggregateKeysOf(aggregates: Scenario["aggregates"]): AggregateKeys {
  const frozen = aggregates !== undefined && Object.isFrozen(aggregates);
  const cached = frozen ? FROZEN_AGGREGATE_KEYS.get(aggregates) : undefined;
  if (cached) return cached;
  const keys = aggregateKeys(aggregates);
  if (frozen) FROZEN_AGGREGATE_KEYS.set(aggregates, keys);
  return keys;
}

/** Each host's aggregate key, by position, for a frozen host list and aggregate list. */
const FROZEN_HOST_KEYS = new WeakMap<object, { aggregates: Scenario["aggregates"]; keys: string[] }>();

function hostKeysOf(scenario: Scenario): string[] {
  const frozen = Object.isFrozen(scenario.hosts) && Object.isFrozen(scenario.aggregates);
  const cached = frozen ? FROZEN_HOST_KEYS.get(scenario.hosts) : undefined;
  if (cached && cached.aggregates === scenario.aggregates) return cached.keys;
  const byName = aggregateKeysOf(scenario.aggregates);
  const keys = scenario.hosts.map((h) => byName.get(h.name) ?? "");
  if (frozen) FROZEN_HOST_KEYS.set(scenario.hosts, { aggregates: scenario.aggregates, keys });
  return keys;
}

/**
 * A frozen aggregate list's Aggregates and its AggregateViews by aggregate
 * key: the same objects from request to request, so that a frozen host's
 * state, which keeps its view, can serve every request (views keep only
 * what their aggregates say, and multipliers checked against the config).
 */
const FROZEN_VIEWS = new WeakMap<object, { aggs: Aggregate[]; views: Map<string, AggregateView> }>();

function viewsOf(aggregates: Scenario["aggregates"]): { aggs: Aggregate[]; views: Map<string, AggregateView> } {
  const frozen = aggregates !== undefined && Object.isFrozen(aggregates);
  let cached = frozen ? FROZEN_VIEWS.get(aggregates) : undefined;
  if (!cached) {
    cached = { aggs: buildAggregates(aggregates), views: new Map() };
    if (frozen) FROZEN_VIEWS.set(aggregates, cached);
  }
  return cached;
}

/**
 * buildHostStates, keeping what a frozen scenario (the app's snapshot)
 * says from request to request. A frozen host's state is derived once and copied for each
 * call; with `shared`, the derived state itself is returned, for a caller
 * that copies a host before changing it (HostState.shared, the engine's
 * consume step): a request at 10,000 hosts then allocates no host state at
 * all, where 10,000 copies set off a garbage collection every few requests.
 */
export function snapshotHostStates(scenario: Scenario, shared = false): HostState[] {
  const list = shared ? SHARED_LISTS.get(scenario.hosts) : undefined;
  if (list && list.aggregates === scenario.aggregates) {
    const states = list.states.slice();
    VIEW_COUNTS.set(states, list.views);
    return states;
  }
  const { aggs, views } = viewsOf(scenario.aggregates);
  const keys = hostKeysOf(scenario);
  const build = (h: ScenarioHost, index: number, view: AggregateView) => snapshotHostState(h, index, view, shared);
  const out = hostStatesOf(scenario.hosts, keys, aggs, views, repeatedOf(scenario.hosts), build);
  if (Object.isFrozen(scenario.hosts) && !PACKED.has(scenario.hosts)) {
    const templates = scenario.hosts.map((h) => FROZEN_STATES.get(h));
    packMetrics(templates);
    packNumaSummaries(templates);
    PACKED.add(scenario.hosts);
  }
  if (shared && Object.isFrozen(scenario.hosts) && Object.isFrozen(scenario.aggregates) && out.every((h) => h.shared)) {
    let count = 0;
    for (const h of out) count = Math.max(count, h.aggregates.id + 1);
    SHARED_LISTS.set(scenario.hosts, { aggregates: scenario.aggregates, states: out.slice(), views: count });
  }
  return out;
}

const REPEATED_NAMES = new WeakMap<object, ReadonlySet<string> | null>();

/** repeatedNames, once per frozen host list. */
function repeatedOf(hosts: ScenarioHost[]): ReadonlySet<string> | null {
  const frozen = Object.isFrozen(hosts);
  if (frozen && REPEATED_NAMES.has(hosts)) return REPEATED_NAMES.get(hosts)!;
  const repeated = repeatedNames(hosts);
  if (frozen) REPEATED_NAMES.set(hosts, repeated);
  return repeated;
}

/** A frozen host list's shared states, for its aggregate list: the next request takes the list whole. */
const SHARED_LISTS = new WeakMap<object, { aggregates: Scenario["aggregates"]; states: HostState[]; views: number }>();

/**
 * The aggregate view count (largest id + 1) of a host list handed out from
 * SHARED_LISTS: the weighing sizes its multiplier tables by it, and reading
 * 10,000 hosts' views for it per request cost ~4 % of a request.
 */
const VIEW_COUNTS = new WeakMap<HostState[], number>();

export const knownViewCount = (hosts: HostState[]): number | undefined => VIEW_COUNTS.get(hosts);

/** Frozen host lists whose templates' metric values and NUMA summaries are in one table each. */
const PACKED = new WeakSet<object>();

/** The metric values of a frozen host list's templates, moved into one table in host order (later copies share it). */
function packMetrics(templates: Array<HostState | undefined>): void {
  let size = 0;
  for (const t of templates) size += t ? t.metricNames.length : 0;
  const table = new Float64Array(size);
  let at = 0;
  for (const t of templates) {
    if (!t) continue;
    for (let i = 0; i < t.metricNames.length; i++) table[at + i] = t.metricTable[t.metricAt + i];
    t.metricTable = table;
    t.metricAt = at;
    at += t.metricNames.length;
  }
}

/** The NUMA fit summaries of a frozen host list's templates, copied into one table in host order. */
function packNumaSummaries(templates: Array<HostState | undefined>): void {
  let size = 0;
  for (const t of templates) if (t?.numaCells) size += t.numaFitFacts(t.numaCells).summary.length;
  const table = new Float64Array(size);
  let at = 0;
  for (const t of templates) {
    if (!t?.numaCells) continue;
    const summary = t.numaFitFacts(t.numaCells).summary;
    table.set(summary, at);
    t.numaTable = table;
    t.numaAt = at;
    t.summarized = t.numaCells;
    at += summary.length;
  }
}

/** A frozen scenario host's state, validated and derived once; requests read it or get copies. */
const FROZEN_STATES = new WeakMap<ScenarioHost, HostState>();

function snapshotHostState(h: ScenarioHost, index: number, view: AggregateView, shared: boolean): HostState {
  if (!Object.isFrozen(h)) return buildHostState(h, index, view, hostFacts(h, index), numaCellsOf);
  let template = FROZEN_STATES.get(h);
  if (!template || template.index !== index) {
    template = buildHostState(h, index, view, hostFacts(h, index), numaCellsOf);
    template.shared = true;
    // Made once for every request's copy (consuming replaces a copy's cells, and so its facts).
    if (template.numaCells) template.numaFitFacts(template.numaCells);
    FROZEN_STATES.set(h, template);
  }
  // (a template keeps the view of the aggregate list it was first built with)
  if (shared && template.aggregates === view) return template;
  // PCI pools are shared too: consuming copies them before taking devices
  const s = template.copyForRequest();
  s.aggregates = view;
  return s;
}

const FROZEN_NUMA_CELLS = new WeakMap<ScenarioHost, NUMACell[]>();

function numaCellsOf(h: ScenarioHost, field: string): NUMACell[] {
  const cells = h.numa_topology?.cells ?? [];
  if (!Object.isFrozen(h) || !Object.isFrozen(h.numa_topology)) return buildNumaCells(cells, field);
  let built = FROZEN_NUMA_CELLS.get(h);
  if (!built) FROZEN_NUMA_CELLS.set(h, (built = buildNumaCells(cells, field)));
  return built;
}

const FROZEN_HOST_FACTS = new WeakMap<ScenarioHost, HostFacts>();

function hostFacts(h: ScenarioHost, index: number): HostFacts {
  if (!Object.isFrozen(h)) return deriveHostFacts(h, index);
  let facts = FROZEN_HOST_FACTS.get(h);
  if (!facts) FROZEN_HOST_FACTS.set(h, (facts = shareEqualFacts(deriveHostFacts(h, index), h)));
  return facts;
}

/**
 * Facts of frozen hosts that read the same (the service's flags, the
 * supported instances, cpu_info, the names of the metrics) are one object for all of them: thousands
 * of hosts share a handful of such values, and filters that read them then
 * find them in the CPU's cache instead of one copy per host in memory.
 * None of them is ever changed in place.
 */
const EQUAL_FACTS = new Map<string, unknown>();

function shareEqualFacts(t: HostFacts, h: ScenarioHost): HostFacts {
  // A bound on what a long-running server keeps; the next facts start over.
  if (EQUAL_FACTS.size > 100_000) EQUAL_FACTS.clear();
  const one = <T>(key: string, v: T): T => {
    const seen = EQUAL_FACTS.get(key) as T | undefined;
    if (seen !== undefined) return seen;
    EQUAL_FACTS.set(key, v);
    return v;
  };
  const svc = t.service;
  t.service = one(`service\0${JSON.stringify([svc.disabled, svc.up, svc.forced_down, svc.disabled_reason])}`, svc);
  t.supportedInstances = one(`hv\0${JSON.stringify(t.supportedInstances)}`, t.supportedInstances);
  t.metricNames = one(`metrics\0${t.metricNames.join("\0")}`, t.metricNames);
  if (h.cpu_info) t.cpuInfoSource = one(`cpu_info\0${JSON.stringify(h.cpu_info)}`, t.cpuInfoSource);
  return t;
}
