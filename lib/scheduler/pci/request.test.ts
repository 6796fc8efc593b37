import { describe, expect, it } from "vitest";
import { NovaError } from "../python";
import { pciRequestsFromFlavor } from "./request";

const A100 = { name: "a100", vendor_id: "10de", product_id: "20b5", device_type: "type-PCI", numa_policy: "required" };

function outcome(spec: string, aliases: unknown[], policy: string | null = null): unknown {
  try {
    return pciRequestsFromFlavor(spec, aliases, policy).map((r) => [r.aliasName, r.count, r.numaPolicy, r.spec]);
  } catch (e) {
    if (e instanceof NovaError) return e.novaName;
    throw e;
  }
}

describe("pci_passthrough:alias and [pci] alias, as Nova validates them", () => {
  it.each([
    {
      name: "an alias becomes a request with its NUMA policy and device type",
      spec: "a100:2",
      aliases: [A100],
      want: [["a100", 2, "required", [{ vendor_id: "10de", product_id: "20b5", dev_type: "type-PCI" }]]],
    },
    {
      name: "the flavor's hw:pci_numa_affinity_policy wins over the alias's",
      spec: "a100:1",
      aliases: [A100],
      policy: "preferred",
      want: [["a100", 1, "preferred", [{ vendor_id: "10de", product_id: "20b5", dev_type: "type-PCI" }]]],
    },
    {
      name: "an alias given as JSON text, default policy legacy",
      spec: " gpu :1",
      aliases: ['{"name": "gpu", "vendor_id": "8086", "product_id": "1572"}'],
      want: [["gpu", 1, "legacy", [{ vendor_id: "8086", product_id: "1572" }]]],
    },
    { name: "an unknown alias", spec: "nosuch:1", aliases: [A100], want: "PciRequestAliasNotDefined" },
    { name: "a count that is not a number", spec: "a100:x", aliases: [A100], want: "ValueError" },
    { name: "no count", spec: "a100", aliases: [A100], want: "ValueError" },
    {
      name: "a vendor id that is not 4 hex digits",
      spec: "a:1",
      aliases: [{ ...A100, name: "a", vendor_id: "10dex" }],
      want: "PciInvalidAlias",
    },
    {
      name: "a key the schema does not know",
      spec: "a100:1",
      aliases: [{ ...A100, bus: "1" }],
      want: "PciInvalidAlias",
    },
    {
      name: "a device type Nova does not allow",
      spec: "a100:1",
      aliases: [{ ...A100, device_type: "vdpa" }],
      want: "PciInvalidAlias",
    },
    {
      name: "one name, two NUMA policies",
      spec: "a100:1",
      aliases: [A100, { ...A100, numa_policy: "legacy" }],
      want: "PciInvalidAlias",
    },
    { name: "text that is not JSON", spec: "a100:1", aliases: [A100, "{oops"], want: "PciInvalidAlias" },
  ])("$name", ({ spec, aliases, policy, want }) => {
    expect(outcome(spec, aliases, policy ?? null)).toEqual(want);
  });
});
