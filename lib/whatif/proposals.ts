/**
 * What would let a rejected host pass: candidate changes to the cloud per
 * rejecting filter (enable the compute service, add the host to an
 * aggregate, set aggregate metadata the flavor asks for or a larger
 * max_io_ops_per_host, raise an allocation ratio, add a trait the request
 * requires), each tried by
 * scheduling the run's scenario again with the change made. A change that
 * only moves the rejection to a later filter is extended there (up to
 * three changes); only changes after which the host survives every filter
 * are proposed. Pure: the scenario in, proposals out.
 */
import { schedule } from "@/lib/scheduler/engine";
import { toResult, type RequestResult } from "@/lib/scheduler/result";
import type { Scenario } from "@/lib/scheduler/scenario";
import { scheduledFlavor } from "@/lib/runs/move-request";
import { flavorAmounts } from "@/lib/cloud/usage";

/** The allocation ratio of each Placement class a host reports, as nova.conf names it. */
const RATIO_FIELD = {
  VCPU: "cpu_allocation_ratio",
  MEMORY_MB: "ram_allocation_ratio",
  DISK_GB: "disk_allocation_ratio",
} as const;
type RatioClass = keyof typeof RATIO_FIELD;

export type Change =
  | { kind: "enable-service"; host: string }
  | { kind: "add-to-aggregate"; host: string; aggregate: string }
  /** `was`: the key's value now, which this replaces (a set, never a second key) */
  | { kind: "set-metadata"; aggregate: string; key: string; value: string; was?: string }
  /** nova.conf's allocation ratio of the host (its Placement inventory's allocation_ratio) */
  | { kind: "set-ratio"; host: string; resource: RatioClass; value: number; was: number }
  /** a trait on the host's compute node resource provider */
  | { kind: "add-trait"; host: string; trait: string };

/** The changes the page applies itself (audited writes); the others are made on the cloud (nova.conf, Placement). */
export function appliedHere(c: Change): boolean {
  return c.kind === "enable-service" || c.kind === "add-to-aggregate" || c.kind === "set-metadata";
}

export interface Rejection {
  filter: string;
  reason: string;
  /** the reason's stable code (e.g. VCPU_SHORT, TRAIT_MISSING) */
  code?: string;
}

/** What still blocks a host when no change lets it pass: the rejection, met after `after` (described changes). */
export interface Blocker extends Rejection {
  after: string[];
}

export interface Proposal {
  changes: Change[];
  /** The rejections the changes answer, in the order they were met. */
  answers: Rejection[];
}

export interface WhatIf {
  host: string;
  /** Where the host fell out in the run (null: it was not rejected). */
  rejection: Rejection | null;
  proposals: Proposal[];
  /** Rejections no change of these kinds answers, each after the changes that led to it, for the text. */
  unanswered: Blocker[];
}

const MAX_STEPS = 3;
const MAX_PROPOSALS = 5;

export function describeChange(c: Change): string {
  if (c.kind === "enable-service") return `enable the compute service on ${c.host}`;
  if (c.kind === "add-to-aggregate") return `add ${c.host} to aggregate ${c.aggregate}`;
  if (c.kind === "set-ratio")
    return `set ${RATIO_FIELD[c.resource]} = ${c.value} on ${c.host} (now ${c.was}; nova.conf [DEFAULT], read into its ${c.resource} inventory's allocation_ratio)`;
  if (c.kind === "add-trait") return `add trait ${c.trait} to ${c.host}'s resource provider`;
  const replacing = c.was !== undefined && c.was !== c.value ? ` (replacing ${c.key}=${c.was})` : "";
  return `set aggregate ${c.aggregate} metadata ${c.key}=${c.value}${replacing}`;
}

/** The scenario with the changes made (a copy). */
export function applyChanges(scenario: Scenario, changes: Change[]): Scenario {
  const sc = structuredClone(scenario);
  for (const c of changes) {
    if (c.kind === "enable-service") {
      const h = sc.hosts.find((x) => x.name === c.host);
      if (h) h.service = { ...(h.service ?? {}), disabled: false, disabled_reason: null };
    } else if (c.kind === "add-to-aggregate") {
      const a = sc.aggregates?.find((x) => x.name === c.aggregate);
      if (a && !(a.hosts ?? []).includes(c.host)) a.hosts = [...(a.hosts ?? []), c.host];
    } else if (c.kind === "set-ratio") {
      for (const h of sc.hosts) if (h.name === c.host) h[RATIO_FIELD[c.resource]] = c.value;
    } else if (c.kind === "add-trait") {
      for (const h of sc.hosts)
        if (h.name === c.host && !(h.traits ?? []).includes(c.trait)) h.traits = [...(h.traits ?? []), c.trait];
    } else {
      const a = sc.aggregates?.find((x) => x.name === c.aggregate);
      if (a) {
        if (c.key === "availability_zone") a.availability_zone = c.value;
        else a.metadata = { ...(a.metadata ?? {}), [c.key]: c.value };
      }
    }
  }
  return sc;
}

