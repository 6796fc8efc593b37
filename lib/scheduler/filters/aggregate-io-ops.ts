import { defineFilter } from "../plugin";

/** AggregateIoOpsFilter: max_io_ops_per_host from aggregate metadata (min), else config. */
export const AggregateIoOpsFilter = defineFilter({
  name: "AggregateIoOpsFilter",
  doc: "As IoOpsFilter, with the aggregate's max_io_ops_per_host.",
  reasons: {
    TOO_MANY_IO_OPS: "at max_io_ops_per_host",
  },
  reads: {
    metadata: ["max_io_ops_per_host"],
    options: ["max_io_ops_per_host"],
  },
  factory: (config) => ({
    name: "AggregateIoOpsFilter",
    runOncePerRequest: false,
    check(host) {
      const max = host.aggregates.intOverride("max_io_ops_per_host", config.maxIoOpsPerHost);
      return host.numIoOps < max
        ? null
        : { code: "TOO_MANY_IO_OPS", message: `${host.numIoOps} I/O operations in progress (aggregate max ${max})` };
    },
  }),
});
