import { defineFilter, fixedReason } from "../plugin";

const DOWN = fixedReason("DOWN", "compute service down (not heard from)");
const FORCED_DOWN = fixedReason("DOWN", "compute service forced down (openstack compute service set --down)");

/** ComputeFilter: the nova-compute service must be enabled and up. */
export const ComputeFilter = defineFilter({
  name: "ComputeFilter",
  doc: "Rejects hosts whose compute service is disabled, down or forced down.",
  reasons: {
    DISABLED: "compute service disabled",
    DOWN: "compute service down",
  },
  reads: {},
  factory: () => ({
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
  }),
});
