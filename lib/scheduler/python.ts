/**
 * The few pieces of Python semantics Nova's scheduler leans on: float() and
 * int() parsing, str()/repr() of values, str.split(), comparisons. Nova's
 * verdicts depend on them (e.g. ComputeCapabilitiesFilter matches against
 * str(value), so a list becomes "['avx', 'aes']"), so they are reproduced
 * exactly rather than approximated with JavaScript's own conversions.
 */

/** An exception Nova would raise; `novaName` is the Python class name. */
/** nova.exception.NoValidHost's message, and the error a run records with it (`detail` after it, as Nova's `reason`). */
export const NO_VALID_HOST = "No valid host was found.";
export function noValidHost(detail?: string): { name: "NoValidHost"; message: string } {
  return { name: "NoValidHost", message: detail ? `${NO_VALID_HOST} ${detail}` : NO_VALID_HOST };
}

export class NovaError extends Error {
  constructor(
    readonly novaName: string,
    message: string,
  ) {
    super(message);
    this.name = novaName;
  }
}

/** A Python float, tagged so str() prints it as Python would ("16.0"). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A netaddr.IPAddress: equal to no string, printed as the address. */
export class PyIPAddress {
  constructor(
    readonly text: string,
    /** (version, value), how netaddr orders addresses. */
    readonly parsed?: { version: number; value: bigint },
  ) {}
}

/**
 * Any other Python object a filter can reach (a Nova object, a datetime,
 * PciDeviceStats): printed as `text`, truthy as Python says, equal only to
 * itself (`id` stands for its identity), ordered against nothing.
 */
export class PyObject {
  constructor(
    readonly typeName: string,
    readonly text: string,
    readonly id: string,
    readonly truthy = true,
  ) {}
}

export type PyValue =
  | string
  | number // a Python int
  | boolean
  | null
  | PyFloat
  | PyIPAddress
  | PyObject
  | PyValue[]
  | { [key: string]: PyValue };

// Python's str.split() with no separator: runs of Unicode whitespace.
const PY_WS = /[\s\x1c-\x1f\x85]+/u;
export function pySplit(s: string): string[] {
  const parts = s.split(PY_WS);
  if (parts.length && parts[0] === "") parts.shift();
  if (parts.length && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

export function pyStrip(s: string): string {
  return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, "");
}

const FLOAT_RE = /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*|\d(?:_?\d)*\.)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;

/** Python float(str): raises ValueError on anything Python rejects. */
export function pyFloat(s: string | number): number {
  if (typeof s === "number") return s;
  const t = pyStrip(s);
  const sp = SPECIAL_FLOAT.exec(t);
  if (sp) {
    if (sp[2].toLowerCase() === "nan") return NaN;
    return sp[1] === "-" ? -Infinity : Infinity;
  }
  if (!FLOAT_RE.test(t)) {
    throw new NovaError("ValueError", `could not convert string to float: ${pyRepr(s)}`);
  }
  return Number(t.replace(/_/g, ""));
}

const INT_RE = /^[+-]?\d(?:_?\d)*$/;

/** Python int(str) in base 10: raises ValueError for "1.5", "", "abc". */
export function pyInt(s: string): number {
  const t = pyStrip(s);
  if (!INT_RE.test(t)) {
    throw new NovaError("ValueError", `invalid literal for int() with base 10: ${pyRepr(s)}`);
  }
  return Number(t.replace(/_/g, ""));
}

/** repr() of a Python float: shortest round-trip digits, Python's layout. */
export function pyFloatRepr(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (n === Infinity) return "inf";
  if (n === -Infinity) return "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const [mant, expStr] = n.toExponential().split("e");
  const exp = Number(expStr);
  const neg = mant.startsWith("-");
  const digits = mant.replace("-", "").replace(".", "");
  let out: string;
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      out = `0.${"0".repeat(-exp - 1)}${digits}`;
    } else if (digits.length <= exp + 1) {
      out = `${digits + "0".repeat(exp + 1 - digits.length)}.0`;
    } else {
      out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
    }
  } else {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    out = `${m}e${exp < 0 ? "-" : "+"}${e < 10 ? `0${e}` : e}`;
  }
  return neg ? `-${out}` : out;
}

function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** Python repr(). */
export function pyRepr(v: PyValue | undefined): string {
  if (v === null || v === undefined) return "None";
  if (typeof v === "string") return pyStrRepr(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : pyFloatRepr(v);
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (v instanceof PyIPAddress) return `IPAddress('${v.text}')`;
  if (v instanceof PyObject) return v.text;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return (
    "{" +
    Object.entries(v)
      .map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`)
      .join(", ") +
    "}"
  );
}

/** Python str(). */
export function pyStr(v: PyValue | undefined): string {
  if (typeof v === "string") return v;
  if (v instanceof PyIPAddress) return v.text;
  return pyRepr(v);
}

/** json.dumps() with Python's default separators, for values built from JSON. */
export function pyJsonDumps(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string")
    return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : pyFloatRepr(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (Array.isArray(v)) return `[${v.map(pyJsonDumps).join(", ")}]`;
  return (
    "{" +
    Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${pyJsonDumps(k)}: ${pyJsonDumps(x)}`)
      .join(", ") +
    "}"
  );
}

