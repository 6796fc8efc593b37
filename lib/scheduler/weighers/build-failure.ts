import { defineWeigher } from "../plugin";

/** BuildFailureWeigher: recent failed builds; the multiplier is negated, as in Nova. */
export const BuildFailureWeigher = defineWeigher({
  name: "BuildFailureWeigher",
  doc: "Penalises hosts with recent failed builds.",
  multiplier: "build_failure_weight_multiplier",
  factory: (config) => ({
    name: "BuildFailureWeigher",
    weigh: (host) => host.failedBuilds,
    multiplier(host) {
      const m = host.aggregates.weightMultiplier(
        "build_failure_weight_multiplier",
        config.buildFailureWeightMultiplier,
      );
      return { value: -1 * m.value, source: m.source };
    },
  }),
});
