import type { HostState } from "../host-state";
import { hostAttribute } from "../host-attributes";
import { defineFilter } from "../plugin";
import { NovaError, PyFloat, pyCompare, pyEq, pyJsonLoads, pyRepr, pyTruthy, type PyValue } from "../python";
import { getSchedulerHint } from "../request-spec";

/**
 * JsonFilter's query language ("query" hint), interpreted over the parsed
 * JSON exactly as nova.scheduler.filters.json_filter does: operators
 * = < > in <= >= not or and; "$name.key" reads a HostState attribute;
 * empty strings and unknown attributes drop out of the argument list.
 */
type Query = PyValue;

function compareAll(args: PyValue[], op: string): boolean {
  if (args.length < 2) return false;
  const [first, ...rest] = args;
  if (op === "in") return rest.some((r) => pyEq(first, r));
  // Nova builds the list of failures: every comparison runs (and may raise).
  let all = true;
  for (const r of rest) {
    let ok: boolean;
    if (op === "=") ok = pyEq(first, r);
    else {
      const c = pyCompare(first, r, op);
      ok = op === "<" ? c < 0 : op === ">" ? c > 0 : op === "<=" ? c <= 0 : c >= 0;
    }
    if (!ok) all = false;
  }
  return all;
}

function parseString(s: string, host: HostState): PyValue | undefined {
  if (!s) return undefined;
  if (!s.startsWith("$")) return s;
  const path = s.slice(1).split(".");
  let obj = hostAttribute(host, path[0]);
  if (obj === undefined || obj === null) return undefined;
  for (const item of path.slice(1)) {
    if (obj === null || typeof obj !== "object" || Array.isArray(obj) || obj.constructor !== Object) {
      throw new NovaError("AttributeError", `${pyRepr(obj)} has no attribute 'get' (JsonFilter ${s})`);
    }
    const d: Record<string, PyValue> = obj as Record<string, PyValue>;
    obj = Object.hasOwn(d, item) ? d[item] : undefined;
    if (obj === undefined || obj === null) return undefined;
  }
  return obj;
}

const COMMANDS = new Set(["=", "<", ">", "in", "<=", ">=", "not", "or", "and"]);

export function evaluateQuery(query: Query, host: HostState): PyValue {
  if (!pyTruthy(query)) return true;
  if (typeof query === "number" || typeof query === "boolean" || query instanceof PyFloat) {
    const type = typeof query === "number" ? "int" : typeof query === "boolean" ? "bool" : "float";
    throw new NovaError("TypeError", `'${type}' object is not subscriptable`);
  }
  let cmd: PyValue;
  let args: PyValue[];
  if (typeof query === "string") {
    cmd = query[0];
    args = [...query.slice(1)];
  } else if (Array.isArray(query)) {
    cmd = query[0];
    args = query.slice(1);
  } else {
    throw new NovaError("KeyError", "0");
  }
  if (Array.isArray(cmd) || (cmd !== null && typeof cmd === "object" && !(cmd instanceof PyFloat)))
    throw new NovaError("TypeError", `unhashable type: '${Array.isArray(cmd) ? "list" : "dict"}'`);
  if (typeof cmd !== "string" || !COMMANDS.has(cmd)) throw new NovaError("KeyError", pyRepr(cmd));
  const cooked: PyValue[] = [];
  for (const raw of args) {
    let arg: PyValue | undefined = raw;
    if (Array.isArray(raw)) arg = evaluateQuery(raw, host);
    else if (typeof raw === "string") arg = parseString(raw, host);
    if (arg !== undefined && arg !== null) cooked.push(arg);
  }
  switch (cmd) {
    case "not":
      return cooked.map((a) => !pyTruthy(a));
    case "or":
      return cooked.some(pyTruthy);
    case "and":
      return cooked.every(pyTruthy);
    default:
      return compareAll(cooked, cmd);
  }
}

export const JsonFilter = defineFilter({
  name: "JsonFilter",
  doc: "Hint query: a JSON expression over host state.",
  reasons: {
    QUERY_NOT_SATISFIED: "not satisfying the query hint",
  },
  advice: {
    QUERY_NOT_SATISFIED: "No remaining host satisfies the query hint: relax the query (see the JsonFilter expression).",
  },
  reads: {
    hints: ["query"],
  },
  factory: () => {
    let query: Query | null = null;
    let text = "";
    return {
      name: "JsonFilter",
      runOncePerRequest: false,
      prepare(spec) {
        const hint = getSchedulerHint(spec, "query");
        query = null;
        // `if not query`: an empty string or an empty list means no query.
        if (hint === undefined || !pyTruthy(hint)) return;
        if (Array.isArray(hint))
          throw new NovaError("TypeError", "the JSON object must be str, bytes or bytearray, not list");
        text = hint;
        query = pyJsonLoads(hint);
      },
      check(host) {
        if (query === null) return null;
        let result = evaluateQuery(query, host);
        if (Array.isArray(result)) result = result.some(pyTruthy);
        return pyTruthy(result) ? null : { code: "QUERY_NOT_SATISFIED", message: `not satisfying query ${text}` };
      },
    };
  },
});
