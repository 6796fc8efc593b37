import type { FilterFactory } from "../plugin";
import { fixedReason } from "../reasons";

const DOWN = fixedReason("DOWN", "compute service down (not heard from)");

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
    if (!svc.up) return DOWN;
    return null;
  },
});
