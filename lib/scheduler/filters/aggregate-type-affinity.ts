import { defineFilter } from "../plugin";

/** AggregateTypeAffinityFilter: aggregates with instance_type metadata accept only those flavors. */
export const AggregateTypeAffinityFilter = defineFilter({
  name: "AggregateTypeAffinityFilter",
  doc: "Aggregate metadata instance_type: only those flavors on its hosts.",
  reasons: {
    FLAVOR_NOT_ALLOWED: "in aggregates reserved for other flavors",
  },
  advice: {
    FLAVOR_NOT_ALLOWED:
      "The remaining hosts' aggregates are restricted to other flavors (instance_type metadata): add this flavor to that metadata, or use a flavor they allow.",
  },
  reads: {
    metadata: [
      {
        key: "instance_type",
        meaning: "only these flavors may boot on the aggregate's hosts",
        valueHint: "flavor names, comma separated",
        value: { kind: "list", of: "flavor name" },
      },
    ],
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
