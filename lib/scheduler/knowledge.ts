/**
 * What the product says about filters, read from their descriptors: which
 * filter reads an aggregate metadata key, a scheduler hint or an image
 * property, and what to change for a reason code. The catalogue
 * (lib/catalog), the schedule form and the advice (lib/runs) ask this one
 * index, so a new filter's file and registry line are all they need.
 * A test builds one over its own descriptors (a test-only registry).
 */
import type { FilterDescriptor, MetadataKeyRead, WeigherDescriptor } from "./plugin";
import { FILTER_DESCRIPTORS, WEIGHER_DESCRIPTORS } from "./registry";

export interface FilterKnowledge {
  /** Aggregate metadata keys read by name, with the filter that reads each (first in registry order). */
  readonly metadataKeys: ReadonlyMap<string, MetadataKeyRead & { readonly reader: string }>;
  /** Weigher multipliers (nova.conf option and aggregate metadata key) → weigher. */
  readonly multipliers: ReadonlyMap<string, { readonly weigher: string; readonly min?: number }>;
  /** Scheduler hint → the filters that read it. */
  readonly hintReaders: ReadonlyMap<string, readonly string[]>;
  /** Image property named in a descriptor (no wildcard) → the filters that read it. */
  readonly imagePropertyReaders: ReadonlyMap<string, readonly string[]>;
  /** The filters that read a flavor extra spec key, in registry order. */
  readonly extraSpecReaders: (key: string) => string[];
  /** Reason code → what an operator changes (the first descriptor wording it). */
  readonly adviceByCode: ReadonlyMap<string, string>;
  /** Filter name → its reason codes (results stored before codes carry the filter's name). */
  readonly codesOf: ReadonlyMap<string, readonly string[]>;
}

const push = (m: Map<string, string[]>, k: string, v: string) => {
  const list = m.get(k);
  if (!list) m.set(k, [v]);
  else if (!list.includes(v)) list.push(v);
};

export function filterKnowledge(
  filters: Readonly<Record<string, FilterDescriptor>>,
  weighers: Readonly<Record<string, WeigherDescriptor>> = {},
): FilterKnowledge {
  const metadataKeys = new Map<string, MetadataKeyRead & { reader: string }>();
  const hintReaders = new Map<string, string[]>();
  const imagePropertyReaders = new Map<string, string[]>();
  const adviceByCode = new Map<string, string>();
  const codesOf = new Map<string, string[]>();
  const extraSpecPatterns: Array<[pattern: string, filter: string]> = [];
  for (const d of Object.values(filters)) {
    for (const m of d.reads.metadata ?? [])
      if (m !== "*" && !metadataKeys.has(m.key)) metadataKeys.set(m.key, { ...m, reader: d.name });
    for (const h of d.reads.hints ?? []) push(hintReaders, h, d.name);
    for (const p of d.reads.extraSpecs ?? []) extraSpecPatterns.push([p, d.name]);
    for (const p of d.reads.imageProps ?? []) if (!p.includes("*")) push(imagePropertyReaders, p, d.name);
    const advice: Readonly<Record<string, string | undefined>> = d.advice ?? {};
    for (const [code, words] of Object.entries(advice))
      if (words !== undefined && !adviceByCode.has(code)) adviceByCode.set(code, words);
    codesOf.set(d.name, Object.keys(d.reasons));
  }
  const multipliers = new Map<string, { weigher: string; min?: number }>();
  for (const w of Object.values(weighers))
    multipliers.set(
      w.multiplier,
      w.multiplierMin === undefined ? { weigher: w.name } : { weigher: w.name, min: w.multiplierMin },
    );
  const extraSpecReaders = (key: string) => [
    ...new Set(extraSpecPatterns.filter(([p]) => extraSpecMatches(p, key)).map(([, name]) => name)),
  ];
  return { metadataKeys, multipliers, hintReaders, imagePropertyReaders, extraSpecReaders, adviceByCode, codesOf };
}

/** Whether a descriptor's extra spec pattern covers `key` (plugin.ts FilterReads.extraSpecs). */
function extraSpecMatches(pattern: string, key: string): boolean {
  if (pattern === "*") return !key.includes(":");
  if (pattern.endsWith("*")) return key.startsWith(pattern.slice(0, -1));
  return key === pattern;
}

/** The registry's filters and weighers, indexed once. */
export const KNOWLEDGE: FilterKnowledge = filterKnowledge(FILTER_DESCRIPTORS, WEIGHER_DESCRIPTORS);
