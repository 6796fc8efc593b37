import type { HostState } from "../host-state";
import { defineWeigher } from "../plugin";
import type { RequestSpec } from "../request-spec";

/** Members of the request's group on this host, when the group has `policy`. */
export function groupMembersOnHost(host: HostState, spec: RequestSpec, policy: string): number {
  const group = spec.instanceGroup;
  if (!group || group.policy !== policy) return 0;
  let n = 0;
  for (const u of host.instances) if (group.members.has(u)) n++;
  return n;
}

/** ServerGroupSoftAffinityWeigher: prefer hosts with more members of a soft-affinity group. */
export const ServerGroupSoftAffinityWeigher = defineWeigher({
  name: "ServerGroupSoftAffinityWeigher",
  doc: "soft-affinity: prefers hosts running group members.",
  multiplier: "soft_affinity_weight_multiplier",
  multiplierMin: 0,
  configured: (config) => config.softAffinityWeightMultiplier,
  factory: () => ({
    weigh: (host, spec) => groupMembersOnHost(host, spec, "soft-affinity"),
    sameForEveryHost: (spec) => (spec.instanceGroup?.policy === "soft-affinity" ? undefined : 0),
  }),
});
