/**
 * Integration: real databases (SQLite files and PostgreSQL databases)
 * migrated with the real migrations. Import -> export round trips are
 * checked against OpenStack Nova itself (the reference, python3-nova): same
 * answer as the original scenario; PostgreSQL's export is byte for byte
 * SQLite's.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import type { PrismaClient } from "@/lib/db/client";
import { createTestDatabase, createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { CloudValidationError, exportCloud, importCloud, requestFromDb } from "./scenario-io";
import { stableStringify } from "@/lib/scenario/json";
import { loadSnapshot } from "@/lib/cloud/snapshot";
import {
  assertNovaReferenceAvailable,
  EXAMPLES_DIR,
  exampleFiles,
  readExample,
  runNovaReference,
  tableCounts,
  tableFingerprint,
} from "@/lib/testing/cloud";

/** Imports `doc` and expects it refused with an error that starts with `message`, and not one row changed. */
async function expectRefused(prisma: PrismaClient, doc: unknown, message: string): Promise<void> {
  const before = await tableFingerprint(prisma);
  const err = await importCloud(prisma, doc).catch((e) => e);
  expect(err).toBeInstanceOf(CloudValidationError);
  expect(
    (err as CloudValidationError).errors.find((e) => e.startsWith(message)),
    (err as Error).message,
  ).toBeTruthy();
  expect(await tableFingerprint(prisma)).toBe(before);
}

describe("import -> export round trip on every shared example (answered by Nova)", () => {
  let t: TestDatabase;
  let pg: TestDatabase;
  beforeAll(async () => {
    assertNovaReferenceAvailable();
    t = await createTestDatabase();
    pg = await createTestDatabaseOf("postgresql", inject("postgresUrl"));
  });
  afterAll(async () => {
    await t?.cleanup();
    await pg?.cleanup();
  });

  it.each(exampleFiles())("%s", async (file) => {
    const original = readExample(file);
    const summary = await importCloud(t.prisma, original);
    expect(summary.hosts).toBe((original.hosts as unknown[]).length);

    const exported = await exportCloud(t.prisma, { request: original });
    const text = stableStringify(exported);
    // deterministic: a second export gives the same bytes
    expect(stableStringify(await exportCloud(t.prisma, { request: original }))).toBe(text);

    // host order, aggregate order and metadata strings are preserved
    expect(exported.hosts.map((h) => h.name)).toEqual((original.hosts as { name: string }[]).map((h) => h.name));
    expect(exported.aggregates).toEqual(
      ((original.aggregates ?? []) as Record<string, unknown>[]).map((a) =>
        expect.objectContaining({ name: a.name, hosts: a.hosts ?? [], metadata: a.metadata ?? {} }),
      ),
    );

    // Nova answers the exported scenario exactly as it answered the original
    // (<name>.expected.json is the reference's answer to the original file)
    const expected = JSON.parse(
      fs.readFileSync(path.join(EXAMPLES_DIR, file.replace(".scenario.json", ".expected.json")), "utf8"),
    );
    delete expected.timing;
    expect(runNovaReference(JSON.parse(text))).toEqual(expected);

    // import(export(x)) is a fixed point
    await importCloud(t.prisma, JSON.parse(text));
    expect(stableStringify(await exportCloud(t.prisma, { request: original }))).toBe(text);

    // PostgreSQL keeps and gives back exactly the same cloud
    await importCloud(pg.prisma, original);
    expect(stableStringify(await exportCloud(pg.prisma, { request: original }))).toBe(text);
  });
});

