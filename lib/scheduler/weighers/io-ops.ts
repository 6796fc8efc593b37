import { defineWeigher } from "../plugin";

/** IoOpsWeigher: concurrent I/O operations; the default -1.0 prefers quiet hosts. */
export const IoOpsWeigher = defineWeigher({
  name: "IoOpsWeigher",
  doc: "Concurrent I/O operations (< 0 prefers idle hosts).",
  multiplier: "io_ops_weight_multiplier",
  configured: (config) => config.ioOpsWeightMultiplier,
  factory: () => ({ minval: 0, weigh: (host) => host.numIoOps }),
});
