import type { PrefilterFactory } from "../plugin";

/** map_az_to_placement_aggregate: only providers in the requested AZ's aggregates. */
export const AvailabilityZonePrefilter: PrefilterFactory = () => ({
  name: "availability_zone",
  check(host, spec) {
    const az = spec.availabilityZone;
    if (!az) return null;
    const zones = host.aggregates.split.get("availability_zone");
    return zones?.has(az) ? null : `outside availability zone ${az}`;
  },
});
