/**
 * NoValidHost, in words an operator can act on: which stage removed the last
 * hosts, grouped by reason, and what to change (in the cloud, the flavor, the
 * request or the profile) so that some host passes. Pure.
 */
import { errorTitle } from "./error-words";
import type { FunnelStep, ScheduleResult } from "@/lib/scheduler/result";
import { type FilterKnowledge, KNOWLEDGE } from "@/lib/scheduler/knowledge";
import type { PrefilterName } from "@/lib/scheduler/names";
import type { ReasonCode } from "@/lib/scheduler/reasons";
import type { ScenarioRequest } from "@/lib/scheduler/scenario";
import { fmtStage } from "./format";

export interface ReasonCount {
  reason: string;
  count: number;
  /** The reason's stable code (e.g. "VCPU_SHORT"); absent in results stored before codes. */
  code?: string;
}

export interface DiagnosisView {
  kind: "no-valid-host" | "error";
  /** "NoValidHost" or Nova's error name */
  error: string;
  /** the engine's one-line summary, e.g. "0/200 hosts available: 10 compute service disabled, ..." */
  summary: string;
  /** the stage that removed the last hosts */
  lastFilter: string | null;
  /** 1-based instance number that could not be placed */
  instance: number;
  /** hosts the last stage removed, by reason */
  lastReasons: ReasonCount[];
  /** "The last hosts were removed by X: ..." */
  explanation: string;
  /** what to change, most likely first */
  advice: string[];
}

/** Identical reasons (same code, same message) counted together, most frequent first (ties: first seen first). */
export function groupReasons(reasons: readonly string[], codes?: readonly string[]): ReasonCount[] {
  const counts = new Map<string, ReasonCount>();
  reasons.forEach((reason, i) => {
    const key = codes?.[i] ? `${codes[i]}\u0000${reason}` : reason;
    const g = counts.get(key);
    if (g) g.count++;
    else counts.set(key, codes?.[i] ? { reason, count: 1, code: codes[i] } : { reason, count: 1 });
  });
  return [...counts.values()].sort((a, b) => b.count - a.count);
}

/** A retired Placement prefilter's stage: the code of results stored before every stage had its own. */
type AdviceCode = ReasonCode | `placement:${PrefilterName}`;