/** Where `host` fell out of instance `index`, or null when it survived (or the request failed before). */
export function rejectionOf(req: RequestResult | undefined, host: string): Rejection | null {
  for (const step of req?.funnel ?? []) {
    const i = (step.rejected ?? []).indexOf(host);
    if (i >= 0) {
      const code = step.codes?.[i];
      return { filter: step.filter, reason: step.reasons?.[i] ?? "", ...(code ? { code } : {}) };
    }
  }
  return null;
}

export function passes(scenario: Scenario, host: string, index: number): boolean {
  const req = toResult(schedule(scenario)).requests[index];
  return !!req?.weighed.some((w) => w.host === host);
}

// An extra-spec value that is a plain value (no operator): setting it satisfies the spec.
const PLAIN = /^(?!<|s==|s!=|s>=|s<=|s>|s<|==|!=|>=|<=|=)\S.*$/;

/** Candidate changes for one rejection, smallest first. */
function candidates(scenario: Scenario, host: string, r: Rejection): Change[] {
  const out: Change[] = [];
  // Setting metadata changes every host of the aggregate: tried after changes to this host alone.
  const wider: Change[] = [];
  const h = scenario.hosts.find((x) => x.name === host);
  const aggs = scenario.aggregates ?? [];
  const mine = aggs.filter((a) => (a.hosts ?? []).includes(host));
  const others = aggs.filter((a) => !(a.hosts ?? []).includes(host));
  const f = r.filter;
  // Placement refuses a disabled compute first (compute_status_filter: !COMPUTE_STATUS_DISABLED)
  if ((f === "ComputeFilter" || f === "Placement" || f === "placement:compute_status") && h?.service?.disabled) {
    out.push({ kind: "enable-service", host });
  }
  if (f === "AggregateInstanceExtraSpecsFilter") {
    // a move other than a resize schedules the instance's own flavor
    const flavor = scheduledFlavor(scenario.request);
    const specs = Object.entries(flavor?.extra_specs ?? {})
      .map(([k, v]) => {
        const i = k.indexOf(":");
        if (i >= 0 && k.slice(0, i) !== "aggregate_instance_extra_specs") return null;
        return { key: i >= 0 ? k.slice(i + 1) : k, value: String(v) };
      })
      .filter((s): s is { key: string; value: string } => s !== null && PLAIN.test(s.value.trim()));
    // the host's smallest aggregate: the change touches the fewest other hosts
    const target = [...mine].sort((a, b) => (a.hosts ?? []).length - (b.hosts ?? []).length)[0];
    if (target)
      for (const s of specs) {
        const was = target.metadata?.[s.key];
        wider.push({
          kind: "set-metadata",
          aggregate: target.name,
          key: s.key,
          value: s.value.trim(),
          ...(was !== undefined ? { was: String(was) } : {}),
        });
      }
  }
  if (f === "AggregateIoOpsFilter" && h) {
    // the smallest max_io_ops_per_host of its aggregates binds (else the config's): the host needs one more
    const set = mine.filter((a) => a.metadata?.max_io_ops_per_host !== undefined);
    const binding = [...set].sort(
      (a, b) => Number(a.metadata?.max_io_ops_per_host) - Number(b.metadata?.max_io_ops_per_host),
    )[0];
    const target = binding ?? [...mine].sort((a, b) => (a.hosts ?? []).length - (b.hosts ?? []).length)[0];
    if (target) {
      const was = target.metadata?.max_io_ops_per_host;
      wider.push({
        kind: "set-metadata",
        aggregate: target.name,
        key: "max_io_ops_per_host",
        value: String(Math.trunc(Number(h.num_io_ops ?? 0)) + 1),
        ...(was !== undefined ? { was: String(was) } : {}),
      });
    }
  }
  const rc = r.code?.endsWith("_SHORT") ? r.code.slice(0, -"_SHORT".length) : null;
  if (h && rc && rc in RATIO_FIELD) {
    const flavor = scheduledFlavor(scenario.request);
    const need = flavor ? (flavorAmounts(flavor, h).get(rc) ?? 0) : 0;
    const cls = rc as RatioClass;
    const total = Number(cls === "VCPU" ? h.vcpus : cls === "MEMORY_MB" ? h.memory_mb : h.local_gb) || 0;
    const reserved =
      Number(cls === "VCPU" ? h.reserved_vcpus : cls === "MEMORY_MB" ? h.reserved_memory_mb : h.reserved_disk_gb) || 0;
    const used = Number(cls === "VCPU" ? h.vcpus_used : cls === "MEMORY_MB" ? h.memory_mb_used : h.local_gb_used) || 0;
    const was = Number(h[RATIO_FIELD[cls]] ?? (cls === "VCPU" ? 4.0 : 1.0));
    // the smallest ratio (to 0.1) whose capacity holds what is used plus the request; max_unit is the total
    const value = total > reserved ? Math.ceil(((used + need) / (total - reserved)) * 10) / 10 : 0;
    if (need > 0 && need <= total && value > was) wider.push({ kind: "set-ratio", host, resource: cls, value, was });
  }
  if (r.code === "TRAIT_MISSING" && h) {
    const trait = /lacks trait (\S+)/.exec(r.reason)?.[1];
    if (trait) wider.push({ kind: "add-trait", host, trait });
  }
  if (f === "AvailabilityZoneFilter" || f === "placement:availability_zone") {
    const az = scenario.request.availability_zone;
    // A host is in one zone: only a host without one can join another zone's aggregate.
    if (az && !mine.some((a) => a.availability_zone)) {
      for (const a of others)
        if (a.availability_zone === az) out.push({ kind: "add-to-aggregate", host, aggregate: a.name });
    }
  }
  if (
    f.startsWith("Aggregate") ||
    f === "placement:tenant_aggregates" ||
    f === "placement:traits" ||
    f === "IsolatedHostsFilter"
  ) {
    const hasZone = mine.some((a) => a.availability_zone);
    for (const a of [...others].sort((x, y) => (x.hosts ?? []).length - (y.hosts ?? []).length)) {
      if (a.availability_zone && hasZone) continue;
      out.push({ kind: "add-to-aggregate", host, aggregate: a.name });
    }
  }
  return [...out, ...wider];
}