describe.each(PROVIDERS)("import (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabaseOf(provider, inject("postgresUrl"));
  });
  afterAll(async () => t?.cleanup());
  beforeEach(async () => {
    await importCloud(t.prisma, readExample("gpu-az.scenario.json"), { profileName: "gpu-az" });
  });

  it("replaces the whole cloud and activates the document's config", async () => {
    await t.prisma.schedulerProfile.create({ data: { name: "mine", config: "{}", active: false } });
    const s = await importCloud(t.prisma, readExample("s0008.scenario.json"));
    expect(s.profile).toBe("imported");
    const snap = await loadSnapshot(t.prisma);
    expect(snap.scenario.hosts.map((h) => h.name)).toEqual(
      (readExample("s0008.scenario.json").hosts as { name: string }[]).map((h) => h.name),
    );
    expect(snap.profileName).toBe("imported");
    const profiles = await t.prisma.schedulerProfile.findMany({ orderBy: { name: "asc" } });
    expect(profiles.map((p) => [p.name, p.active])).toEqual([
      ["gpu-az", false],
      ["imported", true],
      ["mine", false],
    ]);
    // no host of the previous cloud is left, nor any of its children
    const counts = await tableCounts(t.prisma);
    expect(counts.ComputeHost).toBe(2);
    expect(await t.prisma.computeHost.findUnique({ where: { name: "g1" } })).toBeNull();
  });

  it("stores the request's flavor and image", async () => {
    const doc = readExample("s0000.scenario.json") as any;
    await importCloud(t.prisma, doc);
    const f = await t.prisma.flavor.findUnique({
      where: { name: doc.request.flavor.name },
      include: { extraSpecs: true },
    });
    expect(f).toMatchObject({ vcpus: doc.request.flavor.vcpus, memoryMb: doc.request.flavor.memory_mb });
    const im = await t.prisma.image.findUnique({
      where: { uuid: doc.request.image.id },
      include: { properties: true },
    });
    expect(Object.fromEntries(im!.properties.map((p) => [p.key, p.value]))).toEqual(doc.request.image.properties);
    // and the request can be rebuilt from them
    const req = await requestFromDb(t.prisma, { flavor: f!.name, image: im!.uuid });
    expect(req.flavor.extra_specs).toEqual(doc.request.flavor.extra_specs ?? {});
    expect(req.image!.properties).toEqual(doc.request.image.properties);
  });

  it("keeps instances that are on no host, their attributes and group membership", async () => {
    const doc = {
      hosts: [{ name: "h1", vcpus: 8, memory_mb: 16384, local_gb: 100, instances: ["i-1"] }],
      flavors: [{ name: "small", vcpus: 1, memory_mb: 2048 }],
      images: [{ id: "img-1", name: "cirros", properties: { hw_architecture: "x86_64", hw_numa_nodes: 2 } }],
      server_groups: [{ name: "grp", policy: "soft-affinity", members: ["i-1", "i-2"] }],
      instances: [
        { uuid: "i-1", name: "web-1", flavor: "small", image: "img-1", project_id: "p1" },
        { uuid: "i-2", name: "shelved", flavor: "small" },
      ],
    };
    await importCloud(t.prisma, doc);
    const out = await exportCloud(t.prisma);
    expect(out.server_groups).toEqual([
      // the reference's uuid for a group given without one
      expect.objectContaining({ name: "grp", members: ["i-1", "i-2"], uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) }),
    ]);
    expect(out.instances).toEqual([
      { uuid: "i-1", name: "web-1", flavor: "small", image: "img-1", project_id: "p1" },
      { uuid: "i-2", name: "shelved", flavor: "small" },
    ]);
    expect(out.images).toEqual([
      { id: "img-1", name: "cirros", properties: { hw_architecture: "x86_64", hw_numa_nodes: 2 } },
    ]);
    expect(out.hosts[0].instances).toEqual(["i-1"]);
  });

  const bad: [string, (d: any) => void, string][] = [
    ["wrong type", (d) => (d.hosts[0].vcpus = "many"), 'hosts[0].vcpus: must be a non-negative integer (got "many")'],
    [
      "negative resources",
      (d) => (d.hosts[1].memory_mb_used = -1),
      "hosts[1].memory_mb_used: must be a non-negative integer (got -1)",
    ],
    [
      "unknown host in aggregate",
      (d) => d.aggregates[0].hosts.push("cmp-999"),
      'aggregates[0].hosts[2]: unknown host "cmp-999"',
    ],
    [
      // the same name with another node is a second compute node of that host (Ironic): allowed
      "duplicate compute nodes",
      (d) => {
        d.hosts[1].name = d.hosts[0].name;
        d.hosts[0].node = "n1";
        d.hosts[1].node = "n1";
      },
      'hosts[1].node: duplicate compute node "n1" of host "c1"',
    ],
    [
      "duplicate aggregate names",
      (d) => (d.aggregates[1].name = d.aggregates[0].name),
      'aggregates[1].name: duplicate aggregate name "gpu"',
    ],
    [
      "member that is not an instance",
      (d) => d.server_groups[0].members.push("i-404"),
      'server_groups[0].members[1]: "i-404" is not an instance',
    ],
    [
      "instance on two hosts",
      (d) => (d.hosts[1].instances = ["i-1"]),
      'hosts[1].instances[0]: instance "i-1" is also on hosts[0] (c1)',
    ],
    [
      "duplicate flavor names",
      (d) =>
        (d.flavors = [
          { name: "a", vcpus: 1, memory_mb: 1 },
          { name: "a", vcpus: 1, memory_mb: 1 },
        ]),
      'flavors[1].name: duplicate flavor name "a"',
    ],
  ];
  it.each(bad)("rejects %s with a clear message and changes nothing", async (_name, mutate, message) => {
    const doc = readExample("gpu-az.scenario.json");
    mutate(doc);
    await expectRefused(t.prisma, doc, message);
  });

  it("rolls back everything when the database refuses a row mid-import", async () => {
    const before = await tableFingerprint(t.prisma);
    // a trigger makes the very last INSERT of the import (instances) fail
    if (provider === "postgresql") {
      await t.prisma.$executeRawUnsafe(
        `CREATE FUNCTION "test_boom"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$`,
      );
      await t.prisma.$executeRawUnsafe(
        `CREATE TRIGGER "test_boom" BEFORE INSERT ON "Instance" FOR EACH ROW WHEN (NEW."uuid" = 'i-boom') EXECUTE FUNCTION "test_boom"()`,
      );
    } else {
      await t.prisma.$executeRawUnsafe(
        `CREATE TRIGGER "test_boom" BEFORE INSERT ON "Instance" WHEN NEW."uuid" = 'i-boom' BEGIN SELECT RAISE(ABORT, 'boom'); END`,
      );
    }
    try {
      const doc = readExample("s0008.scenario.json") as any;
      doc.hosts[0].instances.push("i-boom");
      await expect(importCloud(t.prisma, doc)).rejects.toThrow(/boom/);
    } finally {
      await t.prisma.$executeRawUnsafe(`DROP TRIGGER "test_boom"${provider === "postgresql" ? ` ON "Instance"` : ""}`);
    }
    expect(await tableFingerprint(t.prisma)).toBe(before);
  });

  it("rejects a server group uuid that collides with the one invented for another group", async () => {
    const { stableUuid } = await import("@/lib/scheduler/nova-uuid");
    const doc = readExample("gpu-az.scenario.json") as any;
    doc.server_groups.push(
      { name: "web", policy: "affinity" },
      { uuid: stableUuid("sg-web"), name: "other", policy: "affinity" },
    );
    const before = await tableFingerprint(t.prisma);
    const err = await importCloud(t.prisma, doc).catch((e) => e);
    expect(err).toBeInstanceOf(CloudValidationError);
    expect(err.errors[0]).toMatch(/^server_groups\[1\]\.uuid: is left out, and the uuid the reference invents for it/);
    expect(await tableFingerprint(t.prisma)).toBe(before);
  });
});

