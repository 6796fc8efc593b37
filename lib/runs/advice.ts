/**
 * NoValidHost, in words an operator can act on: which stage removed the last
 * hosts, grouped by reason, and what to change (in the cloud, the flavor, the
 * request or the profile) so that some host passes. Pure.
 */
import type { FunnelStep, ScheduleResult } from "@/lib/scheduler/result";
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

/** Identical reasons counted together, most frequent first (ties: first seen first). */
export function groupReasons(reasons: readonly string[], codes?: readonly string[]): ReasonCount[] {
  const counts = new Map<string, ReasonCount>();
  reasons.forEach((reason, i) => {
    const g = counts.get(reason);
    if (g) g.count++;
    else counts.set(reason, codes?.[i] ? { reason, count: 1, code: codes[i] } : { reason, count: 1 });
  });
  return [...counts.values()].sort((a, b) => b.count - a.count);
}

const hasCode = (groups: readonly ReasonCount[], test: (code: string) => boolean) =>
  groups.some((g) => g.code !== undefined && test(g.code));

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

function captures(groups: readonly ReasonCount[], re: RegExp): string[][] {
  const out: string[][] = [];
  for (const g of groups) {
    const m = re.exec(g.reason);
    if (m) out.push(m.slice(1));
  }
  return out;
}

type AdviceFn = (groups: ReasonCount[], req: ScenarioRequest | undefined) => string[];

