import { defineFilter } from "../plugin";

/** AggregateTypeAffinityFilter: aggregates with instance_type metadata accept only those flavors. */
export const AggregateTypeAffinityFilter = defineFilter({
  name: "AggregateTypeAffinityFilter",
  doc: "Aggregate metadata instance_type: only those flavors on its hosts.",
  reasons: {
    FLAVOR_NOT_ALLOWED: "in aggregates reserved for other flavors",
  },
  reads: {
    metadata: ["instance_type"],
  },
  factory: () => ({
    name: "AggregateTypeAffinityFilter",
    runOncePerRequest: true,
    check(host, spec) {
      // The aggregates' instance_type values, split on ',' and stripped, as Nova reads them.
      const names = host.aggregates.split.get("instance_type");
      if (!names) return null;
      return names.has(spec.flavor.name)
        ? null
        : {
            code: "FLAVOR_NOT_ALLOWED",
            message: `flavor ${spec.flavor.name} not in aggregate instance_type=${[...names].join(",")}`,
          };
    },
  }),
});
