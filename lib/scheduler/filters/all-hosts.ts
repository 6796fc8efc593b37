import { defineFilter } from "../plugin";

/** AllHostsFilter: passes every host. */
export const AllHostsFilter = defineFilter({
  name: "AllHostsFilter",
  doc: "Passes every host (no filtering).",
  reasons: {},
  reads: {},
  factory: () => ({
    name: "AllHostsFilter",
    runOncePerRequest: true,
    check: () => null,
  }),
});
