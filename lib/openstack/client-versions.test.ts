/**
 * Bundles as python-openstackclient 5.x (novaclient hypervisors at compute
 * API 2.1, with the resource tracker's fields) and 7.x (openstacksdk at 2.88+,
 * without them) print them (fixtures/client-5x/README.md,
 * fixtures/client-7x/README.md): both import with only Glance's bookkeeping
 * named, usage comes from Placement, and Nova (the reference, Placement path)
 * answers the exported cloud as the engine does.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placementAnswers } from "@/lib/testing/placement-agreement";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { applyImport, prepareImport } from "./import";
import { readBundleDir } from "./read-bundle";

type Row = Record<string, unknown>;
const GLANCE =
  "image-show.json[0].properties: os_hash_algo, os_hash_value, os_hidden, owner_specified.openstack.md5, owner_specified.openstack.object, owner_specified.openstack.sha256, stores: Glance's own bookkeeping, not read by the scheduler (left out)";

describe.each([
  {
    bundle: "client-5x",
    image: "ubuntu-20.04",
    hosts: [
      ["cmp-01", 10, 40960, 2],
      ["cmp-02", 2, 8192, 1],
      ["cmp-03", 8, 69632, 1],
    ],
    policy: { policy: "anti-affinity" },
  },
  {
    bundle: "client-7x",
    image: "ubuntu-24.04",
    hosts: [
      ["cmp-01", 10, 40960, 2],
      ["cmp-02", 2, 8192, 1],
      ["cmp-03", 8, 69632, 1],
      ["cmp-04", 0, 4096, 0],
    ],
    policy: { policy: "anti-affinity", rules: { max_server_per_host: 1 } },
  },
])("a bundle of openstack client $bundle", ({ bundle, image, hosts, policy }) => {
  const p = prepareImport(readBundleDir(path.join(__dirname, "fixtures", bundle)));
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await applyImport(t.prisma, p);
  });
  afterAll(async () => t?.cleanup());

  // prepareImport throws on any error, so reaching here means none
  it("imports with only Glance's bookkeeping named", () => {
    expect(p.warnings).toEqual([GLANCE]);
  });

  it("takes usage from Placement (reserved memory counted as used), instances by host", () => {
    const got = (p.doc.hosts as Row[]).map((h) => [h.name, h.vcpus_used, h.memory_mb_used, (h.instances as []).length]);
    expect(got).toEqual(hosts);
  });

  it("reads aggregates' metadata, flavors' extra specs, image properties and the server group", () => {
    expect(p.doc.aggregates).toEqual([
      expect.objectContaining({ name: "ssd", hosts: ["cmp-01", "cmp-02"], metadata: { ssd: "true" } }),
      expect.objectContaining({
        name: "highmem",
        hosts: ["cmp-03"],
        metadata: { highmem: "true", ram_weight_multiplier: "2.0" },
        availability_zone: "nova",
      }),
    ]);
    const flavors = p.doc.flavors as Row[];
    expect(flavors.find((f) => f.name === "hm.xlarge")).toMatchObject({
      swap: 2048,
      is_public: false,
      extra_specs: { "aggregate_instance_extra_specs:highmem": "true", "hw:mem_page_size": "any" },
    });
    expect((p.doc.images as Row[])[0].properties).toMatchObject({ hw_architecture: "x86_64", os_distro: "ubuntu" });
    expect(p.doc.server_groups).toEqual([expect.objectContaining({ name: "web", ...policy })]);
  });

  it.each([
    // of the ssd hosts cmp-02 has the more free RAM
    ["ssd.medium", "cmp-02"],
    ["hm.xlarge", "cmp-03"],
  ])(
    "Nova places %s on %s on the Placement path",
    async (flavor, host) => {
      const { reference, ours } = await placementAnswers(t.prisma, flavor, image);
      expect(reference.error).toBeNull();
      expect(reference.selections[0].host).toBe(host);
      // and the engine answers as Nova does (host, node, alternates)
      expect(ours.error).toBeNull();
      expect(ours.selections).toEqual(reference.selections);
    },
    120_000,
  );
});
