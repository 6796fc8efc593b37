/**
 * A bundle with an Ironic service host (three nodes, one deployed) and a
 * vGPU host (a child resource provider per physical GPU), in the formats the
 * clients print (fixtures/ironic/README.md): every node keeps its service
 * host's name and aggregates, the vGPU provider comes in with its inventory
 * and usage, Glance's bookkeeping is left out with a warning, and Nova (the
 * reference, Placement path) answers the exported cloud: the bare-metal
 * flavor goes to the free gold node, the vGPU flavor to the vGPU host.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placementAnswers } from "@/lib/testing/placement-agreement";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { applyImport, prepareImport } from "./import";
import { readBundleDir } from "./read-bundle";

type Row = Record<string, unknown>;
const BUNDLE = path.join(__dirname, "fixtures", "ironic");

describe("an Ironic and vGPU bundle", () => {
  const p = prepareImport(readBundleDir(BUNDLE));
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await applyImport(t.prisma, p);
  });
  afterAll(async () => t?.cleanup());

  it("keeps every node under its service host, in its aggregates", () => {
    const hosts = p.doc.hosts as Row[];
    expect(hosts.map((h) => [h.name, h.node])).toEqual([
      ["gpu-01", "gpu-01.cloud.example"],
      ["ironic-conductor-1", "4a7b8c9d-0001-4e2f-9a3b-5c6d7e8f9a01"],
      ["ironic-conductor-1", "4a7b8c9d-0001-4e2f-9a3b-5c6d7e8f9a02"],
      ["ironic-conductor-1", "4a7b8c9d-0001-4e2f-9a3b-5c6d7e8f9a03"],
    ]);
    expect(p.doc.aggregates).toEqual([
      expect.objectContaining({ name: "baremetal", hosts: ["ironic-conductor-1"], metadata: { baremetal: "true" } }),
    ]);
    // the deployed node (its inventory in use) holds the bare-metal server
    expect(hosts.map((h) => (h.instances as string[]).length)).toEqual([1, 1, 0, 0]);
  });

  it("takes the vGPU child provider with its inventory, usage and traits", () => {
    expect((p.doc.hosts as Row[])[0].child_providers).toEqual([
      {
        name: "gpu-01.cloud.example_pci_0000_81_00_0",
        parent: null,
        uuid: "7d1c2b3a-0002-4e5f-8a9b-0c1d2e3f4a01",
        inventories: {
          VGPU: { total: 16, reserved: 0, allocation_ratio: 1, min_unit: 1, max_unit: 16, step_size: 1 },
        },
        usages: { VGPU: 1 },
        traits: ["CUSTOM_NVIDIA_A16_4Q"],
      },
    ]);
  });

  it("leaves Glance's bookkeeping out, naming it", () => {
    const image = (p.doc.images as Row[])[0];
    expect(image.properties).toEqual({ hw_architecture: "x86_64" });
    expect(p.warnings).toContain(
      "image-show.json[0].properties: direct_url, locations, os_hash_algo, os_hash_value, os_hidden, self: Glance's own bookkeeping, not read by the scheduler (left out)",
    );
  });

  it.each([
    // only node ...02 has a free CUSTOM_BAREMETAL_GOLD (01 is deployed, 03 is silver)
    ["bm.gold", "ironic-conductor-1"],
    ["vgpu.small", "gpu-01"],
  ])(
    "Nova places %s on %s on the Placement path",
    async (flavor, host) => {
      const { reference, ours } = await placementAnswers(t.prisma, flavor, "ubuntu-22.04-baremetal");
      expect(reference.error).toBeNull();
      expect(reference.selections[0].host).toBe(host);
      // and the engine answers as Nova does (host, node, alternates)
      expect(ours.error).toBeNull();
      expect(ours.selections).toEqual(reference.selections);
    },
    120_000,
  );
});
