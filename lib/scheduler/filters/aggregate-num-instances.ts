import { defineFilter } from "../plugin";
import { NumInstancesFilter, numInstancesCheck } from "./num-instances";

/** AggregateNumInstancesFilter: max_instances_per_host from aggregate metadata (min), else config. */
export const AggregateNumInstancesFilter = defineFilter({
  name: "AggregateNumInstancesFilter",
  doc: "As NumInstancesFilter, with the aggregate's max_instances_per_host.",
  reasons: NumInstancesFilter.reasons,
  advice: NumInstancesFilter.advice,
  reads: {
    metadata: [
      {
        key: "max_instances_per_host",
        meaning: "a host with this many instances is full (overrides max_instances_per_host; lowest value wins)",
        valueHint: "a whole number, e.g. 50",
        value: { kind: "whole_number" },
      },
    ],
    options: ["max_instances_per_host"],
  },
  factory: (config) =>
    numInstancesCheck(
      "AggregateNumInstancesFilter",
      (host) => host.aggregates.intOverride("max_instances_per_host", config.maxInstancesPerHost),
      "aggregate max",
    ),
});