/** Whether a group has one of `codes` (typed, so a misspelt code fails to compile). */
const hasCode = (groups: readonly ReasonCount[], ...codes: AdviceCode[]) =>
  groups.some((g) => g.code !== undefined && (codes as string[]).includes(g.code));

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "missing aggregate metadata gpu=true (15 hosts); ..." (at most `max` groups). */
export function describeReasons(groups: readonly ReasonCount[], max = 3): string {
  const shown = groups.slice(0, max).map((g) => `${g.reason} (${plural(g.count, "host")})`);
  const rest = groups.slice(max).reduce((s, g) => s + g.count, 0);
  if (rest) shown.push(`other reasons (${plural(rest, "host")})`);
  return shown.join("; ");
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

type AdviceFn = (groups: ReasonCount[], req: ScenarioRequest | undefined) => string[];

const flavorName = (req: ScenarioRequest | undefined) =>
  req?.flavor?.name ? `flavor ${req.flavor.name}` : "the flavor";

/** The flavor's extra specs under `prefix` ("aggregate_instance_extra_specs:", "trait:"), as [key, value]. */
function flavorSpecs(req: ScenarioRequest | undefined, prefix: string): Array<[string, string]> {
  return Object.entries(req?.flavor?.extra_specs ?? {})
    .filter(([k]) => k.startsWith(prefix))
    .map(([k, v]) => [k.slice(prefix.length), String(v)]);
}

const enableHosts: AdviceFn = (groups) => {
  const out: string[] = [];
  if (hasCode(groups, "DISABLED"))
    out.push(
      "Re-enable a host that has capacity: openstack compute service set --enable HOST nova-compute (check its disabled reason first).",
    );
  if (hasCode(groups, "DOWN"))
    out.push("Bring nova-compute back up on a down host (or clear forced_down) so it reports again.");
  if (!out.length) out.push("Enable or bring up the compute service of a host with capacity.");
  out.push("Or add compute hosts to the cloud.");
  return out;
};

const availabilityZone: AdviceFn = (_groups, req) => {
  const az = req?.availability_zone;
  return [
    az
      ? `No host with capacity is left in availability zone ${az}: request another zone (or none), or add hosts to an aggregate whose availability_zone is ${az}.`
      : "Request another availability zone (or none), or add hosts to the requested zone's aggregate.",
  ];
};

/** What the flavor asks of aggregates, read from the request (never from the reasons' text). */
const aggregateExtraSpecs: AdviceFn = (_groups, req) => {
  const wanted = flavorSpecs(req, "aggregate_instance_extra_specs:").map(([k, v]) => `${k}=${v}`);
  if (!wanted.length)
    return [
      `Make an aggregate's metadata match the extra specs of ${flavorName(req)} (AggregateInstanceExtraSpecsFilter also reads unscoped ones), or relax those extra specs.`,
    ];
  const keys = uniq(wanted.map((kv) => kv.split("=")[0]));
  return [
    `Add ${wanted.join(", ")} to the metadata of an aggregate whose hosts have capacity (openstack aggregate set --property ${wanted[0]} AGGREGATE), or add hosts with capacity to the aggregate that has it.`,
    `Or remove ${keys.map((k) => `aggregate_instance_extra_specs:${k}`).join(", ")} from ${flavorName(req)}, or pick another flavor.`,
  ];
};

/** The flavor's trait: extra specs and the image's traits_required, from the request. */
const traits: AdviceFn = (groups, req) => {
  const specs = flavorSpecs(req, "trait:");
  const imageTraits = req?.image?.properties?.traits_required;
  const missing = uniq([
    ...specs.filter(([, v]) => v === "required").map(([t]) => t),
    ...(Array.isArray(imageTraits) ? imageTraits.map(String) : []),
  ]);
  const forbidden = specs.filter(([, v]) => v === "forbidden").map(([t]) => t);
  const out: string[] = [];
  if (missing.length && hasCode(groups, "TRAIT_MISSING", "placement:traits"))
    out.push(
      `Add trait ${missing.join(", ")} to hosts that have it (openstack resource provider trait set --trait ${missing[0]} RP_UUID), or stop requiring it in ${flavorName(req)} or the image.`,
    );
  if (forbidden.length && hasCode(groups, "TRAIT_FORBIDDEN", "placement:traits"))
    out.push(
      `Remove ${forbidden.map((t) => `trait:${t}=forbidden`).join(", ")} from ${flavorName(req)}, or use hosts without ${forbidden.join(", ")}.`,
    );
  if (!out.length)
    out.push(
      `Make the hosts' traits match the trait: extra specs of ${flavorName(req)} and the image's required traits (openstack resource provider trait set), or relax them.`,
    );
  return out;
};

const resources: AdviceFn = (groups) => {
  const classes = uniq(groups.flatMap((g) => (g.code?.endsWith("_SHORT") ? [g.code.slice(0, -6)] : [])));
  return [
    `No host has room for the flavor${classes.length ? ` (short of ${classes.join(", ")})` : ""}: free capacity (migrate or delete instances), raise the allocation ratio of hosts, add hosts, or use a smaller flavor.`,
  ];
};

const tenants: AdviceFn = (_g, req) => [
  `The remaining hosts are in aggregates reserved for other projects (filter_tenant_id): use a project they allow${req?.project_id ? ` instead of ${req.project_id}` : ""}, or add the project to an aggregate's filter_tenant_id.`,
];
const tenantAggregates: AdviceFn = (_g, req) => [
  `Add ${req?.project_id ?? "the project"} to the filter_tenant_id of an aggregate with capacity (the whole value must equal the project id), or turn off limit_tenants_to_placement_aggregate.`,
];
const capabilities: AdviceFn = (_g, req) => [
  `No host matches the capabilities: extra specs of ${flavorName(req)} (see the reasons). Relax those extra specs, or use hosts whose hypervisor and CPU match them.`,
];
const antiAffinityThisRequest: AdviceFn = (_, req) => {
  const n = Number(req?.num_instances ?? 1);
  return [
    `The request's own instances are members of its anti-affinity group (nova-api adds them before scheduling), so a request for ${n} instances needs at least ${n} ÷ max_server_per_host hosts that pass the other filters: boot fewer at once, add hosts, raise the group's max_server_per_host rule, or use a soft-anti-affinity group.`,
  ];
};

/**
 * Advice whose words depend on the request or on the groups, per reason
 * code; every other code's advice is its filter's descriptor's (`advice`),
 * and Placement's stages (not filters) are worded here. The retired
 * prefilter stages are codes too: results stored before filters had their
 * own codes carry them.
 */
const REQUEST_ADVICE: Partial<Record<AdviceCode, AdviceFn>> = {
  DISABLED: enableHosts,
  DOWN: enableHosts,
  WRONG_AVAILABILITY_ZONE: availabilityZone,
  NOT_IN_AVAILABILITY_ZONE: availabilityZone,
  AGGREGATE_EXTRA_SPEC_MISSING: aggregateExtraSpecs,
  AGGREGATE_EXTRA_SPEC_MISMATCH: aggregateExtraSpecs,
  TENANT_NOT_ALLOWED: tenants,
  NOT_IN_TENANT_AGGREGATE: tenantAggregates,
  CAPABILITY_MISSING: capabilities,
  CAPABILITY_MISMATCH: capabilities,
  ANTI_AFFINITY_THIS_REQUEST: antiAffinityThisRequest,
  TRAIT_MISSING: traits,
  TRAIT_FORBIDDEN: traits,
  RESOURCE_UNIT: resources,
  ISOLATED_AGGREGATE: () => [
    "Hosts in aggregates with trait:X=required metadata take only requests that require X: require it, or move hosts out.",
  ],
  NOT_IN_CANDIDATE_LIMIT: () => [
    "Placement returned only the first max_placement_results candidates: raise max_placement_results in the profile so the scheduler sees more hosts.",
  ],
  PLACEMENT_REFUSED: () => [
    "Placement refused the query (see the reason): fix the trait or resource class names the flavor or image asks for.",
  ],
  GROUP_POLICY: () => [
    "group_policy=isolate needs one provider per numbered group: use group_policy=none, or fewer numbered groups.",
  ],
  "placement:compute_status": enableHosts,
  "placement:availability_zone": availabilityZone,
  "placement:traits": traits,
  "placement:resources": resources,
  "placement:tenant_aggregates": tenantAggregates,
};

/** The advice of one set of filter descriptors (the registry's, or a test's), per code. */
function adviceIndex(k: FilterKnowledge): (code: string) => AdviceFn | undefined {
  const fixed = new Map<string, AdviceFn>();
  const fixedFor = (code: string): AdviceFn | undefined => {
    const words = k.adviceByCode.get(code);
    if (words === undefined) return undefined;
    let fn = fixed.get(words);
    if (!fn) fixed.set(words, (fn = () => [words]));
    return fn;
  };
  const ofCode = (code: string): AdviceFn | undefined =>
    (Object.hasOwn(REQUEST_ADVICE, code) ? REQUEST_ADVICE[code as AdviceCode] : undefined) ??
    fixedFor(code) ??
    (code.endsWith("_SHORT") ? resources : undefined);
  // A result stored before codes names the filter: the advice of its first code that has one.
  return (code) => {
    const direct = ofCode(code);
    if (direct) return direct;
    for (const c of k.codesOf.get(code) ?? []) {
      const fn = ofCode(c);
      if (fn) return fn;
    }
    return undefined;
  };
}

const REGISTRY_ADVICE = adviceIndex(KNOWLEDGE);

/** The advice of every code among the groups, most frequent code first, each piece once. */
function adviceOf(
  groups: ReasonCount[],
  req: ScenarioRequest | undefined,
  adviceFor: (code: string) => AdviceFn | undefined,
): string[] {
  const out: string[] = [];
  const seen = new Set<AdviceFn>();
  for (const code of uniq(groups.map((g) => g.code ?? ""))) {
    const fn = adviceFor(code);
    if (!fn || seen.has(fn)) continue;
    seen.add(fn);
    for (const a of fn(groups, req)) if (!out.includes(a)) out.push(a);
  }
  return out;
}

/**
 * The failure of a run explained, or null when it succeeded. `knowledge`
 * is the registry's filters unless a test brings its own.
 */
export function explainFailure(
  result: ScheduleResult,
  request?: ScenarioRequest,
  knowledge?: FilterKnowledge,
): DiagnosisView | null {
  if (!result.error) return null;
  if (result.error !== "NoValidHost") {
    return {
      kind: "error",
      error: result.error,
      summary: result.message ?? errorTitle(result.error),
      lastFilter: null,
      instance: 1,
      lastReasons: [],
      explanation: `${errorTitle(result.error)}${result.message ? `: ${result.message}` : "."}`,
      advice: [
        "This is Nova's own error for this input: fix the value it names (in the request, the profile or the cloud) and run again.",
      ],
    };
  }
  const d = result.diagnosis;
  const index = d?.index ?? Math.max(result.requests.length - 1, 0);
  const req = result.requests[index];
  const total = req?.funnel.length ? req.funnel[0].in : 0;
  let last: FunnelStep | undefined;
  if (req) {
    for (let k = req.funnel.length - 1; k >= 0; k--) {
      const f = req.funnel[k];
      if (f.out === 0 && (!d?.lastFilter || f.filter === d.lastFilter)) {
        last = f;
        break;
      }
    }
  }
  const summary = d?.summary ?? `0/${total} hosts available`;
  const instance = index + 1;
  const nth = result.requests.length > 1 || (request?.num_instances ?? 1) > 1 ? ` for instance ${instance}` : "";
  if (!req || total === 0 || !last) {
    return {
      kind: "no-valid-host",
      error: "NoValidHost",
      summary,
      lastFilter: last?.filter ?? d?.lastFilter ?? null,
      instance,
      lastReasons: [],
      explanation:
        total === 0 ? "No compute host entered the scheduler: the cloud has no hosts." : `No host was left${nth}.`,
      advice: [
        total === 0
          ? "Add compute hosts (seed or import a cloud)."
          : "Relax the request, or change the cloud so that some host passes every filter.",
      ],
    };
  }
  // Results from before reason codes: the stage's name is the code.
  const codes = last.codes ?? (last.reasons ?? []).map(() => last.filter);
  const groups = groupReasons(last.reasons ?? [], codes);
  const removed = last.in - last.out;
  const stage = fmtStage(last.filter);
  const explanation =
    `The last ${removed === 1 ? "host" : plural(removed, "host")}${nth} ${removed === 1 ? "was" : "were"} removed by ${stage}` +
    (groups.length ? `: ${describeReasons(groups)}.` : ".");
  const advice = adviceOf(groups, request, knowledge ? adviceIndex(knowledge) : REGISTRY_ADVICE);
  if (!advice.length)
    advice.push(
      `Change the cloud, the flavor or the request so that some host passes ${stage} (the reasons say what each host lacks).`,
    );
  const beyondLimit: ReasonCode = "NOT_IN_CANDIDATE_LIMIT";
  const cut = (req.funnel[0]?.codes ?? []).filter((c) => c === beyondLimit).length;
  if (cut && last.filter !== "Placement") {
    advice.push(
      `${plural(cut, "host")} matched Placement but ${cut === 1 ? "was" : "were"} never considered (beyond max_placement_results): raise max_placement_results in the profile.`,
    );
  }
  if (index > 0) {
    advice.push(
      `The first ${plural(index, "instance")} found a host: request fewer instances (${index}) or make room for the rest.`,
    );
  }
  return {
    kind: "no-valid-host",
    error: "NoValidHost",
    summary,
    lastFilter: last.filter,
    instance,
    lastReasons: groups,
    explanation,
    advice,
  };
}
