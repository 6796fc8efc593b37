import type { FilterFactory } from '../plugin';

/** AggregateIoOpsFilter: max_io_ops_per_host from aggregate metadata (min), else config. */
export const AggregateIoOpsFilter: FilterFactory = (config) => ({
  name: 'AggregateIoOpsFilter',
  runOncePerRequest: false,
  check(host) {
    const max = host.aggregates.intOverride('max_io_ops_per_host', config.maxIoOpsPerHost);
    return host.numIoOps < max ? null : `has ${host.numIoOps} I/O operations (aggregate max ${max})`;
  },
});
