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
export { FILTERS, WEIGHERS, PREFILTERS, KNOWN } from "./registry";
export { OPTION_DOCS, DEFAULT_ENABLED_FILTERS, ZED_ALL_WEIGHERS, resolveConfig } from "./config";
export { match as matchExtraSpec, describeRequirement, EXTRA_SPEC_OPERATORS } from "./extra-specs-ops";
export type * from "./scenario";
export { FILTER_NAMES, WEIGHER_NAMES, PREFILTER_NAMES } from "./names";
