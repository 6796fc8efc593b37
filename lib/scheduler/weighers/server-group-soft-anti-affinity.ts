import { defineWeigher } from "../plugin";
import { groupMembersOnHost } from "./server-group-soft-affinity";

/** ServerGroupSoftAntiAffinityWeigher: prefer hosts with fewer members of a soft-anti-affinity group. */
export const ServerGroupSoftAntiAffinityWeigher = defineWeigher({
  name: "ServerGroupSoftAntiAffinityWeigher",
  doc: "soft-anti-affinity: prefers hosts without group members.",
  multiplier: "soft_anti_affinity_weight_multiplier",
  multiplierMin: 0,
  configured: (config) => config.softAntiAffinityWeightMultiplier,
  factory: () => ({
    // Nova's `len(...) * -1` is an int: no member is 0, not -0.
    weigh: (host, spec) => 0 - groupMembersOnHost(host, spec, "soft-anti-affinity"),
    sameForEveryHost: (spec) => (spec.instanceGroup?.policy === "soft-anti-affinity" ? undefined : 0),
  }),
});
