/**
 * The stable codes a rejected host is grouped by (plugin.ts `Reason`), and
 * the words a NoValidHost summary puts after a count ("3 at
 * max_instances_per_host") when the hosts' messages differ: the filters'
 * descriptors and Placement's table, gathered. Diagnosis and advice key off
 * these codes, never off the message text.
 */
import { PLACEMENT_REASONS, type PlacementReasonCode } from "./placement/reasons";
import { FILTER_DESCRIPTORS } from "./registry";

type Filters = typeof FILTER_DESCRIPTORS;

/** Every code a filter can answer. */
export type FilterReasonCode = { [N in keyof Filters]: keyof Filters[N]["reasons"] & string }[keyof Filters];

/** Every code the engine can answer, from a filter or from Placement. */
export type ReasonCode = FilterReasonCode | PlacementReasonCode;

export const REASON_LABELS: Readonly<Record<string, string>> = Object.freeze(
  Object.assign({}, ...Object.values(FILTER_DESCRIPTORS).map((d) => d.reasons), PLACEMENT_REASONS),
);