const enableHosts: AdviceFn = (groups) => {
  const coded = groups.some((g) => g.code);
  const disabled = coded ? hasCode(groups, (c) => c === "DISABLED") : groups.some((g) => /disabled/i.test(g.reason));
  const down = coded ? hasCode(groups, (c) => c === "DOWN") : groups.some((g) => /down/i.test(g.reason));
  const out: string[] = [];
  if (disabled)
    out.push(
      "Re-enable a host that has capacity: openstack compute service set --enable HOST nova-compute (check its disabled reason first).",
    );
  if (down) out.push("Bring nova-compute back up on a down host (or clear forced_down) so it reports again.");
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

const aggregateExtraSpecs: AdviceFn = (groups, req) => {
  const wanted = uniq([
    ...captures(groups, /^missing aggregate metadata ([^=]+)=(.*)$/).map(([k, v]) => `${k}=${v}`),
    ...captures(groups, /^aggregate metadata ([^=]+)=.* not matching (.*)$/).map(([k, v]) => `${k}=${v}`),
  ]);
  const flavor = req?.flavor?.name ? `flavor ${req.flavor.name}` : "the flavor";
  if (!wanted.length)
    return [
      `Make an aggregate's metadata match the aggregate_instance_extra_specs of ${flavor}, or relax those extra specs.`,
    ];
  const keys = uniq(wanted.map((kv) => kv.split("=")[0]));
  return [
    `Add ${wanted.join(", ")} to the metadata of an aggregate whose hosts have capacity (openstack aggregate set --property ${wanted[0]} AGGREGATE), or add hosts with capacity to the aggregate that has it.`,
    `Or remove ${keys.map((k) => `aggregate_instance_extra_specs:${k}`).join(", ")} from ${flavor}, or pick another flavor.`,
  ];
};

const traits: AdviceFn = (groups, req) => {
  const missing = uniq(captures(groups, /^missing required trait (\S+)/).map(([t]) => t));
  const forbidden = uniq(captures(groups, /^forbidden trait (\S+) present/).map(([t]) => t));
  const flavor = req?.flavor?.name ? `flavor ${req.flavor.name}` : "the flavor";
  const out: string[] = [];
  if (missing.length) {
    out.push(
      `Add trait ${missing.join(", ")} to hosts that have it (openstack resource provider trait set --trait ${missing[0]} RP_UUID), or remove ${missing.map((t) => `trait:${t}=required`).join(", ")} from ${flavor}.`,
    );
  }
  if (forbidden.length)
    out.push(
      `Remove ${forbidden.map((t) => `trait:${t}=forbidden`).join(", ")} from ${flavor}, or use hosts without ${forbidden.join(", ")}.`,
    );
  if (!out.length) out.push(`Make the hosts' traits match the trait: extra specs of ${flavor}.`);
  return out;
};

const resources: AdviceFn = (groups) => {
  const classes = uniq(
    groups.flatMap((g) =>
      g.code ? (g.code.endsWith("_SHORT") ? [g.code.slice(0, -6)] : []) : [g.reason.split(":")[0]],
    ),
  ).filter((c) => /^[A-Z_]+$/.test(c));
  return [
    `No host has room for the flavor${classes.length ? ` (short of ${classes.join(", ")})` : ""}: free capacity (migrate or delete instances), raise the allocation ratio of hosts, add hosts, or use a smaller flavor.`,
  ];
};

/** What Placement removed, by the codes of its reasons (never its text). */
const placement: AdviceFn = (groups, req) => {
  const out: string[] = [];
  const by = (test: (code: string) => boolean) => groups.filter((g) => g.code !== undefined && test(g.code));
  if (by((c) => c.endsWith("_SHORT") || c === "RESOURCE_UNIT").length) out.push(...resources(groups, req));
  if (by((c) => c === "DISABLED").length)
    out.push(
      ...enableHosts(
        by((c) => c === "DISABLED"),
        req,
      ).slice(0, 1),
    );
  if (by((c) => c === "TRAIT_MISSING" || c === "TRAIT_FORBIDDEN").length)
    out.push(
      `Make the hosts' traits match the trait: extra specs of ${req?.flavor?.name ? `flavor ${req.flavor.name}` : "the flavor"} and the image's required traits (openstack resource provider trait set), or relax them.`,
    );
  if (by((c) => c === "NOT_IN_AVAILABILITY_ZONE").length) out.push(...availabilityZone(groups, req));
  if (by((c) => c === "NOT_IN_TENANT_AGGREGATE").length)
    out.push(
      `Add ${req?.project_id ?? "the project"} to the filter_tenant_id of an aggregate with capacity (the whole value must equal the project id), or turn off limit_tenants_to_placement_aggregate.`,
    );
  if (by((c) => c === "ISOLATED_AGGREGATE").length)
    out.push(
      "Hosts in aggregates with trait:X=required metadata take only requests that require X: require it, or move hosts out.",
    );
  if (by((c) => c === "NOT_IN_CANDIDATE_LIMIT").length)
    out.push(
      "Placement returned only the first max_placement_results candidates: raise max_placement_results in the profile so the scheduler sees more hosts.",
    );
  if (by((c) => c === "PLACEMENT_REFUSED").length)
    out.push(
      "Placement refused the query (see the reason): fix the trait or resource class names the flavor or image asks for.",
    );
  if (by((c) => c === "GROUP_POLICY").length)
    out.push(
      "group_policy=isolate needs one provider per numbered group: use group_policy=none, or fewer numbered groups.",
    );
  if (!out.length) out.push("Change the cloud, the flavor or the request so that Placement returns some host.");
  return out;
};

const ADVICE: Record<string, AdviceFn> = {
  Placement: placement,
  ComputeFilter: enableHosts,
  "placement:compute_status": enableHosts,
  AvailabilityZoneFilter: availabilityZone,
  "placement:availability_zone": availabilityZone,
  AggregateInstanceExtraSpecsFilter: aggregateExtraSpecs,
  "placement:traits": traits,
  "placement:resources": resources,
  ComputeCapabilitiesFilter: (_g, req) => [
    `No host matches the capabilities: extra specs of ${req?.flavor?.name ? `flavor ${req.flavor.name}` : "the flavor"} (see the reasons). Relax those extra specs, or use hosts whose hypervisor and CPU match them.`,
  ],
  ImagePropertiesFilter: () => [
    "No host supports the image's architecture, hypervisor type or VM mode (hw_architecture, img_hv_type, hw_vm_mode): pick an image built for this hardware, or add hosts that support it.",
  ],
  ServerGroupAntiAffinityFilter: () => [
    "Every remaining host already runs a member of the anti-affinity group: add hosts, raise the group's max_server_per_host rule, or use a soft-anti-affinity group.",
  ],
  ServerGroupAffinityFilter: () => [
    "An affinity group must stay on its members' host, and that host was filtered out: free capacity on it, or use a soft-affinity group.",
  ],
  NumInstancesFilter: () => [
    "Every remaining host runs max_instances_per_host instances already: raise max_instances_per_host in the profile, or add hosts.",
  ],
  AggregateNumInstancesFilter: () => [
    "Every remaining host runs the instances its aggregate's max_instances_per_host allows: raise that metadata (or the profile's max_instances_per_host), or add hosts.",
  ],
  IoOpsFilter: () => [
    "Every remaining host is busy with max_io_ops_per_host builds, resizes or migrations: wait for them to finish, or raise max_io_ops_per_host in the profile.",
  ],
  AggregateIoOpsFilter: () => [
    "Every remaining host is busy with the I/O operations its aggregate's max_io_ops_per_host allows: wait, or raise that metadata.",
  ],
  AggregateMultiTenancyIsolation: (_g, req) => [
    `The remaining hosts are in aggregates reserved for other projects (filter_tenant_id): use a project they allow${req?.project_id ? ` instead of ${req.project_id}` : ""}, or add the project to an aggregate's filter_tenant_id.`,
  ],
  "placement:tenant_aggregates": (_g, req) => [
    `The remaining hosts are in aggregates reserved for other projects: add ${req?.project_id ?? "the project"} to the filter_tenant_id of an aggregate with capacity, or request as an allowed project.`,
  ],
  AggregateTypeAffinityFilter: () => [
    "The remaining hosts' aggregates are restricted to other flavors (instance_type metadata): add this flavor to that metadata, or use a flavor they allow.",
  ],
  AggregateImagePropertiesIsolation: () => [
    "The image's properties do not match the metadata of the remaining hosts' aggregates: use an image whose properties match, or change the aggregate metadata.",
  ],
  IsolatedHostsFilter: () => [
    "Isolated hosts only take isolated images (and other images avoid them): adjust isolated_hosts / isolated_images in the profile, or use another image.",
  ],
  SameHostFilter: () => [
    "No remaining host runs the instances of the same_host hint: check those instance uuids, or drop the hint.",
  ],
  DifferentHostFilter: () => [
    "Every remaining host runs an instance of the different_host hint: drop some uuids from the hint, or add hosts.",
  ],
  JsonFilter: () => ["No remaining host satisfies the query hint: relax the query (see the JsonFilter expression)."],
  SimpleCIDRAffinityFilter: () => [
    "No remaining host's IP is within build_near_host_ip + cidr: widen the cidr, or pick another address.",
  ],
  MetricsFilter: () => [
    "The remaining hosts do not report the metrics of metrics_weight_setting: fix the hosts' monitors, or change the setting.",
  ],
  NUMATopologyFilter: () => [
    "No remaining host can fit the flavor's NUMA topology (hw:numa_*, hw:cpu_policy, hw:mem_page_size): relax those extra specs, or add hosts that fit.",
  ],
  PciPassthroughFilter: () => [
    "No remaining host has the PCI devices the flavor asks for (pci_passthrough:alias): free or add such devices.",
  ],
};

/** The failure of a run explained, or null when it succeeded. */
export function explainFailure(result: ScheduleResult, request?: ScenarioRequest): DiagnosisView | null {
  if (!result.error) return null;
  if (result.error !== "NoValidHost") {
    return {
      kind: "error",
      error: result.error,
      summary: result.message ?? result.error,
      lastFilter: null,
      instance: 1,
      lastReasons: [],
      explanation: `Nova would raise ${result.error} for this request: ${result.message ?? "(no message)"}`,
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
  const groups = groupReasons(last.reasons ?? [], last.codes);
  const removed = last.in - last.out;
  const stage = fmtStage(last.filter);
  const explanation =
    `The last ${removed === 1 ? "host" : plural(removed, "host")}${nth} ${removed === 1 ? "was" : "were"} removed by ${stage}` +
    (groups.length ? `: ${describeReasons(groups)}.` : ".");
  const advice = (
    ADVICE[last.filter] ??
    (() => [
      `Change the cloud, the flavor or the request so that some host passes ${stage} (the reasons say what each host lacks).`,
    ])
  )(groups, request);
  const cut = (req.funnel[0]?.codes ?? []).filter((c) => c === "NOT_IN_CANDIDATE_LIMIT").length;
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
