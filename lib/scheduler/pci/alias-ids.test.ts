/** [pci] alias ids per release: 32.0.0's _validate_required_ids (pci_in_placement off). */
import { describe, expect, it } from "vitest";
import { schedule } from "../engine";

const run = (nova_release: string, alias: Record<string, string>) =>
  schedule({
    config: { enabled_filters: ["PciPassthroughFilter"], weighers: ["RAMWeigher"], nova_release, pci_alias: [alias] },
    hosts: [
      {
        name: "h1",
        vcpus: 8,
        memory_mb: 8192,
        local_gb: 100,
        pci_device_pools: [{ vendor_id: "10de", product_id: "20b5", count: 1, tags: { dev_type: "type-PCI" } }],
      },
    ],
    request: { flavor: { name: "g", vcpus: 1, memory_mb: 512, extra_specs: { "pci_passthrough:alias": "gpu:1" } } },
  } as never).error;

describe("a PCI alias without its ids", () => {
  it.each([
    ["zed", { name: "gpu", vendor_id: "10de" }, null],
    ["2025.1", { name: "gpu", vendor_id: "10de" }, null],
    [
      "2025.2",
      { name: "gpu", vendor_id: "10de" },
      "The PCI alias(es) gpu does not have vendor_id and product_id fields set.",
    ],
    [
      "2026.1",
      { name: "gpu", product_id: "20b5" },
      "The PCI alias(es) gpu does not have vendor_id and product_id fields set.",
    ],
    ["2026.1", { name: "gpu", vendor_id: "10de", product_id: "20b5" }, null],
  ])("%s %j: %s", (release, alias, message) => {
    const error = run(release, alias);
    if (message) expect(error).toEqual({ name: "PciInvalidAlias", message });
    else expect(error).toBeNull();
  });
});
