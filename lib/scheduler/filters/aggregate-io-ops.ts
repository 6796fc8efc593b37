import { defineFilter } from "../plugin";
import { IoOpsFilter, ioOpsCheck } from "./io-ops";

/** AggregateIoOpsFilter: max_io_ops_per_host from aggregate metadata (min), else config. */
export const AggregateIoOpsFilter = defineFilter({
  name: "AggregateIoOpsFilter",
  doc: "As IoOpsFilter, with the aggregate's max_io_ops_per_host.",
  reasons: IoOpsFilter.reasons,
  advice: IoOpsFilter.advice,
  reads: {
    metadata: [
      {
        key: "max_io_ops_per_host",
        meaning: "a host with this many I/O operations is busy (overrides max_io_ops_per_host; lowest value wins)",
        valueHint: "a whole number, e.g. 8",
        value: { kind: "whole_number" },
      },
    ],
    options: ["max_io_ops_per_host"],
  },
  factory: (config) =>
    ioOpsCheck(
      "AggregateIoOpsFilter",
      (host) => host.aggregates.intOverride("max_io_ops_per_host", config.maxIoOpsPerHost),
      "aggregate max",
    ),
});
