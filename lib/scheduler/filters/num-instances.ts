import type { HostState } from "../host-state";
import { defineFilter, type HostFilter } from "../plugin";

/**
 * NumInstancesFilter.host_passes, with the limit `_get_max_instances_per_host`
 * gives (AggregateNumInstancesFilter overrides it to read aggregate metadata).
 */
export const numInstancesCheck = <const N extends string>(
  name: N,
  maxInstancesPerHost: (host: HostState) => number,
  limitWords: string,
): HostFilter<"TOO_MANY_INSTANCES", N> => ({
  name,
  runOncePerRequest: false,
  check(host) {
    const max = maxInstancesPerHost(host);
    return host.numInstances < max
      ? null
      : { code: "TOO_MANY_INSTANCES", message: `${host.numInstances} instances already (${limitWords} ${max})` };
  },
});

/** NumInstancesFilter: fewer than max_instances_per_host instances. */
export const NumInstancesFilter = defineFilter({
  name: "NumInstancesFilter",
  doc: "Rejects hosts with max_instances_per_host instances or more.",
  reasons: {
    TOO_MANY_INSTANCES: "at max_instances_per_host",
  },
  advice: {
    TOO_MANY_INSTANCES:
      "Every remaining host runs max_instances_per_host instances already (the profile's, or its aggregate's metadata): raise it, or add hosts.",
  },
  reads: {
    options: ["max_instances_per_host"],
  },
  factory: (config) => numInstancesCheck("NumInstancesFilter", () => config.maxInstancesPerHost, "max"),
});
