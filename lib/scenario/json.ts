/**
 * Deterministic JSON: object keys sorted (recursively), arrays kept in order,
 * so exporting the same cloud twice gives identical bytes.
 */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeysDeep(v);
    }
    return out;
  }
  return value;
}

/** JSON text with sorted keys and a trailing newline (indent 1, like the Nova reference's output). */
export function stableStringify(value: unknown, indent: number = 1): string {
  return `${JSON.stringify(sortKeysDeep(value), null, indent)}\n`;
}
