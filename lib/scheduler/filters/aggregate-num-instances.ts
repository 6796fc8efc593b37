import type { FilterFactory } from "../plugin";

/** AggregateNumInstancesFilter: max_instances_per_host from aggregate metadata (min), else config. */
export const AggregateNumInstancesFilter: FilterFactory = (config) => ({
  name: "AggregateNumInstancesFilter",
  runOncePerRequest: false,
  check(host) {
    const max = host.aggregates.intOverride("max_instances_per_host", config.maxInstancesPerHost);
    return host.numInstances < max
      ? null
      : { code: "TOO_MANY_INSTANCES", message: `${host.numInstances} instances already (aggregate max ${max})` };
  },
});
