import type { HostState } from "../host-state";
import { defineFilter, type Reason } from "../plugin";
import { NovaError, pyInt } from "../python";
import type { InstanceGroup } from "../request-spec";

/**
 * ServerGroupAntiAffinityFilter: for an anti-affinity group, hosts already
 * running max_server_per_host members (rule, default 1) are out.
 */
export const ServerGroupAntiAffinityFilter = defineFilter({
  name: "ServerGroupAntiAffinityFilter",
  doc: "anti-affinity groups: rejects hosts already running a member (up to max_server_per_host).",
  reasons: {
    ANTI_AFFINITY: "already running the anti-affinity group's members",
    ANTI_AFFINITY_THIS_REQUEST: "already holding instances of this request (anti-affinity)",
  },
  advice: {
    ANTI_AFFINITY:
      "Every remaining host already runs a member of the anti-affinity group: add hosts, raise the group's max_server_per_host rule, or use a soft-anti-affinity group.",
  },
  reads: {
    hints: ["group"],
  },
  factory: () => {
    // The rule is read (and may raise) the first time a host needs it, as in Nova; then kept.
    let max: number | null = null;
    return {
      name: "ServerGroupAntiAffinityFilter",
      runOncePerRequest: false,
      prepare() {
        max = null;
      },
      passesEveryHost: (spec) => spec.instanceGroup?.policy !== "anti-affinity",
      check(host, spec) {
        const group = spec.instanceGroup;
        if (group?.policy !== "anti-affinity") return null;
        if (host.instances.has(spec.instanceUuid)) return null;
        let members = 0;
        for (const u of host.instances) if (group.members.has(u)) members++;
        if (max === null) {
          let rule = 1;
          if ("max_server_per_host" in group.rules) {
            try {
              rule = pyInt(group.rules.max_server_per_host);
            } catch (e) {
              throw new NovaError(
                "ValueError",
                `server group ${group.name} rules.max_server_per_host: ${(e as Error).message}`,
              );
            }
          }
          max = rule;
        }
        return members < max ? null : antiAffinityReason(host, group, members, max);
      },
    };
  },
});

/**
 * Why a host is full for the group; names the instances of this very request
 * it already holds (numbered from 1), which is how a multi-instance boot spreads.
 */
function antiAffinityReason(
  host: HostState,
  group: InstanceGroup,
  members: number,
  max: number,
): Reason<"ANTI_AFFINITY" | "ANTI_AFFINITY_THIS_REQUEST"> {
  const own: number[] = [];
  for (const u of host.instances) {
    const index = group.requestMembers.get(u);
    if (index !== undefined) own.push(index + 1);
  }
  if (!own.length)
    return {
      code: "ANTI_AFFINITY",
      message: `already running ${members} of anti-affinity group ${group.name} (max ${max} per host)`,
    };
  own.sort((a, b) => a - b);
  const which = own.length === 1 ? `instance ${own[0]}` : `instances ${own.join(", ")}`;
  return {
    code: "ANTI_AFFINITY_THIS_REQUEST",
    message: `already holds ${which} of this request (${members} of anti-affinity group ${group.name}; max_server_per_host ${max})`,
  };
}
