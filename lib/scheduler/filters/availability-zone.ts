import type { AggregateView } from "../host-state";
import { PerAggregateView } from "../per-view";
import { defineFilter, type Reason } from "../plugin";

/**
 * AvailabilityZoneFilter: the host's AZ (from its aggregates' metadata, or
 * default_availability_zone when none sets one) must be the requested one.
 */
export const AvailabilityZoneFilter = defineFilter({
  name: "AvailabilityZoneFilter",
  doc: "Keeps hosts in the requested availability zone (aggregate metadata availability_zone).",
  reasons: {
    WRONG_AVAILABILITY_ZONE: "outside the requested availability zone",
  },
  reads: {
    metadata: [
      {
        key: "availability_zone",
        meaning: "the availability zone of the aggregate's hosts; requests for another zone skip them",
        valueHint: "a zone name, e.g. az1 (no ':')",
        value: { kind: "zone" },
      },
    ],
    options: ["default_availability_zone"],
  },
  factory: (config) => {
    let az: string | null = null;
    // Hosts with the same aggregates get the same answer.
    const byView = new PerAggregateView((view: AggregateView): Reason<"WRONG_AVAILABILITY_ZONE"> | null => {
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
  },
});