describe("the scenario CLI", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-cli-"));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const cli = (args: string[], dbFile: string) =>
    spawnSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "lib/scenario/cli.ts", ...args], {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: `file:${dbFile}` },
      maxBuffer: 1 << 28,
    });

  it("imports into and exports from a database that does not exist yet", () => {
    const db = path.join(tmp, "new", "cloud.db");
    const example = path.join(EXAMPLES_DIR, "gpu-az.scenario.json");
    const imp = cli(["import", example], db);
    expect(imp.stderr).toContain("applied 2");
    expect(imp.status, imp.stderr).toBe(0);
    expect(imp.stdout).toMatch(/^replaced the cloud in .* 5 hosts in 2 cell\(s\)/);
    const exp = cli(["export", "--request", example], db);
    expect(exp.status, exp.stderr).toBe(0);
    const doc = JSON.parse(exp.stdout);
    expect(doc.hosts).toHaveLength(5);
    expect(doc.request).toEqual(readExample("gpu-az.scenario.json").request);
    const db2 = path.join(tmp, "other.db");
    const exp2 = cli(["export"], db2);
    expect(exp2.status, exp2.stderr).toBe(0);
    expect(JSON.parse(exp2.stdout)).toEqual({
      aggregates: [],
      flavors: [],
      hosts: [],
      images: [],
      instances: [],
      server_groups: [],
    });
  });

  it("reports invalid input on stderr, exits 1 and changes nothing", () => {
    const db = path.join(tmp, "bad.db");
    const file = path.join(tmp, "bad.json");
    const doc = readExample("gpu-az.scenario.json") as any;
    doc.hosts[2].local_gb = -10;
    doc.aggregates[0].hosts.push("nowhere");
    fs.writeFileSync(file, JSON.stringify(doc));
    const r = cli(["import", file], db);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("error: hosts[2].local_gb: must be a non-negative integer (got -10)");
    expect(r.stderr).toContain("nothing was changed");
    fs.writeFileSync(file, "{ not json");
    const r2 = cli(["import", file], db);
    expect(r2.status).toBe(1);
    expect(r2.stderr).toMatch(/bad\.json: not valid JSON/);
    const r3 = cli(["frobnicate"], db);
    expect(r3.status).toBe(2);
  });
});

