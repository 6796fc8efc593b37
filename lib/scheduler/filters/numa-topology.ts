import type { FilterFactory } from "../plugin";

/** NUMATopologyFilter: without a NUMA topology request (no NUMA model yet) every host passes. */
export const NUMATopologyFilter: FilterFactory = () => ({
  name: "NUMATopologyFilter",
  runOncePerRequest: false,
  check: () => null,
});
