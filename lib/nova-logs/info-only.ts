/**
 * What an INFO log (oslo.log's default level) says about a NoValidHost, what
 * DEBUG would add, and the one setting that turns DEBUG on for the
 * scheduler's loggers only (the rest of nova-scheduler stays at INFO).
 */
import type { Explanation } from "./explain";
import type { SchedulingCall } from "./types";

/** oslo.log 5's DEFAULT_LOG_LEVELS plus what Nova's set_log_defaults() adds (glanceclient, privsep). */
export const NOVA_DEFAULT_LOG_LEVELS = [
  "amqp=WARN",
  "amqplib=WARN",
  "boto=WARN",
  "qpid=WARN",
  "sqlalchemy=WARN",
  "suds=INFO",
  "oslo.messaging=INFO",
  "oslo_messaging=INFO",
  "iso8601=WARN",
  "requests.packages.urllib3.connectionpool=WARN",
  "urllib3.connectionpool=WARN",
  "websocket=WARN",
  "requests.packages.urllib3.util.retry=WARN",
  "urllib3.util.retry=WARN",
  "keystonemiddleware=WARN",
  "routes.middleware=WARN",
  "stevedore=WARN",
  "taskflow=WARN",
  "keystoneauth=WARN",
  "oslo.cache=INFO",
  "oslo_policy=INFO",
  "dogpile.core.dogpile=INFO",
  "glanceclient=WARN",
  "oslo.privsep.daemon=INFO",
];

/**
 * The scheduler's loggers: nova.scheduler (manager, host_manager, each
 * filter's module, request filters, the report client), nova.filters (the
 * per-filter counts) and nova.weights (each weigher's share).
 */
export const SCHEDULER_LOGGERS = ["nova.scheduler", "nova.filters", "nova.weights"];

/**
 * nova.conf for nova-scheduler with `debug = false`: oslo.log sets each named
 * logger's level after the root's, so these loggers log DEBUG and the rest INFO.
 * Setting the option replaces the default list, hence the defaults repeated.
 */
export const SCHEDULER_DEBUG_SETTING = `[DEFAULT]\ndefault_log_levels = ${[
  ...NOVA_DEFAULT_LOG_LEVELS,
  ...SCHEDULER_LOGGERS.map((l) => `${l}=DEBUG`),
].join(",")}`;

export const DEBUG_WOULD_ADD = [
  "the hosts each filter left for every instance, on successes too (INFO names counts only when all hosts are gone)",
  "the hosts most filters removed, each with the filter's own reason",
  "the hosts left after filtering with the free RAM, disk, I/O operations and instances Nova saw",
  "the weighed hosts with their weights, and each weigher's raw value, normalized value and multiplier",
  "the selected host of each instance, the alternates pass, and the Placement claims",
];

export interface InfoOnlyExplanation {
  /** What the INFO lines say, in words. */
  logged: string;
  /** What the replay adds: why the hosts fell out. */
  replay: string | null;
  debugWouldAdd: string[];
  setting: string;
}

/** For a call read from INFO lines alone (no DEBUG line of it in the log). */
export function infoOnly(call: SchedulingCall, e: Explanation | null): InfoOnlyExplanation | null {
  if (call.debug) return null;
  let logged: string;
  const results = call.filterResults?.filters ?? [];
  if (results.length) {
    const last = results[results.length - 1];
    const steps = results.map((f) => `${f.name} ${f.start ?? "?"} → ${f.end}`).join(", ");
    logged = `Filtering removed all hosts: ${steps}. ${last.name} removed the last ${last.start ?? "?"} host(s).`;
  } else if (call.placement.noCandidates) {
    logged = "Placement returned no allocation candidates: no host had the resources and traits asked for.";
  } else logged = "Only INFO lines of this request are in the log.";
  let replay: string | null = null;
  const r = e?.result;
  if (r) {
    const parts: string[] = [];
    if (r.diagnosis?.summary) parts.push(r.diagnosis.summary);
    if (r.placement?.query) parts.push(`Placement query: ${r.placement.query}`);
    const removedBy = r.requests[0]?.funnel.filter((f) => f.rejected?.length) ?? [];
    for (const f of removedBy.slice(-1)) {
      parts.push(
        `${f.filter} removed ${f.rejected
          .slice(0, 10)
          .map((h, i) => `${h} (${f.reasons?.[i] ?? "no reason given"})`)
          .join(", ")}${f.rejected.length > 10 ? ` and ${f.rejected.length - 10} more` : ""}`,
      );
    }
    replay = parts.join(". ") || null;
  }
  return { logged, replay, debugWouldAdd: DEBUG_WOULD_ADD, setting: SCHEDULER_DEBUG_SETTING };
}
