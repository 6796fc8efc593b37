import { defineWeigher } from "../plugin";

/** DiskWeigher: free disk in MB. */
export const DiskWeigher = defineWeigher({
  name: "DiskWeigher",
  doc: "Free disk (> 0 spreads, < 0 stacks).",
  multiplier: "disk_weight_multiplier",
  factory: (config) => ({
    name: "DiskWeigher",
    minval: 0,
    weigh: (host) => host.freeDiskMb,
    multiplier: (host) => host.aggregates.weightMultiplier("disk_weight_multiplier", config.diskWeightMultiplier),
  }),
});
