import type { FilterFactory } from "../plugin";

/** AllHostsFilter: passes every host. */
export const AllHostsFilter: FilterFactory = () => ({
  name: "AllHostsFilter",
  runOncePerRequest: true,
  check: () => null,
});
