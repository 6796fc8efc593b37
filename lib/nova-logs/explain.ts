/**
 * One scheduling call explained: what Nova logged beside Schedscope's replay
 * of the same request on the cloud in force at the call's time, with every
 * disagreement named with its likely cause. The replay fills what the log
 * lacks: why each host fell out, what Placement returned, each weigher's share.
 */
import { schedule } from "../scheduler/engine";
import { type ScheduleResult, toResult } from "../scheduler/result";
import type { Scenario, ScenarioRequest } from "../scheduler/scenario";
import { weigherShares } from "./calls";
import type { LoggedPass, SchedulingCall } from "./types";

/** [name, hosts left] as the CLI prints a funnel. */
export type FilterCount = [string, number];

export interface Side {
  filters: FilterCount[];
  /** The selected host of each instance, in order. */
  selected: string[];
  error: string | null;
}

export type Cause =
  | "filter_list" // the profile's enabled_filters differ from the cloud's nova.conf
  | "state" // hosts' state differed from the snapshot
  | "chance" // host_subset_size > 1 or shuffled ties: Nova picked at random
  | "not_simulated" // a filter or weigher Schedscope does not simulate
  | "weights" // multipliers differ (profile vs nova.conf) or state differed
  | "request" // the request could not be rebuilt from the log
  | "log"; // the log lacks what would be compared (INFO only)

export interface Difference {
  cause: Cause;
  /** Plain words for an operator. */
  message: string;
  /** For chance: the probability that Nova makes the pick it made. */
  probability?: number;
  /** The pass (instance index) it concerns, when one. */
  pass?: number;
}

export interface Explanation {
  call: SchedulingCall;
  logged: Side & { passes: Array<FilterCount[]> };
  replayed: (Side & { passes: Array<FilterCount[]> }) | null;
  /** The replay's full answer: reasons per host, Placement, weigher shares. */
  result: ScheduleResult | null;
  agree: boolean;
  differences: Difference[];
  /** Which cloud the replay ran on ("the cloud as of …", "the current cloud", a file). */
  cloudLabel: string;
}

/**
 * Where the cloud of a moment comes from. Until snapshots with "as of" loading
 * exist, the current cloud stands for every moment; the history loader plugs
 * in here.
 */
export type CloudAsOf = (
  time: number,
) => { scenario: Omit<Scenario, "request"> & { request?: ScenarioRequest }; label: string } | null;

/** A cloud that does not change: the current cloud, or a scenario file. */
export function currentCloudAsOf(
  scenario: Omit<Scenario, "request"> & { request?: ScenarioRequest },
  label: string,
): CloudAsOf {
  return () => ({ scenario, label });
}

/** The request of a call: the cloud document's own request (a scenario file), sized to the instances Nova scheduled. */
export type RequestFor = (call: SchedulingCall, cloud: { request?: ScenarioRequest }) => ScenarioRequest | null;

export const requestFromScenario: RequestFor = (call, cloud) => {
  if (!cloud.request) return null;
  const n = call.instanceUuids.length || cloud.request.num_instances || 1;
  return { ...cloud.request, num_instances: n };
};

const filterPasses = (call: SchedulingCall): LoggedPass[] => call.passes.filter((p) => !p.alternates);

function loggedSide(call: SchedulingCall): Side & { passes: Array<FilterCount[]> } {
  const passes = filterPasses(call).map((p) => p.filters.map((f): FilterCount => [f.name, f.hostsLeft]));
  let filters = passes[0] ?? [];
  // INFO alone: the "Filtering removed all hosts" line has the counts.
  if (!filters.length && call.filterResults) filters = call.filterResults.filters.map((f) => [f.name, f.end]);
  return { filters, passes, selected: call.selected.map((s) => s.host), error: call.error };
}

function replayedSide(r: ScheduleResult): Side & { passes: Array<FilterCount[]> } {
  const passes = r.requests.map((q) =>
    q.funnel.filter((f) => f.stage === "filter").map((f): FilterCount => [f.filter, f.out]),
  );
  return {
    filters: passes[0] ?? [],
    passes,
    selected: r.selections.map((s) => s.host),
    error: r.error,
  };
}

