import type { AggregateView } from "../host-state";
import { PerAggregateView } from "../per-view";
import type { FilterFactory, Reason } from "../plugin";

/**
 * AvailabilityZoneFilter: the host's AZ (from its aggregates' metadata, or
 * default_availability_zone when none sets one) must be the requested one.
 */
export const AvailabilityZoneFilter: FilterFactory = (config) => {
  let az: string | null = null;
  // Hosts with the same aggregates get the same answer.
  const byView = new PerAggregateView((view: AggregateView): Reason | null => {
    if (!az) return null;
    const zones = view.split.get("availability_zone");
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
  });
  return {
    name: "AvailabilityZoneFilter",
    runOncePerRequest: true,
    prepare(spec) {
      byView.reset();
      az = spec.availabilityZone;
    },
    passesEveryHost: () => !az,
    check(host) {
      return byView.get(host.aggregates);
    },
  };
};
