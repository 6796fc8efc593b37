import { defineWeigher } from "../plugin";

/** IoOpsWeigher: concurrent I/O operations; the default -1.0 prefers quiet hosts. */
export const IoOpsWeigher = defineWeigher({
  name: "IoOpsWeigher",
  doc: "Concurrent I/O operations (< 0 prefers idle hosts).",
  multiplier: "io_ops_weight_multiplier",
  factory: (config) => ({
    name: "IoOpsWeigher",
    minval: 0,
    weigh: (host) => host.numIoOps,
    multiplier: (host) => host.aggregates.weightMultiplier("io_ops_weight_multiplier", config.ioOpsWeightMultiplier),
  }),
});
