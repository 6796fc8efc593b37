/**
 * Reading what the OpenStack command-line clients print with `-f json`,
 * across their versions: column names as headers ("Hypervisor Hostname",
 * "Is Public") or attribute names ("hypervisor_hostname"), dicts printed as
 * JSON objects or, by older clients, as `key='value', ...` text, lists as
 * JSON arrays or as comma-separated text.
 */

/** "Hypervisor Hostname" / "hypervisor-hostname" / "OS-EXT-SRV-ATTR:host" -> "hypervisor_hostname" / "host". */
export function columnKey(name: string): string {
  const bare = name.includes(":") ? name.slice(name.lastIndexOf(":") + 1) : name;
  return bare
    .trim()
    .toLowerCase()
    .replace(/[\s\-/]+/g, "_");
}

/** columnKey() of the few distinct column names a bundle has (a 10,000-host bundle has ~2 million cells). */
const keyCache = new Map<string, string>();

/** A row with its keys as columnKey() gives them (the first spelling of a key wins). */
export function normalizeRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in row) {
    let key = keyCache.get(k);
    if (key === undefined) {
      key = columnKey(k);
      if (keyCache.size < 10_000) keyCache.set(k, key);
    }
    if (!(key in out)) out[key] = row[k];
  }
  return out;
}

/**
 * Properties as a dict: a JSON object, or the text osc-lib's format_dict
 * printed before clients emitted JSON (`a='1', b='x, y'`), or a JSON text of
 * an object. Returns null when the value is none of these.
 */
export function parseProperties(v: unknown): Record<string, unknown> | null {
  if (v === null || v === undefined || v === "") return {};
  if (typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  if (typeof v !== "string") return null;
  const t = v.trim();
  if (t.startsWith("{")) {
    try {
      const parsed = JSON.parse(t);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: fall through to the key='value' form
    }
  }
  const out: Record<string, unknown> = {};
  // key='value' pairs separated by ", "; a value runs to the quote that ends the text or precedes the next
  // key (a key has no quote or comma: a value like locations='[{'url': 'x', 'metadata': {}}]' stays whole)
  const re = /([^=,'\s][^=,']*?)='(.*?)'(?=, [^=,'\s][^=,']*?='|$)(?:, )?/gs;
  let consumed = 0;
  for (const m of t.matchAll(re)) {
    if (m.index !== consumed) return null;
    out[m[1]] = m[2];
    consumed = m.index + m[0].length;
  }
  return consumed === t.length ? out : null;
}

/** A list: a JSON array, a Python repr of a list (`['a', 'b']`), or comma-separated text. */
export function parseList(v: unknown): string[] | null {
  if (v === null || v === undefined || v === "") return [];
  if (Array.isArray(v)) return v.map(String);
  if (typeof v !== "string") return null;
  const t = v.trim();
  if (t.startsWith("[")) {
    const items = [...t.matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2]);
    return items;
  }
  return t
    .split(/,\s*|\n/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** An integer from a number or its text; "" and null are absent. */
export function parseIntLike(v: unknown): number | undefined | null {
  if (v === null || v === undefined || v === "") return undefined;
  if (typeof v === "number") return Number.isInteger(v) ? v : null;
  if (typeof v === "string" && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  return null;
}

/** A number from a number or its text. */
export function parseNumberLike(v: unknown): number | undefined | null {
  if (v === null || v === undefined || v === "") return undefined;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** true/false from a boolean or the text clients print ("True", "yes", "enabled"). */
export function parseBoolLike(v: unknown): boolean | undefined | null {
  if (v === null || v === undefined || v === "") return undefined;
  if (typeof v === "boolean") return v;
  const t = String(v).trim().toLowerCase();
  if (["true", "yes", "1", "on"].includes(t)) return true;
  if (["false", "no", "0", "off"].includes(t)) return false;
  return null;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
