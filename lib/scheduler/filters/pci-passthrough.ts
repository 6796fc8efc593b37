import type { FilterFactory } from "../plugin";

/** PciPassthroughFilter: without PCI requests (no PCI model yet) every host passes. */
export const PciPassthroughFilter: FilterFactory = () => ({
  name: "PciPassthroughFilter",
  runOncePerRequest: false,
  check: () => null,
});
