import type { FilterFactory } from "../plugin";
import { NovaError, pyInt } from "../python";

/**
 * ServerGroupAntiAffinityFilter: for an anti-affinity group, hosts already
 * running max_server_per_host members (rule, default 1) are out.
 */
export const ServerGroupAntiAffinityFilter: FilterFactory = () => {
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
      return members < max
        ? null
        : {
            code: "ANTI_AFFINITY",
            message: `already running ${members} of anti-affinity group ${group.name} (max ${max} per host)`,
          };
    },
  };
};