function sameCounts(a: FilterCount[], b: FilterCount[]): boolean {
  return a.length === b.length && a.every((x, i) => x[0] === b[i][0] && x[1] === b[i][1]);
}

/** The differences between the two sides, each with its likely cause. */
function compare(call: SchedulingCall, r: ScheduleResult, scenario: Scenario): Difference[] {
  const out: Difference[] = [];
  const logged = loggedSide(call);
  const replayed = replayedSide(r);
  const notSimulated = (r.release_notes ?? []).filter((n) => n.includes("not simulated")).map((n) => n.split(":")[0]);
  const passes = Math.max(logged.passes.length, call.debug ? 0 : 1);
  for (let i = 0; i < passes; i++) {
    const lp = logged.passes[i] ?? (i === 0 ? logged.filters : []);
    const rp = replayed.passes[i] ?? [];
    if (!lp.length || sameCounts(lp, rp)) continue;
    const lNames = lp.map((f) => f[0]);
    const rNames = rp.map((f) => f[0]);
    // Nova stops at the filter that leaves no host; compare only what both ran.
    const stopped = lp[lp.length - 1]?.[1] === 0 || rp[rp.length - 1]?.[1] === 0;
    const onlyLogged = lNames.filter((n) => !rNames.includes(n));
    const onlyReplayed = stopped ? [] : rNames.filter((n) => !lNames.includes(n));
    if (onlyLogged.length || onlyReplayed.length) {
      const parts: string[] = [];
      if (onlyLogged.length) parts.push(`Nova ran ${onlyLogged.join(", ")}, which the profile does not enable`);
      if (onlyReplayed.length) parts.push(`the profile enables ${onlyReplayed.join(", ")}, which Nova did not run`);
      if (!(stopped && !onlyLogged.length)) {
        out.push({
          cause: "filter_list",
          pass: i,
          message: `${parts.join("; ")}: the profile differs from the cloud's nova.conf`,
        });
      }
    }
    for (const [name, left] of lp) {
      const other = rp.find((f) => f[0] === name);
      if (!other || other[1] === left) continue;
      if (notSimulated.includes(name)) {
        out.push({
          cause: "not_simulated",
          pass: i,
          message: `${name} is not simulated (it passed every host in the replay); Nova's ${name} left ${left}`,
        });
      } else {
        out.push({
          cause: "state",
          pass: i,
          message: `${name}: Nova left ${left} host(s), the replay ${other[1]}: the hosts' state differed from the cloud the replay used`,
        });
      }
      break; // later counts follow from the first difference
    }
  }
  // Selections.
  const subset = scenario.config?.host_subset_size ?? 1;
  const shuffle = scenario.config?.shuffle_best_same_weighed_hosts ?? false;
  for (let i = 0; i < Math.max(logged.selected.length, replayed.selected.length); i++) {
    const a = logged.selected[i];
    const b = replayed.selected[i];
    if (a === b || a === undefined) continue;
    if (out.some((d) => d.pass === i && d.cause !== "chance")) continue; // already explained by the funnel
    const weighed = r.requests[i]?.weighed ?? [];
    const rank = weighed.findIndex((w) => w.host === a);
    if (subset > 1 && rank >= 0 && rank < subset) {
      const p = 1 / Math.min(subset, weighed.length);
      out.push({
        cause: "chance",
        pass: i,
        probability: p,
        message: `host_subset_size = ${subset}: Nova picks at random among the best ${Math.min(subset, weighed.length)}; ${a} had a ${(p * 100).toFixed(0)}% chance`,
      });
    } else if (shuffle && rank >= 0 && weighed[rank].weight === weighed[0]?.weight) {
      const ties = weighed.filter((w) => w.weight === weighed[0].weight).length;
      out.push({
        cause: "chance",
        pass: i,
        probability: 1 / ties,
        message: `shuffle_best_same_weighed_hosts: ${ties} hosts tied; Nova picked ${a}`,
      });
    } else {
      const multipliers = weigherMultiplierDifferences(call.passes[i], r, i);
      out.push({
        cause: multipliers.length ? "weights" : "state",
        pass: i,
        message: multipliers.length
          ? `Nova chose ${a}, the replay ${b ?? "no host"}: ${multipliers.join("; ")}`
          : `Nova chose ${a}, the replay ${b ?? "no host"}${rank < 0 ? ` (${a} did not pass the replay's filters)` : ` (ranked ${rank + 1} in the replay)`}: the hosts' state differed from the cloud the replay used`,
      });
    }
  }
  if ((logged.error ?? null) !== (replayed.error ?? null) && !out.length) {
    out.push({
      cause: "state",
      message: `Nova's answer: ${logged.error ?? "hosts found"}; the replay's: ${replayed.error ?? "hosts found"}`,
    });
  }
  if (!call.debug && !logged.filters.length && call.error) {
    out.push({ cause: "log", message: "the log holds INFO lines only: the per-filter counts are the replay's alone" });
  }
  return out;
}

/** Multipliers Nova logged (nova.weights' score lines) that differ from the replay's. */
function weigherMultiplierDifferences(pass: LoggedPass | undefined, r: ScheduleResult, i: number): string[] {
  if (!pass) return [];
  const out: string[] = [];
  const weighed = r.requests[i]?.weighed ?? [];
  for (const [weigher, hosts] of Object.entries(weigherShares(pass))) {
    for (const [host, share] of Object.entries(hosts)) {
      const mine = weighed.find((w) => w.host === host)?.weighers[weigher];
      if (share.multiplier !== null && mine && mine.multiplier !== share.multiplier) {
        out.push(
          `${weigher}'s multiplier on ${host} is ${share.multiplier} in Nova, ${mine.multiplier} in the profile (${mine.source})`,
        );
        break;
      }
    }
  }
  return out;
}

export interface ExplainOptions {
  cloudAsOf: CloudAsOf;
  requestFor?: RequestFor;
}

/** Explain one call: replay it and compare. */
export function explainCall(call: SchedulingCall, options: ExplainOptions): Explanation {
  const logged = loggedSide(call);
  const cloud = options.cloudAsOf(call.started);
  if (!cloud) {
    return {
      call,
      logged,
      replayed: null,
      result: null,
      agree: false,
      differences: [{ cause: "request", message: "no cloud to replay on at this time" }],
      cloudLabel: "none",
    };
  }
  const request = (options.requestFor ?? requestFromScenario)(call, cloud.scenario);
  if (!request) {
    return {
      call,
      logged,
      replayed: null,
      result: null,
      agree: false,
      differences: [{ cause: "request", message: "the request (flavor, image) could not be rebuilt from the log" }],
      cloudLabel: cloud.label,
    };
  }
  const scenario: Scenario = {
    ...cloud.scenario,
    config: { not_simulated: "pass", ...cloud.scenario.config } as Scenario["config"],
    request,
  };
  const result = toResult(schedule(scenario));
  const differences = compare(call, result, scenario);
  return {
    call,
    logged,
    replayed: replayedSide(result),
    result,
    agree: !differences.some((d) => d.cause !== "log"),
    differences,
    cloudLabel: cloud.label,
  };
}

/** One JSON line of `npm run -s explain`. */
export function explanationLine(e: Explanation): Record<string, unknown> {
  const side = (s: Side | null) => (s ? { filters: s.filters, selected: s.selected, error: s.error } : null);
  return {
    request_id: e.call.requestId,
    attempt: e.call.attempt,
    instance_uuids: e.call.instanceUuids,
    logged: side(e.logged),
    replayed: side(e.replayed),
    agree: e.agree,
    differences: e.differences.map((d) => ({
      cause: d.cause,
      message: d.message,
      ...(d.probability !== undefined ? { probability: d.probability } : {}),
    })),
  };
}
