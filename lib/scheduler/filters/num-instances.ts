import { defineFilter } from "../plugin";

/** NumInstancesFilter: fewer than max_instances_per_host instances. */
export const NumInstancesFilter = defineFilter({
  name: "NumInstancesFilter",
  doc: "Rejects hosts with max_instances_per_host instances or more.",
  reasons: {
    TOO_MANY_INSTANCES: "at max_instances_per_host",
  },
  reads: {
    options: ["max_instances_per_host"],
  },
  factory: (config) => ({
    name: "NumInstancesFilter",
    runOncePerRequest: false,
    check(host) {
      const max = config.maxInstancesPerHost;
      return host.numInstances < max
        ? null
        : { code: "TOO_MANY_INSTANCES", message: `${host.numInstances} instances already (max ${max})` };
    },
  }),
});
