import { defineWeigher } from "../plugin";

/** DiskWeigher: free disk in MB. */
export const DiskWeigher = defineWeigher({
  name: "DiskWeigher",
  doc: "Free disk (> 0 spreads, < 0 stacks).",
  multiplier: "disk_weight_multiplier",
  configured: (config) => config.diskWeightMultiplier,
  factory: () => ({ minval: 0, weigh: (host) => host.freeDiskMb }),
});
