import { defineFilter } from "../plugin";

/** ServerGroupAffinityFilter: for an affinity group, only the group's hosts. */
export const ServerGroupAffinityFilter = defineFilter({
  name: "ServerGroupAffinityFilter",
  doc: "affinity groups: keeps only the host(s) already running members.",
  reasons: {
    AFFINITY: "not the affinity group's host",
  },
  advice: {
    AFFINITY:
      "An affinity group must stay on its members' host, and that host was filtered out: free capacity on it, or use a soft-affinity group.",
  },
  reads: {
    hints: ["group"],
  },
  factory: () => ({
    name: "ServerGroupAffinityFilter",
    runOncePerRequest: false,
    passesEveryHost: (spec) => spec.instanceGroup?.policy !== "affinity" || !spec.instanceGroup.hosts.length,
    check(host, spec) {
      const group = spec.instanceGroup;
      if (group?.policy !== "affinity") return null;
      if (!group.hosts.length || group.hosts.includes(host.host)) return null;
      return { code: "AFFINITY", message: `not a host of affinity group ${group.name} (${group.hosts.join(", ")})` };
    },
  }),
});
