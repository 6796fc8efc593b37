import { defineFilter } from "../plugin";
import { IoOpsFilter, ioOpsCheck } from "./io-ops";

/** AggregateIoOpsFilter: max_io_ops_per_host from aggregate metadata (min), else config. */
export const AggregateIoOpsFilter = defineFilter({
  name: "AggregateIoOpsFilter",
  doc: "As IoOpsFilter, with the aggregate's max_io_ops_per_host.",
  reasons: IoOpsFilter.reasons,
  reads: {
    metadata: ["max_io_ops_per_host"],
    options: ["max_io_ops_per_host"],
  },
  factory: (config) =>
    ioOpsCheck(
      "AggregateIoOpsFilter",
      (host) => host.aggregates.intOverride("max_io_ops_per_host", config.maxIoOpsPerHost),
      "aggregate max",
    ),
});
