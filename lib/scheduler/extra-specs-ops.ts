/**
 * nova.scheduler.filters.extra_specs_ops.match: the fourteen operators of
 * flavor extra specs, with Nova's quirks kept (an unknown first word means
 * plain string equality with the whole value; numeric operators raise
 * ValueError on non-numbers; "<in>" is a substring test).
 */
import { NovaError, pyFloat, pySplit } from "./python";

type Op = (x: string, y: string) => boolean;

const NUMERIC: Record<string, Op> = {
  "=": (x, y) => pyFloat(x) >= pyFloat(y),
  "==": (x, y) => pyFloat(x) === pyFloat(y),
  "!=": (x, y) => pyFloat(x) !== pyFloat(y),
  ">=": (x, y) => pyFloat(x) >= pyFloat(y),
  "<=": (x, y) => pyFloat(x) <= pyFloat(y),
};

const STRING: Record<string, Op> = {
  "s==": (x, y) => x === y,
  "s!=": (x, y) => x !== y,
  "s<": (x, y) => x < y,
  "s<=": (x, y) => x <= y,
  "s>": (x, y) => x > y,
  "s>=": (x, y) => x >= y,
  "<in>": (x, y) => x.includes(y),
};

export const EXTRA_SPEC_OPERATORS = [
  "=",
  "==",
  "!=",
  ">=",
  "<=",
  "s==",
  "s!=",
  "s>=",
  "s>",
  "s<=",
  "s<",
  "<in>",
  "<all-in>",
  "<or>",
];

export type Matcher = (value: string | null) => boolean;

/** Parse a requirement once; the returned matcher runs in the host loop. */
export function compileRequirement(req: string): Matcher {
  const words = pySplit(req);
  const op = words.length ? words.shift()! : undefined;
  const method = op !== undefined ? (NUMERIC[op] ?? STRING[op]) : undefined;
  if (op !== "<or>" && op !== "<all-in>" && !method) return (value) => value === req;
  if (op === "<or>") {
    // "<or> v1 <or> v2": every other word is a candidate; a trailing "<or>"
    // with nothing after it makes Nova pop from an empty list.
    const candidates: string[] = [];
    let broken = false;
    const w = [...words];
    for (;;) {
      if (!w.length) {
        broken = true;
        break;
      }
      candidates.push(w.shift()!);
      if (!w.length) break;
      w.shift();
      if (!w.length) break;
    }
    return (value) => {
      if (value === null) return false;
      for (const c of candidates) if (c === value) return true;
      if (broken) throw new NovaError("IndexError", "pop from empty list");
      return false;
    };
  }
  if (!words.length) return () => false;
  if (op === "<all-in>") return (value) => value !== null && words.every((w) => value.includes(w));
  const operand = words[0];
  return (value) => value !== null && method!(value, operand);
}

export function match(value: string | null, req: string): boolean {
  return compileRequirement(req)(value);
}

/** What an extra-spec value means, for the flavor editor ("s== QEMU: ..."). */
export function describeRequirement(req: string): {
  operator: string | null;
  operands: string[];
  meaning: string;
  error?: string;
} {
  const words = pySplit(req);
  const op = words[0];
  const operands = words.slice(1);
  if (!EXTRA_SPEC_OPERATORS.includes(op))
    return { operator: null, operands: [req], meaning: `equal to "${req}" (no operator: exact string match)` };
  if (op === "<or>") {
    const alts = operands.filter((_, i) => i % 2 === 0);
    const badSep = operands.some((w, i) => i % 2 === 1 && w !== "<or>");
    if (!alts.length) return { operator: op, operands, meaning: "", error: "<or> needs at least one value" };
    if (badSep) return { operator: op, operands, meaning: "", error: "alternatives must be separated by <or>" };
    return { operator: op, operands: alts, meaning: `one of ${alts.map((a) => `"${a}"`).join(", ")}` };
  }
  if (!operands.length) return { operator: op, operands, meaning: "", error: `${op} needs an operand` };
  const text: Record<string, string> = {
    "=": "a number at least",
    "==": "a number equal to",
    "!=": "a number not equal to",
    ">=": "a number greater than or equal to",
    "<=": "a number less than or equal to",
    "s==": "string equal to",
    "s!=": "string not equal to",
    "s>=": "string sorting at or after",
    "s>": "string sorting after",
    "s<=": "string sorting at or before",
    "s<": "string sorting before",
    "<in>": "containing the substring",
    "<all-in>": "containing all of",
  };
  if (Object.hasOwn(NUMERIC, op)) {
    try {
      pyFloat(operands[0]);
    } catch {
      return {
        operator: op,
        operands,
        meaning: "",
        error: `${op} compares numbers, but "${operands[0]}" is not a number`,
      };
    }
  }
  const shown = op === "<all-in>" ? operands.join(", ") : operands[0];
  return { operator: op, operands, meaning: `${op} ${shown}: ${text[op]} ${shown}` };
}
