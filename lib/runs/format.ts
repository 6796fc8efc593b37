/**
 * Number formatting shared by the result view and the tests that compare the
 * page with the engine's JSON (so both sides format the same way).
 */

const MINUS = "\u2212";

function signed(text: string): string {
  return text.startsWith("-") ? MINUS + text.slice(1) : text;
}

/** A total weight or a weigher score: 4 decimals, typographic minus, no "-0.0000". */
export function fmtWeight(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const t = n.toFixed(4);
  return /^-0\.0+$/.test(t) ? t.slice(1) : signed(t);
}

/** A multiplier: as short as exact (1, −1, 0.5, 1000000). */
export function fmtMultiplier(n: number): string {
  return n === 0 ? "0" : signed(String(n));
}

/** A raw weigher value (MB of RAM, vCPUs, a metric): integers grouped, others 4 significant digits. */
export function fmtRaw(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (n === 0) return "0"; // also -0
  if (Number.isInteger(n)) return signed(n.toLocaleString("en-US"));
  return signed(String(Number(n.toPrecision(4))));
}

/** A normalized value in [0, 1]. */
export function fmtNormalized(n: number): string {
  return n === 0 ? "0.000" : signed(n.toFixed(3));
}

export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function fmtCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** "RAMWeigher" -> "RAM", "ServerGroupSoftAffinityWeigher" -> "ServerGroupSoftAffinity". */
export function shortWeigher(name: string): string {
  return name.endsWith("Weigher") && name.length > 7 ? name.slice(0, -7) : name;
}

/** "config" -> "profile", "aggregate gpu-a40" -> "aggregate gpu-a40". */
export function fmtSource(source: string): string {
  return source === "config" ? "profile" : source;
}

/** "placement:resources" -> "Placement: resources". */
export function fmtStage(filter: string): string {
  return filter.startsWith("placement:") ? `Placement: ${filter.slice("placement:".length)}` : filter;
}
