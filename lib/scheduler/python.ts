/**
 * The few pieces of Python semantics Nova's scheduler leans on: float() and
 * int() parsing, str()/repr() of values, str.split(), comparisons. Nova's
 * verdicts depend on them (e.g. ComputeCapabilitiesFilter matches against
 * str(value), so a list becomes "['avx', 'aes']"), so they are reproduced
 * exactly rather than approximated with JavaScript's own conversions.
 */

/** An exception Nova would raise; `novaName` is the Python class name. */
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
  constructor(readonly text: string) {}
}

export type PyValue =
  | string
  | number // a Python int
  | boolean
  | null
  | PyFloat
  | PyIPAddress
  | PyValue[]
  | { [key: string]: PyValue };

// Python's str.split() with no separator: runs of Unicode whitespace.
const PY_WS = /[\s\x1c-\x1f\x85]+/u;
export function pySplit(s: string): string[] {
  const parts = s.split(PY_WS);
  if (parts.length && parts[0] === '') parts.shift();
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

export function pyStrip(s: string): string {
  return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, '');
}

const FLOAT_RE = /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*|\d(?:_?\d)*\.)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;

/** Python float(str): raises ValueError on anything Python rejects. */
export function pyFloat(s: string | number): number {
  if (typeof s === 'number') return s;
  const t = pyStrip(s);
  const sp = SPECIAL_FLOAT.exec(t);
  if (sp) {
    if (sp[2].toLowerCase() === 'nan') return NaN;
    return sp[1] === '-' ? -Infinity : Infinity;
  }
  if (!FLOAT_RE.test(t)) {
    throw new NovaError('ValueError', `could not convert string to float: ${pyRepr(s)}`);
  }
  return Number(t.replace(/_/g, ''));
}

const INT_RE = /^[+-]?\d(?:_?\d)*$/;

/** Python int(str) in base 10: raises ValueError for "1.5", "", "abc". */
export function pyInt(s: string): number {
  const t = pyStrip(s);
  if (!INT_RE.test(t)) {
    throw new NovaError('ValueError', `invalid literal for int() with base 10: ${pyRepr(s)}`);
  }
  return Number(t.replace(/_/g, ''));
}

/** repr() of a Python float: shortest round-trip digits, Python's layout. */
export function pyFloatRepr(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mant, expStr] = n.toExponential().split('e');
  const exp = Number(expStr);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  let out: string;
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      out = '0.' + '0'.repeat(-exp - 1) + digits;
    } else if (digits.length <= exp + 1) {
      out = digits + '0'.repeat(exp + 1 - digits.length) + '.0';
    } else {
      out = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
    }
  } else {
    const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    const e = Math.abs(exp);
    out = `${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' + e : e}`;
  }
  return neg ? '-' + out : out;
}

function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + quote;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + quote;
}

/** Python repr(). */
export function pyRepr(v: PyValue | undefined): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'string') return pyStrRepr(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : pyFloatRepr(v);
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (v instanceof PyIPAddress) return `IPAddress('${v.text}')`;
  if (Array.isArray(v)) return '[' + v.map(pyRepr).join(', ') + ']';
  return '{' + Object.entries(v).map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`).join(', ') + '}';
}

/** Python str(). */
export function pyStr(v: PyValue | undefined): string {
  if (typeof v === 'string') return v;
  if (v instanceof PyIPAddress) return v.text;
  return pyRepr(v);
}

/** json.dumps() with Python's default separators, for values built from JSON. */
export function pyJsonDumps(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : pyFloatRepr(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(pyJsonDumps).join(', ') + ']';
  return '{' + Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyJsonDumps(k)}: ${pyJsonDumps(x)}`).join(', ') + '}';
}

/** Python truthiness. */
export function pyTruthy(v: PyValue | undefined): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'boolean') return v;
  if (v instanceof PyFloat) return v.value !== 0;
  if (v instanceof PyIPAddress) return true;
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v).length > 0;
}

function numeric(v: PyValue): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof PyFloat) return v.value;
  return undefined;
}

function typeName(v: PyValue): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'int';
  if (v instanceof PyFloat) return 'float';
  if (v instanceof PyIPAddress) return 'IPAddress';
  if (Array.isArray(v)) return 'list';
  return 'dict';
}

/** Python ==. */
export function pyEq(a: PyValue, b: PyValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  if (a === null || b === null) return a === b;
  if (a instanceof PyIPAddress && b instanceof PyIPAddress) return a.text === b.text;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => pyEq(x, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b) &&
      !(a instanceof PyFloat) && !(b instanceof PyFloat) && !(a instanceof PyIPAddress) && !(b instanceof PyIPAddress)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && pyEq(a[k], b[k]));
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
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (!pyEq(a[i], b[i])) return pyCompare(a[i], b[i], op);
    }
    return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
  }
  throw new NovaError(
    'TypeError',
    `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`,
  );
}
