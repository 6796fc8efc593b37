import { defineFilter } from "../plugin";

/** AggregateNumInstancesFilter: max_instances_per_host from aggregate metadata (min), else config. */
export const AggregateNumInstancesFilter = defineFilter({
  name: "AggregateNumInstancesFilter",
  doc: "As NumInstancesFilter, with the aggregate's max_instances_per_host.",
  reasons: {
    TOO_MANY_INSTANCES: "at max_instances_per_host",
  },
  reads: {
    metadata: ["max_instances_per_host"],
    options: ["max_instances_per_host"],
  },
  factory: (config) => ({
    name: "AggregateNumInstancesFilter",
    runOncePerRequest: false,
    check(host) {
      const max = host.aggregates.intOverride("max_instances_per_host", config.maxInstancesPerHost);
      return host.numInstances < max
        ? null
        : { code: "TOO_MANY_INSTANCES", message: `${host.numInstances} instances already (aggregate max ${max})` };
    },
  }),
});
