/**
 * Turns log lines into scheduling calls: lines are grouped by request id
 * (workers of several scheduler processes interleave), a request is split at
 * each "Starting to schedule for instances" (a reschedule or a live-migration
 * retry asks the scheduler again under the same request id), and a call is
 * split into passes at each "Starting with N host(s)". Open calls are
 * bounded: a call is handed on as soon as it is finished or idle.
 */
import type { LogLine } from "./line";
import type {
  LoggedFilter,
  LoggedFilterResults,
  LoggedHostState,
  LoggedPass,
  LoggedWeigherShare,
  SchedulingCall,
} from "./types";

const SCHEDULER_LOGGERS = new Set(["nova.scheduler.manager", "nova.scheduler.filter_scheduler"]);
const HOST_STATE =
  /\(([^,()]+), ([^()]+?)\) ram: (-?\d+(?:\.\d+)?)MB disk: (-?\d+(?:\.\d+)?)MB io_ops: (-?\d+) instances: (-?\d+)/g;
const HOST_STATE_AT_START =
  /^\(([^,()]+), ([^()]+?)\) ram: -?\d+(?:\.\d+)?MB disk: -?\d+(?:\.\d+)?MB io_ops: -?\d+ instances: -?\d+ ?/;
const WEIGHED =
  /WeighedHost \[host: \(([^,()]+), ([^()]+?)\) ram: [^\]]*?, weight: (-?[\d.]+(?:e[+-]?\d+)?|-?inf|nan)\]/g;
const UUIDS = /'([0-9a-fA-F-]{36})'/g;
const FILTER_RETURNED = /^Filter (\w+) returned (\d+) host(?:\(s\)|s)$/;
const STARTING_WITH = /^Starting with (\d+) host\(s\)$/;
const REMOVED_ALL =
  /^Filtering removed all hosts for the request(?: with (?:instance|reservation) ID '([^']*)')?\. Filter results: (.*)$/;
