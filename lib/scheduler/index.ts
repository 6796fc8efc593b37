/** Public face of the scheduler engine. */
export { schedule, type ScheduleOptions, type ScheduleRun } from "./engine";
export {
  toResult,
  diagnose,
  type ScheduleResult,
  type RequestResult,
  type FunnelStep,
  type WeighedHostResult,
  type Diagnosis,
} from "./result";
export { FILTER_DESCRIPTORS, FILTERS, WEIGHER_DESCRIPTORS, WEIGHERS } from "./registry";
/** Retired prefilter names and what each maps to; kept so stored profiles migrate. */
export { PREFILTER_MIGRATION as PREFILTERS, CONFIG_KEYS, migratePlacementPrefilters } from "./config";
export { NOVA_RELEASES, releaseBehaviour, type NovaRelease } from "./releases";
export type { Reason } from "./plugin";
export { OPTION_DOCS, DEFAULT_ENABLED_FILTERS, resolveConfig } from "./config";
export { ZED_ALL_WEIGHERS } from "./releases";
export { match as matchExtraSpec, describeRequirement, EXTRA_SPEC_OPERATORS } from "./extra-specs-ops";
export type * from "./scenario";
export { FILTER_NAMES, WEIGHER_NAMES, PREFILTER_NAMES } from "./names";