const same = (a: Change, b: Change) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Proposals for `host` in instance `index` of the scenario, each verified:
 * with its changes made, the host survives every filter.
 */
export function whatWouldLetItPass(scenario: Scenario, host: string, index = 0): WhatIf {
  const base = toResult(schedule(scenario)).requests[index];
  const rejection = rejectionOf(base, host);
  const out: WhatIf = { host, rejection, proposals: [], unanswered: [] };
  if (!rejection) return out;
  // Breadth-first over change lists, so fewer changes come first.
  let frontier: Array<{ changes: Change[]; answers: Rejection[]; rejection: Rejection }> = [
    { changes: [], answers: [], rejection },
  ];
  for (let step = 0; step < MAX_STEPS && frontier.length && out.proposals.length < MAX_PROPOSALS; step++) {
    const next: typeof frontier = [];
    for (const node of frontier) {
      const sc = applyChanges(scenario, node.changes);
      const cands = candidates(sc, host, node.rejection);
      if (!cands.length && !out.unanswered.some((u) => u.filter === node.rejection.filter))
        out.unanswered.push({ ...node.rejection, after: node.changes.map(describeChange) });
      for (const c of cands) {
        if (node.changes.some((x) => same(x, c))) continue;
        const changes = [...node.changes, c];
        const req = toResult(schedule(applyChanges(scenario, changes))).requests[index];
        const answers = [...node.answers, node.rejection];
        if (req?.weighed.some((w) => w.host === host)) {
          if (out.proposals.length < MAX_PROPOSALS) out.proposals.push({ changes, answers });
          continue;
        }
        const again = rejectionOf(req, host);
        // Progress only: the host must now fall out later than before.
        if (again && (again.filter !== node.rejection.filter || again.code !== node.rejection.code))
          next.push({ changes, answers, rejection: again });
      }
    }
    frontier = next.slice(0, 20);
  }
  return out;
}
