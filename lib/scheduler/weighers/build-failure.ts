import { defineWeigher } from "../plugin";

/** BuildFailureWeigher: recent failed builds; the multiplier is negated, as in Nova. */
export const BuildFailureWeigher = defineWeigher({
  name: "BuildFailureWeigher",
  doc: "Penalises hosts with recent failed builds.",
  multiplier: "build_failure_weight_multiplier",
  configured: (config) => config.buildFailureWeightMultiplier,
  factory: (_config, multiplier) => ({
    weigh: (host) => host.failedBuilds,
    multiplier(host) {
      const m = multiplier(host);
      return { value: -1 * m.value, source: m.source };
    },
  }),
});