/** Python truthiness. */
export function pyTruthy(v: PyValue | undefined): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === "string") return v.length > 0;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "boolean") return v;
  if (v instanceof PyFloat) return v.value !== 0;
  if (v instanceof PyIPAddress) return true;
  if (v instanceof PyObject) return v.truthy;
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v).length > 0;
}

function numeric(v: PyValue): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof PyFloat) return v.value;
  return undefined;
}

function typeName(v: PyValue): string {
  if (v === null) return "NoneType";
  if (typeof v === "string") return "str";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return "int";
  if (v instanceof PyFloat) return "float";
  if (v instanceof PyIPAddress) return "IPAddress";
  if (v instanceof PyObject) return v.typeName;
  if (Array.isArray(v)) return "list";
  return "dict";
}

/** Python ==. */
export function pyEq(a: PyValue, b: PyValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (typeof a === "string" && typeof b === "string") return a === b;
  if (a === null || b === null) return a === b;
  if (a instanceof PyIPAddress && b instanceof PyIPAddress) return a.text === b.text;
  if (a instanceof PyObject || b instanceof PyObject) {
    return a instanceof PyObject && b instanceof PyObject && a.id === b.id;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => pyEq(x, b[i]));
  }
  if (
    typeof a === "object" &&
    typeof b === "object" &&
    !Array.isArray(a) &&
    !Array.isArray(b) &&
    !(a instanceof PyFloat) &&
    !(b instanceof PyFloat) &&
    !(a instanceof PyIPAddress) &&
    !(b instanceof PyIPAddress) &&
    !(a instanceof PyObject) &&
    !(b instanceof PyObject)
  ) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && pyEq(a[k], b[k]));
  }
  return false;
}

