/**
 * The names the engine knows, read from the filter and weigher descriptors
 * (registry.ts), in the registry's order. Forms and the scenario schema
 * import these in the browser too: the descriptors are plain TypeScript.
 */
import { FILTER_DESCRIPTORS, type FilterName, WEIGHER_DESCRIPTORS, type WeigherName } from "./registry";

export { type FilterName, isFilterName, isWeigherName, type WeigherName } from "./registry";

export const FILTER_NAMES = Object.keys(FILTER_DESCRIPTORS) as readonly FilterName[];
export const WEIGHER_NAMES = Object.keys(WEIGHER_DESCRIPTORS) as readonly WeigherName[];

/** Retired prefilter names: stored configs naming them are migrated (config.ts PREFILTER_MIGRATION). */
export const PREFILTER_NAMES = [
  "compute_status",
  "availability_zone",
  "tenant_aggregates",
  "traits",
  "resources",
] as const;

export type PrefilterName = (typeof PREFILTER_NAMES)[number];
