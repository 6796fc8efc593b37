import { networkContains, parseNetwork, type ParsedNetwork } from "../ip";
import { defineFilter } from "../plugin";
import { NovaError, pyTruthy } from "../python";
import { getSchedulerHint } from "../request-spec";

/** SimpleCIDRAffinityFilter: host IP within build_near_host_ip + cidr (default /24). */
export const SimpleCIDRAffinityFilter = defineFilter({
  name: "SimpleCIDRAffinityFilter",
  doc: "Hints build_near_host_ip + cidr: hosts in that subnet.",
  reasons: {
    OUTSIDE_CIDR: "outside the build_near_host_ip network",
  },
  advice: {
    OUTSIDE_CIDR:
      "No remaining host's IP is within build_near_host_ip + cidr: widen the cidr, or pick another address.",
  },
  reads: {
    hints: ["build_near_host_ip", "cidr"],
  },
  factory: () => {
    let net: ParsedNetwork | null = null;
    let text = "";
    return {
      name: "SimpleCIDRAffinityFilter",
      runOncePerRequest: true,
      prepare(spec) {
        const cidr = getSchedulerHint(spec, "cidr", "/24");
        const addr = getSchedulerHint(spec, "build_near_host_ip");
        net = null;
        if (addr !== undefined && pyTruthy(addr)) {
          if (Array.isArray(addr) || Array.isArray(cidr)) {
            throw new NovaError("TypeError", "build_near_host_ip and cidr hints take one value each");
          }
          text = (addr as string) + cidr;
          net = parseNetwork(text);
        }
      },
      check(host) {
        if (!net) return null;
        const ip = host.parsedIp;
        return networkContains(net, ip)
          ? null
          : { code: "OUTSIDE_CIDR", message: `host IP ${host.hostIp} outside ${text}` };
      },
    };
  },
});
