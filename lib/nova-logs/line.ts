/**
 * One log line as oslo.log writes it, bare or wrapped by journald
 * (`journalctl -o short-iso`, `-o json`). The line is text: it is matched,
 * never evaluated, and its message stays a plain string.
 *
 * oslo.log's defaults (logging_context_format_string,
 * logging_default_format_string, logging_debug_format_suffix):
 *   %(asctime)s.%(msecs)03d %(process)d %(levelname)s %(name)s [%(global_request_id)s %(request_id)s %(user_identity)s] %(instance)s%(message)s
 *   %(asctime)s.%(msecs)03d %(process)d %(levelname)s %(name)s [-] %(instance)s%(message)s
 *   ... %(funcName)s %(pathname)s:%(lineno)d    (DEBUG lines only)
 * devstack's journald format drops the time and process (journald has them):
 *   %(levelname)s %(name)s [%(global_request_id)s %(request_id)s ...] %(instance)s%(message)s
 */

export type LogLevel = "DEBUG" | "INFO" | "WARNING" | "ERROR" | "CRITICAL" | "TRACE" | "AUDIT";

export interface LogLine {
  /** Milliseconds since the epoch (UTC unless the line says otherwise), NaN when the line has no time. */
  time: number;
  pid: number | null;
  level: LogLevel;
  logger: string;
  /** oslo.context's request id (req-…), or null for lines outside a request ([-]). */
  requestId: string | null;
  /** The global request id a caller passed on (Placement logs Nova's request id here). */
  globalRequestId: string | null;
  /** The `[instance: uuid] ` prefix oslo.log adds when a call passes instance or instance_uuid. */
  instance: string | null;
  message: string;
}

