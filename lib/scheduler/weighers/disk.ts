import type { WeigherFactory } from "../plugin";

/** DiskWeigher: free disk in MB. */
export const DiskWeigher: WeigherFactory = (config) => ({
  name: "DiskWeigher",
  minval: 0,
  weigh: (host) => host.freeDiskMb,
  multiplier: (host) => host.aggregates.weightMultiplier("disk_weight_multiplier", config.diskWeightMultiplier),
});