const PART_RESULT = /'(\w+): \(start: (\d+), end: (\d+)\)'/g;
const FULL_RESULT = /\('(\w+)', (None|\[[^\]]*\])\)/g;
const HOST_PAIR = /\('([^']*)', '([^']*)'\)/g;
const NOT_ENOUGH = /^There are (\d+) hosts available but (\d+) instances requested to build\.$/;
const WEIGHER_LINE = /^(\w+): (raw weights|normalized weights|score \(multiplier \* weight\)) \{(.*)\}$/;
const WEIGHER_ENTRY =
  /\('([^']*)', '([^']*)'\): (?:'(-?[\d.e+-]+|-?inf|nan) \* (-?[\d.e+-]+|-?inf|nan)'|(-?[\d.e+-]+|-?inf|nan))/g;

/** Caps that keep one call's memory bounded whatever the log holds. */
const MAX_HOSTS = 2000;
const MAX_PASSES = 200;
const MAX_OPEN = 5000;
const MAX_QUERIES = 100_000;
/** Three lines per weigher (raw, normalized, score): room for 20 weighers. */
const MAX_WEIGHER_LINES = 60;
/** A call with no line for this long (log time) is complete. */
const IDLE_MS = 120_000;

interface Open {
  call: SchedulingCall;
  pass: LoggedPass | null;
  /** Reasons logged by filters, waiting for their "Filter X returned" line. */
  pending: Array<{ host: string; reason: string }>;
  /** Last line's time, for idling out. */
  last: number;
  /** Each instance has a host or an error was logged: the call ends with its next pass or line of another call. */
  done: boolean;
}

function newPass(startedWith: number | null, alternates: boolean): LoggedPass {
  return { startedWith, filters: [], filtered: null, weighed: null, weigherLines: [], selected: null, alternates };
}

function hostStates(text: string): LoggedHostState[] {
  const out: LoggedHostState[] = [];
  for (const m of text.matchAll(HOST_STATE)) {
    if (out.length >= MAX_HOSTS) break;
    out.push({
      host: m[1],
      node: m[2],
      freeRamMb: Number(m[3]),
      freeDiskMb: Number(m[4]),
      ioOps: Number(m[5]),
      instances: Number(m[6]),
    });
  }
  return out;
}

function num(s: string | undefined): number | null {
  if (s === undefined) return null;
  if (s === "inf") return Number.POSITIVE_INFINITY;
  if (s === "-inf") return Number.NEGATIVE_INFINITY;
  const n = Number(s);
  return Number.isNaN(n) ? null : n;
}

/** Each weigher's share per host, from a pass's nova.weights lines (Zed and later log them). */
export function weigherShares(pass: LoggedPass): Record<string, Record<string, LoggedWeigherShare>> {
  const out: Record<string, Record<string, LoggedWeigherShare>> = {};
  for (const text of pass.weigherLines) {
    const m = WEIGHER_LINE.exec(text);
    if (!m) continue;
    const shares = (out[m[1]] ??= {});
    let n = 0;
    for (const e of m[3].matchAll(WEIGHER_ENTRY)) {
      if (++n > MAX_HOSTS) break;
      const s: LoggedWeigherShare = (shares[e[1]] ??= { raw: null, normalized: null, multiplier: null });
      if (m[2] === "raw weights") s.raw = num(e[5]);
      else if (m[2] === "normalized weights") s.normalized = num(e[5]);
      else {
        s.multiplier = num(e[3]);
        s.normalized = num(e[4]) ?? s.normalized;
      }
    }
  }
  return out;
}

export function parseFilterResults(instance: string | null, text: string): LoggedFilterResults {
  const filters: LoggedFilterResults["filters"] = [];
  for (const m of text.matchAll(PART_RESULT)) {
    filters.push({ name: m[1], start: Number(m[2]), end: Number(m[3]), hosts: null });
  }
  if (!filters.length) {
    // DEBUG form: [('Name', [('host', 'node'), ...]), ..., ('Last', None)]
    let prev: number | null = null;
    for (const m of text.matchAll(FULL_RESULT)) {
      const hosts = m[2] === "None" ? [] : [...m[2].matchAll(HOST_PAIR)].slice(0, MAX_HOSTS).map((h) => h[1]);
      filters.push({ name: m[1], start: prev, end: hosts.length, hosts });
      prev = hosts.length;
    }
  }
  return { instance, filters };
}

export interface AssemblerOptions {
  /** Called with each finished call, in the order they finish. */
  onCall: (call: SchedulingCall) => void;
}

/** The loggers whose lines make up a scheduling call (all others are skipped unread). */
export function readsLogger(logger: string): boolean {
  return (
    logger === "nova.filters" ||
    logger === "nova.weights" ||
    logger === "placement.requestlog" ||
    SCHEDULER_LOGGERS.has(logger) ||
    logger.startsWith("nova.scheduler.filters.")
  );
}

export class CallAssembler {
  private open = new Map<string, Open>();
  private attempts = new Map<string, number>();
  private sinceSweep = 0;
  /** Nova request id -> the allocation-candidates query placement-api logged for it (bounded). */
  readonly queries = new Map<string, string>();

  constructor(private readonly options: AssemblerOptions) {}

  /** Feed one parsed line. `file` and `lineNo` say where it came from. */
  push(line: LogLine, file: string, lineNo: number): void {
    if (++this.sinceSweep >= 20_000) this.sweep(line.time);
    if (!readsLogger(line.logger)) return;
    if (line.logger === "placement.requestlog") {
      this.placementLine(line);
      return;
    }
    const rid = line.requestId;
    if (!rid) return;
    const msg = line.message;
    const scheduler = SCHEDULER_LOGGERS.has(line.logger);

    if (scheduler && msg.startsWith("Starting to schedule for instances: ")) {
      this.close(rid);
      const instanceUuids = [...msg.matchAll(UUIDS)].slice(0, MAX_HOSTS).map((m) => m[1]);
      this.start(rid, line, file, lineNo, instanceUuids, true);
      return;
    }
    let o = this.open.get(rid);
    if (!o) {
      // INFO alone has no "Starting to schedule": the first line that belongs to a scheduling
      // call opens one (Filtering removed all hosts, no allocation candidates).
      if (!this.opensCall(line)) return;
      o = this.start(rid, line, file, lineNo, line.instance ? [line.instance] : [], false);
    }
    const call = o.call;
    call.lines++;
    call.ended = line.time;
    o.last = line.time;
    if (line.level === "DEBUG") call.debug = true;

    if (line.logger === "nova.filters") {
      let m = STARTING_WITH.exec(msg);
      if (m) {
        const alternates = call.instanceUuids.length > 0 && call.selected.length >= call.instanceUuids.length;
        if (call.passes.length < MAX_PASSES) {
          o.pass = newPass(Number(m[1]), alternates);
          call.passes.push(o.pass);
        }
        o.pending = [];
        return;
      }
      m = FILTER_RETURNED.exec(msg);
      if (m) {
        const pass = this.passOf(o);
        const f: LoggedFilter = { name: m[1], hostsLeft: Number(m[2]), removed: [], reasons: [] };
        for (const p of o.pending) {
          if (f.removed.length >= MAX_HOSTS) break;
          f.removed.push(p.host);
          f.reasons.push(p.reason);
        }
        o.pending = [];
        pass.filters.push(f);
        return;
      }
      m = REMOVED_ALL.exec(msg);
      if (m) {
        const results = parseFilterResults(m[1] || null, m[2]);
        // The DEBUG form names the survivors; the INFO form (always logged) the counts. Keep both.
        if (call.filterResults && results.filters.some((f) => f.hosts)) {
          for (const f of call.filterResults.filters) {
            const named = results.filters.find((r) => r.name === f.name);
            if (named) f.hosts = named.hosts;
          }
        } else if (call.filterResults && !results.filters.some((f) => f.hosts)) {
          const named = call.filterResults.filters;
          call.filterResults = results;
          for (const f of results.filters) f.hosts = named.find((r) => r.name === f.name)?.hosts ?? null;
        } else call.filterResults = results;
        if (!call.instanceUuids.length && results.instance) call.instanceUuids.push(results.instance);
        call.error = "NoValidHost";
        call.errorDetail ??= "Filtering removed all hosts";
        this.fillRemovedFromResults(call);
        return;
      }
      return;
    }
    if (line.logger.startsWith("nova.scheduler.filters.")) {
      const m = HOST_STATE_AT_START.exec(msg);
      if (!m) return;
      const reason = msg.slice(m[0].length);
      // A filter may log twice for one host (ComputeCapabilitiesFilter: the spec, then the verdict).
      const last = o.pending[o.pending.length - 1];
      if (last?.host === m[1]) last.reason = `${last.reason}; ${reason}`;
      else if (o.pending.length < MAX_HOSTS) o.pending.push({ host: m[1], reason });
      return;
    }
    if (line.logger === "nova.weights") {
      const pass = this.passOf(o);
      if (pass.weigherLines.length < MAX_WEIGHER_LINES) pass.weigherLines.push(msg);
      return;
    }
    if (scheduler) {
      call.schedulerLogger = line.logger;
      if (msg.startsWith("Filtered [")) {
        this.passOf(o).filtered = hostStates(msg);
        return;
      }
      if (msg.startsWith("Weighed [")) {
        const pass = this.passOf(o);
        pass.weighed = [];
        for (const w of msg.matchAll(WEIGHED)) {
          if (pass.weighed.length >= MAX_HOSTS) break;
          pass.weighed.push({ host: w[1], node: w[2], weight: num(w[3]) ?? Number.NaN });
        }
        return;
      }
      if (msg.startsWith("Selected host: ")) {
        const h = hostStates(msg)[0];
        if (!h) return;
        const sel = { instance: line.instance, host: h.host, node: h.node };
        this.passOf(o).selected = sel;
        if (call.selected.length < MAX_HOSTS) call.selected.push(sel);
        return;
      }
      const m = NOT_ENOUGH.exec(msg);
      if (m) {
        call.error = "NoValidHost";
        call.errorDetail = msg;
        o.done = true;
        return;
      }
      if (msg.startsWith("Got no allocation candidates from the Placement API")) {
        call.placement.noCandidates = true;
        call.error = "NoValidHost";
        call.errorDetail = "Got no allocation candidates from the Placement API";
        o.done = true;
        return;
      }
      if (msg.startsWith("Requesting fallback allocation candidates with VCPU instead of PCPU")) {
        call.placement.pcpuFallback = true;
        return;
      }
      if (msg.startsWith("Unable to successfully claim against any host")) {
        call.placement.claimFailed = true;
        return;
      }
      if (msg.startsWith("A host state with uuid = ")) call.placement.unmatched++;
    }
  }

  private placementLine(line: LogLine): void {
    const gid = line.globalRequestId;
    if (!gid) return;
    const m = /"GET (\/[^" ]*allocation_candidates\?[^" ]*)/.exec(line.message);
    if (!m || this.queries.has(gid)) return; // the first query is Nova's; the second its PCPU fallback
    if (this.queries.size >= MAX_QUERIES) this.queries.delete(this.queries.keys().next().value as string);
    const query = m[1].slice(m[1].indexOf("?") + 1);
    this.queries.set(gid, query);
    const open = this.open.get(gid);
    if (open) open.call.placementQuery ??= query;
  }

  /** Hand on every call still open (end of input). */
  finish(): void {
    for (const rid of [...this.open.keys()]) this.close(rid);
  }

  private opensCall(line: LogLine): boolean {
    if (line.logger === "nova.filters") return line.message.startsWith("Filtering removed all hosts");
    return (
      SCHEDULER_LOGGERS.has(line.logger) &&
      line.message.startsWith("Got no allocation candidates from the Placement API")
    );
  }

  private start(
    rid: string,
    line: LogLine,
    file: string,
    lineNo: number,
    instanceUuids: string[],
    fromStart: boolean,
  ): Open {
    const attempt = (this.attempts.get(rid) ?? 0) + 1;
    this.attempts.set(rid, attempt);
    if (this.attempts.size > MAX_OPEN * 20) this.attempts.delete(this.attempts.keys().next().value as string);
    const call: SchedulingCall = {
      id: `${rid}#${attempt}`,
      requestId: rid,
      attempt,
      source: { file, line: lineNo },
      pid: line.pid,
      started: line.time,
      ended: line.time,
      instanceUuids,
      schedulerLogger: fromStart ? line.logger : null,
      debug: line.level === "DEBUG",
      passes: [],
      selected: [],
      error: null,
      errorDetail: null,
      filterResults: null,
      placement: { noCandidates: false, pcpuFallback: false, claimFailed: false, unmatched: 0 },
      placementQuery: this.queries.get(rid) ?? null,
      lines: fromStart ? 1 : 0,
    };
    const o: Open = { call, pass: null, pending: [], last: line.time, done: false };
    if (this.open.size >= MAX_OPEN) this.close(this.open.keys().next().value as string);
    this.open.set(rid, o);
    return o;
  }

  private passOf(o: Open): LoggedPass {
    if (!o.pass) {
      o.pass = newPass(null, false);
      if (o.call.passes.length < MAX_PASSES) o.call.passes.push(o.pass);
    }
    return o.pass;
  }

  /** With the DEBUG "Filtering removed all hosts" list, each filter's removed hosts are the difference of two lists. */
  private fillRemovedFromResults(call: SchedulingCall): void {
    const results = call.filterResults;
    const pass = call.passes[call.passes.length - 1];
    if (!results || !pass) return;
    let before: string[] | null = null;
    for (const r of results.filters) {
      const f = pass.filters.find((x) => x.name === r.name);
      if (f && r.hosts && before && !f.removed.length) {
        const left = new Set(r.hosts);
        f.removed = before.filter((h) => !left.has(h));
        f.reasons = f.removed.map(() => "");
      }
      before = r.hosts;
    }
  }

  private close(rid: string): void {
    const o = this.open.get(rid);
    if (!o) return;
    this.open.delete(rid);
    this.options.onCall(o.call);
  }

  private sweep(now: number): void {
    this.sinceSweep = 0;
    if (!Number.isFinite(now)) return;
    for (const [rid, o] of this.open) if (now - o.last > IDLE_MS) this.close(rid);
  }
}