const LEVELS = "DEBUG|INFO|WARNING|ERROR|CRITICAL|TRACE|AUDIT";
// time, pid, level, logger, context, rest
const OSLO = new RegExp(
  `^(\\d{4}-\\d\\d-\\d\\d[ T]\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d{1,6})?) (\\d+) (${LEVELS}) (\\S+) \\[([^\\]]*)\\] ?(.*)$`,
);
// devstack under systemd: no time or pid (journald keeps them)
const BARE = new RegExp(`^(${LEVELS}) (\\S+) \\[([^\\]]*)\\] ?(.*)$`);
// journalctl -o short-iso: 2026-11-28T17:00:00+0000 host ident[pid]: MESSAGE
const SHORT_ISO =
  /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?) \S+ [^\s[:]+(?:\[(\d+)\])?: (.*)$/;
const INSTANCE = /^\[instance: ([0-9a-fA-F-]{36})\] /;
// logging_debug_format_suffix: " funcName path/to/file.py:123"
const DEBUG_SUFFIX = / [A-Za-z_<>][\w.<>]* \S+\.py:\d+$/;
// devstack's: " {{(pid=123) funcName path/to/file.py:123}}"
const DEVSTACK_SUFFIX = / ?\{\{\(pid=\d+\) \S+ \S+:\d+\}\}$/;
// Terminal colours devstack adds around the level and context.
const ANSI = /\x1b\[[0-9;]*m/g;

let lastSecond = "";
let lastSecondMs = Number.NaN;

/** " funcName path/file.py:123" off the end (by hand: a regex would try at every space of long lines). */
function stripDebugSuffix(message: string): string {
  const b = message.lastIndexOf(" ");
  if (b <= 0) return message;
  const a = message.lastIndexOf(" ", b - 1);
  if (a < 0) return message;
  const colon = message.lastIndexOf(":");
  if (colon < b || message.slice(colon - 3, colon) !== ".py") return message;
  for (let i = colon + 1; i < message.length; i++) {
    const c = message.charCodeAt(i);
    if (c < 48 || c > 57) return message;
  }
  return DEBUG_SUFFIX.test(message.slice(a)) ? message.slice(0, a) : message;
}

function parseTime(text: string): number {
  // The common case, "2026-01-01 00:00:00.123" (oslo writes local time without a zone; deployments
  // log UTC, so read as UTC): one Date.parse per second of log, not per line.
  if (text.length === 23 && text.charCodeAt(19) === 46 /* . */) {
    const second = text.slice(0, 19);
    if (second !== lastSecond) {
      lastSecond = second;
      lastSecondMs = Date.parse(`${second.replace(" ", "T")}Z`);
    }
    return lastSecondMs + Number(text.slice(20));
  }
  let t = text.replace(",", ".").replace(" ", "T");
  if (!/(Z|[+-]\d\d:?\d\d)$/.test(t)) t += "Z";
  else t = t.replace(/([+-]\d\d)(\d\d)$/, "$1:$2");
  return Date.parse(t);
}

function globalIdOf(context: string): string | null {
  const sp = context.indexOf(" ");
  if (sp < 0 || !context.startsWith("req-")) return null;
  return context.startsWith("req-", sp + 1) ? context.slice(0, sp) : null;
}

function requestIdOf(context: string): string | null {
  // "[None req-… user project …]" or "[req-global req-… …]": the second token is the request id;
  // older oslo.context wrote "[req-… user project - - -]".
  const sp = context.indexOf(" ");
  if (sp >= 0 && context.startsWith("req-", sp + 1)) {
    const end = context.indexOf(" ", sp + 1);
    return context.slice(sp + 1, end < 0 ? undefined : end);
  }
  if (context.startsWith("req-")) return sp < 0 ? context : context.slice(0, sp);
  return null;
}

/** Which loggers' messages a reader reads; the rest are only checked for format (speed). */
export type RelevantLogger = (logger: string) => boolean;

function finish(
  time: number,
  pid: number | null,
  level: string,
  logger: string,
  context: string,
  rest: string,
  relevant?: RelevantLogger,
): LogLine {
  let message = rest;
  let instance: string | null = null;
  if (relevant && !relevant(logger)) {
    // Not read further: neither the message's affixes nor the request ids are worked out.
    return { time, pid, level: level as LogLevel, logger, requestId: null, globalRequestId: null, instance, message };
  }
  const m = INSTANCE.exec(message);
  if (m) {
    instance = m[1];
    message = message.slice(m[0].length);
  }
  if (message.endsWith("}}")) message = message.replace(DEVSTACK_SUFFIX, "");
  else if (level === "DEBUG") message = stripDebugSuffix(message);
  return {
    time,
    pid,
    level: level as LogLevel,
    logger,
    requestId: requestIdOf(context),
    globalRequestId: globalIdOf(context),
    instance,
    message,
  };
}

/** An oslo line (the whole text after any journald prefix); null when it is not one. */
export function parseOsloText(
  text: string,
  fallbackTime = Number.NaN,
  fallbackPid: number | null = null,
  relevant?: RelevantLogger,
): LogLine | null {
  let m = OSLO.exec(text);
  if (m) return finish(parseTime(m[1]), Number(m[2]), m[3], m[4], m[5], m[6], relevant);
  if (text.includes("\x1b[")) text = text.replace(ANSI, "");
  m = BARE.exec(text);
  if (m) return finish(fallbackTime, fallbackPid, m[1], m[2], m[3], m[4], relevant);
  m = OSLO.exec(text);
  if (m) return finish(parseTime(m[1]), Number(m[2]), m[3], m[4], m[5], m[6], relevant);
  return null;
}

const PRIORITY_LEVELS: Record<string, LogLevel> = {
  "0": "CRITICAL",
  "1": "CRITICAL",
  "2": "CRITICAL",
  "3": "ERROR",
  "4": "WARNING",
  "5": "INFO",
  "6": "INFO",
  "7": "DEBUG",
};

function journalMessage(v: unknown): string | null {
  if (typeof v === "string") return v;
  // journald writes a message that is not UTF-8 as an array of bytes
  if (Array.isArray(v) && v.length < 1 << 20 && v.every((b) => Number.isInteger(b) && b >= 0 && b < 256)) {
    return Buffer.from(v as number[]).toString("utf8");
  }
  return null;
}

/** One `journalctl -o json` record. */
function parseJournalJson(text: string, relevant?: RelevantLogger): LogLine | null {
  let rec: Record<string, unknown>;
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
    rec = v as Record<string, unknown>;
  } catch {
    return null;
  }
  const message = journalMessage(rec.MESSAGE);
  if (message === null) return null;
  const usec = Number(rec.__REALTIME_TIMESTAMP);
  const time = Number.isFinite(usec) ? usec / 1000 : Number.NaN;
  const pid = rec._PID !== undefined && Number.isFinite(Number(rec._PID)) ? Number(rec._PID) : null;
  const line = parseOsloText(message.replace(/\n$/, ""), time, pid, relevant);
  if (line) return line;
  // oslo.log's own JournalHandler (use_journal = True): the message alone, the rest in fields.
  if (typeof rec.LOGGER_NAME === "string") {
    const level = PRIORITY_LEVELS[String(rec.PRIORITY)] ?? "INFO";
    let msg = message;
    let instance: string | null = null;
    const m = INSTANCE.exec(msg);
    if (m) {
      instance = m[1];
      msg = msg.slice(m[0].length);
    }
    const rid = typeof rec.REQUEST_ID === "string" && rec.REQUEST_ID.startsWith("req-") ? rec.REQUEST_ID : null;
    const gid =
      typeof rec.GLOBAL_REQUEST_ID === "string" && rec.GLOBAL_REQUEST_ID.startsWith("req-")
        ? rec.GLOBAL_REQUEST_ID
        : null;
    return { time, pid, level, logger: rec.LOGGER_NAME, requestId: rid, globalRequestId: gid, instance, message: msg };
  }
  return null;
}

/** Any supported shape of one line; null when it is none of them (counted and skipped by the reader). */
export function parseLogLine(raw: string, relevant?: RelevantLogger): LogLine | null {
  const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  const c = text.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    const line = parseOsloText(text, Number.NaN, null, relevant);
    if (line) return line;
    const j = SHORT_ISO.exec(text);
    if (j) return parseOsloText(j[3], parseTime(j[1]), j[2] ? Number(j[2]) : null, relevant);
    return null;
  }
  if (c === 123 /* { */) return parseJournalJson(text, relevant);
  return parseOsloText(text, Number.NaN, null, relevant);
}
