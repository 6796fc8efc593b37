import { hostValueWeigher } from "./base";

/** DiskWeigher: free disk in MB. */
export const DiskWeigher = hostValueWeigher({
  name: "DiskWeigher",
  doc: "Free disk (> 0 spreads, < 0 stacks).",
  multiplier: "disk_weight_multiplier",
  configured: (config) => config.diskWeightMultiplier,
  minval: 0,
  weigh: (host) => host.freeDiskMb,
});
