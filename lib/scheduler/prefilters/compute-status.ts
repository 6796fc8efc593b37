import type { PrefilterFactory } from "../plugin";

/** compute_status_filter: disabled computes carry COMPUTE_STATUS_DISABLED and are excluded. */
export const ComputeStatusPrefilter: PrefilterFactory = () => ({
  name: "compute_status",
  check: (host) => (host.service.disabled ? "COMPUTE_STATUS_DISABLED (compute service disabled)" : null),
});
