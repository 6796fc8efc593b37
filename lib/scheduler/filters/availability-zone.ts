import type { FilterFactory } from "../plugin";

/**
 * AvailabilityZoneFilter: the host's AZ (from its aggregates' metadata, or
 * default_availability_zone when none sets one) must be the requested one.
 */
export const AvailabilityZoneFilter: FilterFactory = (config) => ({
  name: "AvailabilityZoneFilter",
  runOncePerRequest: true,
  check(host, spec) {
    const az = spec.availabilityZone;
    if (!az) return null;
    const zones = host.aggregates.split.get("availability_zone");
    if (zones)
      return zones.has(az)
        ? null
        : { code: "WRONG_AVAILABILITY_ZONE", message: `in availability zone ${[...zones].join(", ")}, not ${az}` };
    return az === config.defaultAvailabilityZone
      ? null
      : {
          code: "WRONG_AVAILABILITY_ZONE",
          message: `in default availability zone ${config.defaultAvailabilityZone}, not ${az}`,
        };
  },
});
