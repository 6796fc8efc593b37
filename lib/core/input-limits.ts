/**
 * The one reader of numbers and JSON that come from users (query strings,
 * path segments, form fields, request bodies, uploaded files): bounded so
 * that nothing a user sends reaches the database or a recursive parser
 * out of range. Pure: no Next.js, no Prisma.
 */

/** The largest value of a database Int (ids, versions, counts kept in Int columns). */
export const MAX_DB_INT = 2_147_483_647;

/** Deeper than any real document we read (a bundle's cpu_info or NUMA topology nests < 10). */
export const MAX_JSON_DEPTH = 64;

/** The largest JSON a form field or an API body may be (a file of a bundle has its own limit). */
export const MAX_JSON_BYTES = 1024 * 1024;

/**
 * A whole number written in decimal digits within [min, max], or null.
 * Accepts a number (a safe integer) or a string of digits only: "1e3",
 * "0x10", " 7", "1.0" and anything past `max` are refused, so what is
 * returned is always safe to hand to the database.
 */
export function wholeNumber(raw: unknown, min = 0, max = MAX_DB_INT): number | null {
  let n: number;
  if (typeof raw === "number") n = raw;
  else if (typeof raw === "string" && /^-?\d{1,16}$/.test(raw)) n = Number(raw);
  else return null;
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

/** A record id (>= 1) of a path segment, query parameter or form field, or null. */
export const recordIdOf = (raw: unknown): number | null => wholeNumber(raw, 1);

/**
 * Where `text` (JSON) nests deeper than `maxDepth`, as the path of the first
 * value past the limit ("hypervisors[0].cpu_info.a.a…"), or null. One pass,
 * no recursion: safe on any input, run before JSON.parse.
 */
export function jsonTooDeep(text: string, maxDepth = MAX_JSON_DEPTH): string | null {
  // per open container: its kind, how it was reached (member key or element index), its current element
  const kinds: ("{" | "[")[] = [];
  const reached: string[] = [];
  const index: number[] = [];
  let pendingKey = "?";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    const top = kinds.length - 1;
    if (c === '"') {
      // a string: find its end, skipping escapes; keep it when it is an object key
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const s = text.slice(i + 1, j);
      i = j + 1;
      let k = i;
      while (k < n && (text[k] === " " || text[k] === "\n" || text[k] === "\r" || text[k] === "\t")) k++;
      if (kinds[top] === "{" && text[k] === ":") pendingKey = s.length > 40 ? `${s.slice(0, 40)}…` : s;
      continue;
    }
    if (c === "{" || c === "[") {
      reached.push(top < 0 ? "" : kinds[top] === "{" ? `.${pendingKey}` : `[${index[top]}]`);
      kinds.push(c);
      index.push(0);
      if (kinds.length > maxDepth) return showPath(reached);
    } else if (c === "}" || c === "]") {
      kinds.pop();
      reached.pop();
      index.pop();
    } else if (c === "," && kinds[top] === "[") index[top]++;
    i++;
  }
  return null;
}

function showPath(reached: string[]): string {
  const text = reached.join("").replace(/^\./, "");
  return text.length > 160 ? `${text.slice(0, 80)}…${text.slice(-60)}` : text || "(the top level)";
}

export type JsonRead = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * JSON a user sent, with the size and depth checked before parsing.
 * `what` names the field or file in the message.
 */
export function readUserJson(
  text: string,
  what: string,
  opts: { maxBytes?: number; maxDepth?: number } = {},
): JsonRead {
  const maxBytes = opts.maxBytes ?? MAX_JSON_BYTES;
  const maxDepth = opts.maxDepth ?? MAX_JSON_DEPTH;
  if (text.length > maxBytes) return { ok: false, message: `${what}: is larger than ${maxBytes} bytes` };
  const deep = jsonTooDeep(text, maxDepth);
  if (deep !== null) return { ok: false, message: `${what}: nests deeper than ${maxDepth} levels at ${deep}` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: `${what}: is not valid JSON (${(e as Error).message})` };
  }
}
