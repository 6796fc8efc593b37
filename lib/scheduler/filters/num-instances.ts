import type { FilterFactory } from "../plugin";

/** NumInstancesFilter: fewer than max_instances_per_host instances. */
export const NumInstancesFilter: FilterFactory = (config) => ({
  name: "NumInstancesFilter",
  runOncePerRequest: false,
  check(host) {
    const max = config.maxInstancesPerHost;
    return host.numInstances < max
      ? null
      : { code: "TOO_MANY_INSTANCES", message: `${host.numInstances} instances already (max ${max})` };
  },
});
