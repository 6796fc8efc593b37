import type { FilterFactory } from "../plugin";
import { fixedReason } from "../reasons";

const DOWN = fixedReason("DOWN", "compute service down (not heard from)");
const FORCED_DOWN = fixedReason("DOWN", "compute service forced down (openstack compute service set --down)");

/** ComputeFilter: the nova-compute service must be enabled and up. */
export const ComputeFilter: FilterFactory = () => ({
  name: "ComputeFilter",
  runOncePerRequest: true,
  check(host) {
    const svc = host.service;
    if (svc.disabled)
      return {
        code: "DISABLED",
        message: `compute service disabled${svc.disabled_reason ? ` (${svc.disabled_reason})` : ""}`,
      };
    if (!svc.up) return svc.forced_down ? FORCED_DOWN : DOWN;
    return null;
  },
});