/** Python ordering: -1, 0, 1, raising TypeError where Python 3 does. */
export function pyCompare(a: PyValue, b: PyValue, op: string): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    // NaN compares false every way; callers treat NaN via the op directly.
    return na < nb ? -1 : na > nb ? 1 : na === nb ? 0 : NaN;
  }
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof PyIPAddress && b instanceof PyIPAddress) {
    // netaddr orders addresses by (version, value)
    const x = a.parsed ?? { version: 0, value: 0n };
    const y = b.parsed ?? { version: 0, value: 0n };
    if (x.version !== y.version) return x.version < y.version ? -1 : 1;
    return x.value < y.value ? -1 : x.value > y.value ? 1 : 0;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (!pyEq(a[i], b[i])) return pyCompare(a[i], b[i], op);
    }
    return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
  }
  throw new NovaError("TypeError", `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

/**
 * json.loads(): like JSON.parse, plus what Python's json module also accepts
 * (NaN, Infinity, -Infinity); numbers with a fraction or exponent come back
 * as PyFloat. Raises JSONDecodeError.
 */
export function pyJsonLoads(text: string): PyValue {
  let i = 0;
  const fail = (what: string): never => {
    throw new NovaError("JSONDecodeError", `${what}: line 1 column ${i + 1} (char ${i})`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  const value = (): PyValue => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: { [key: string]: PyValue } = {};
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
        const k = str();
        ws();
        if (text[i] !== ":") fail("Expecting ':' delimiter");
        i++;
        obj[k] = value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return obj;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === "[") {
      i++;
      const arr: PyValue[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return arr;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [
      ["null", null],
      ["true", true],
      ["false", false],
      ["NaN", new PyFloat(NaN)],
      ["Infinity", new PyFloat(Infinity)],
      ["-Infinity", new PyFloat(-Infinity)],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail("Expecting value");
    i += m[0].length;
    return m[1] || m[2] ? new PyFloat(Number(m[0])) : Number(m[0]);
  };
  const str = (): string => {
    // The JSON string grammar is the same as JavaScript's: let it decode.
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail("Invalid control character at");
      i++;
    }
    if (i >= text.length) fail("Unterminated string starting at");
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail("Invalid \\escape");
    }
  };
  const v = value();
  ws();
  if (i < text.length) fail("Extra data");
  return v;
}

// ---------------------------------------------------------------------------
// Floats written as floats. JSON "2.0" is a Python float (str() "2.0") but a
// JavaScript 2 (String() "2"). Where Nova applies str() to a scenario value
// (aggregate metadata, extra specs, hints, server group rules, cpu_info,
// image properties), the difference shows. parseJson() notes which
// properties held such a number; pyStrAt() prints them as Python would.

const FLOAT_TOKENS = new WeakMap<object, Set<string>>();
const NUMBER_OR_STRING = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * JSON.parse for scenario documents, remembering which numbers were written
 * with a fraction or an exponent and have an integral value (those are the
 * ones String() prints differently from Python's str()).
 */
export function parseJson(text: string): unknown {
  const nonce = `f${Math.random().toString(36).slice(2)}:`;
  const tag = `\u0000${nonce}`; // what the escaped marker below decodes to
  let found = false;
  const marked = text.replace(NUMBER_OR_STRING, (tok) => {
    if (tok[0] === '"' || !/[.eE]/.test(tok) || !Number.isInteger(Number(tok))) return tok;
    found = true;
    return `"\\u0000${nonce}${tok}"`;
  });
  if (!found) return JSON.parse(text);
  return JSON.parse(marked, function (this: object, key: string, value: unknown) {
    if (typeof value === "string" && value.startsWith(tag)) {
      let keys = FLOAT_TOKENS.get(this);
      if (!keys) FLOAT_TOKENS.set(this, (keys = new Set()));
      keys.add(key);
      return Number(value.slice(tag.length));
    }
    return value;
  });
}

/** Was holder[key] written as a float (parseJson)? */
export function isFloatToken(holder: object, key: string | number): boolean {
  return FLOAT_TOKENS.get(holder)?.has(String(key)) ?? false;
}

/** The Python value of holder[key]: a PyFloat where the JSON had a float. */
/** Does any object or list under v hold a number written as a float? (No allocation.) */
function holdsFloatToken(v: unknown): boolean {
  if (v === null || typeof v !== "object" || v instanceof PyFloat || v instanceof PyIPAddress || v instanceof PyObject)
    return false;
  if (FLOAT_TOKENS.has(v)) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (holdsFloatToken(v[i])) return true;
    return false;
  }
  for (const k in v) if (holdsFloatToken((v as Record<string, unknown>)[k])) return true;
  return false;
}

export function pyValueAt(holder: object, key: string | number): PyValue {
  const v = (holder as Record<string, PyValue>)[key as string];
  if (typeof v === "number" && isFloatToken(holder, key)) return new PyFloat(v);
  // Most values (every cpu_info without floats) are already their Python
  // selves: copying them per host only fed the garbage collector.
  if (!holdsFloatToken(v)) return v;
  if (
    v !== null &&
    typeof v === "object" &&
    !(v instanceof PyFloat) &&
    !(v instanceof PyIPAddress) &&
    !(v instanceof PyObject)
  ) {
    if (Array.isArray(v)) return v.map((_, i) => pyValueAt(v, i));
    return Object.fromEntries(Object.keys(v).map((k) => [k, pyValueAt(v, k)]));
  }
  return v;
}

/** str(holder[key]) as the Nova reference computes it from the scenario. */
export function pyStrAt(holder: object, key: string | number): string {
  const v = (holder as Record<string, PyValue>)[key as string];
  if (typeof v === "string") return v;
  return pyStr(pyValueAt(holder, key));
}

/**
 * iter() of a scenario value where the reference loops over it: a list, the
 * characters of a string, the keys of an object; anything else raises
 * TypeError (as `for x in 5` does).
 */
export function pyIter(v: unknown, field: string): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return [...v];
  if (v !== null && typeof v === "object") return Object.keys(v);
  const type =
    v === null || v === undefined
      ? "NoneType"
      : typeof v === "boolean"
        ? "bool"
        : Number.isInteger(v)
          ? "int"
          : "float";
  throw new NovaError("TypeError", `${field}: '${type}' object is not iterable`);
}

function jsonTypeName(v: unknown): string {
  return v === null || v === undefined
    ? "NoneType"
    : Array.isArray(v)
      ? "list"
      : typeof v === "object"
        ? "dict"
        : typeof v;
}

/** Python int() of a JSON value: bool → 0/1, numbers truncate, text must be an integer, else TypeError. */
export function pyIntOfJson(v: unknown, field: string): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return Math.trunc(v);
  if (typeof v === "string") {
    try {
      return pyInt(v);
    } catch {
      throw new NovaError("ValueError", `${field}: invalid literal for int() with base 10: ${pyRepr(v)}`);
    }
  }
  throw new NovaError("TypeError", `${field}: int() argument must be a string or a number, not '${jsonTypeName(v)}'`);
}

/** Python float() of a JSON value: bool → 0/1, numbers, Python float text, else TypeError. */
export function pyFloatOfJson(v: unknown, field: string): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  if (typeof v === "string") {
    try {
      return pyFloat(v);
    } catch {
      throw new NovaError("ValueError", `${field}: could not convert string to float: ${pyRepr(v)}`);
    }
  }
  throw new NovaError("TypeError", `${field}: float() argument must be a string or a number, not '${jsonTypeName(v)}'`);
}