describe.each(PROVIDERS)("NUMA, PCI and Placement input the database refuses (nothing written) (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabaseOf(provider, inject("postgresUrl"));
    await importCloud(t.prisma, readExample("pci-gpu-alias-numa-required.scenario.json"));
  });
  afterAll(async () => t?.cleanup());

  const bad: [string, (d: any) => void, string][] = [
    [
      "a NUMA cell whose cpuset and pcpuset overlap",
      (d) => {
        d.hosts[0].numa_topology.cells[0].cpuset = [7, 20];
      },
      "hosts[0].numa_topology.cells[0].pcpuset: cpuset and pcpuset overlap on CPUs 7",
    ],
    [
      "pinned CPUs outside pcpuset",
      (d) => {
        d.hosts[0].numa_topology.cells[1].pinned_cpus = [8, 30];
      },
      "hosts[0].numa_topology.cells[1].pinned_cpus: pinned CPUs 30 are not in pcpuset",
    ],
    [
      "a negative page count",
      (d) => {
        d.hosts[0].numa_topology.cells[0].mempages = [{ size_kb: 2048, total: -4, used: 0 }];
      },
      "hosts[0].numa_topology.cells[0].mempages[0].total: must be a non-negative integer (got -4)",
    ],
    [
      "a PCI alias with 2023.1's resource_class under Zed",
      (d) => {
        d.config.pci_alias = [{ name: "a100", resource_class: "CUSTOM_A100" }];
      },
      "config.pci_alias[0].resource_class: not in Nova zed's [pci] alias schema (2023.1 and later accept it)",
    ],
    [
      "hw:cpu_policy=banana",
      (d) => {
        d.request.flavor.extra_specs["hw:cpu_policy"] = "banana";
      },
      `request.flavor.extra_specs["hw:cpu_policy"]: Validation failed; 'banana' is not one of: dedicated, shared, mixed.`,
    ],
    [
      "resources:VCPU=abc",
      (d) => {
        d.flavors = [{ name: "x", vcpus: 1, memory_mb: 512, extra_specs: { "resources:VCPU": "abc" } }];
      },
      `flavors[0].extra_specs["resources:VCPU"]: Validation failed; 'abc' is not a valid integer value.`,
    ],
    [
      "an unknown [scheduler] option",
      (d) => {
        d.config.query_placement_for_avaiability_zone = true;
      },
      "config.query_placement_for_avaiability_zone: unknown option",
    ],
    [
      "max_placement_results 0",
      (d) => {
        d.config.max_placement_results = 0;
      },
      "config.max_placement_results: must be an integer >= 1 (got 0)",
    ],
    [
      "an unknown nova_release",
      (d) => {
        d.config.nova_release = "2022.2";
      },
      "config.nova_release: must be a known Nova release (zed, 2023.1",
    ],
    [
      "an inventory reserving more than its total",
      (d) => {
        d.hosts[1].inventories = { VGPU: { total: 2, reserved: 3 } };
      },
      "hosts[1].inventories.VGPU.reserved: must not exceed total 2",
    ],
  ];
  it.each(bad)("rejects %s, naming the field and the rule", async (_name, mutate, message) => {
    const doc = readExample("pci-gpu-alias-numa-required.scenario.json");
    mutate(doc);
    await expectRefused(t.prisma, doc, message);
  });

  it("keeps the NUMA topology, pools, inventories and disk format as given", async () => {
    const doc = readExample("pci-gpu-alias-numa-required.scenario.json") as any;
    doc.hosts[0].pcpus = 8;
    doc.hosts[0].pcpus_used = 2;
    doc.hosts[0].inventories = { CUSTOM_FPGA: { total: 2, used: 1, max_unit: 1 } };
    doc.images = [{ id: "img-1", disk_format: "raw", properties: { hw_cpu_policy: "dedicated" } }];
    await importCloud(t.prisma, doc);
    const out = await exportCloud(t.prisma);
    const h0 = out.hosts[0] as any;
    expect(h0.numa_topology).toEqual(doc.hosts[0].numa_topology);
    expect(h0.pci_device_pools).toEqual(doc.hosts[0].pci_device_pools);
    expect([h0.pcpus, h0.pcpus_used]).toEqual([8, 2]);
    expect(h0.inventories).toEqual({ CUSTOM_FPGA: { total: 2, used: 1, max_unit: 1 } });
    expect((out.hosts[1] as any).inventories).toBeUndefined();
    expect(out.images.find((i) => i.id === "img-1")).toMatchObject({ disk_format: "raw" });
    expect(out.config).toEqual(doc.config);
  });
});
