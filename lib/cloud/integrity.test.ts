/**
 * Integration: the database's own integrity rules (hand-written CHECK
 * constraints and partial unique index in the init migration, foreign-key
 * cascades), on each database built by its real migrations.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { setActiveProfile } from "@/lib/profiles/rules";
import { importCloud } from "@/lib/cloud/scenario-io";
import { tableCounts } from "@/lib/testing/cloud";

const CLOUD = {
  config: { enabled_filters: ["ComputeFilter"] },
  hosts: [
    {
      name: "h1",
      vcpus: 16,
      vcpus_used: 2,
      memory_mb: 65536,
      memory_mb_used: 4096,
      local_gb: 500,
      local_gb_used: 40,
      metrics: [{ name: "cpu.percent", value: 12.5 }],
      traits: ["HW_CPU_X86_AVX2"],
      instances: ["i-1", "i-2"],
    },
    { name: "h2", vcpus: 16, memory_mb: 65536, local_gb: 500, instances: ["i-3"] },
  ],
  aggregates: [{ name: "agg", availability_zone: "az1", hosts: ["h1", "h2"], metadata: { ssd: "true" } }],
  server_groups: [{ uuid: "g-1", name: "grp", policy: "anti-affinity", members: ["i-1", "i-3"] }],
  flavors: [{ name: "small", vcpus: 1, memory_mb: 2048, extra_specs: { "hw:cpu_policy": "dedicated" } }],
  images: [{ id: "img-1", name: "cirros", properties: { hw_architecture: "x86_64" } }],
  instances: [{ uuid: "i-1", flavor: "small", image: "img-1" }],
};

describe.each(PROVIDERS)("on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabaseOf(provider, inject("postgresUrl"));
  });
  afterAll(async () => t?.cleanup());

  beforeEach(async () => {
    await importCloud(t.prisma, CLOUD);
  });

  /** The database's own words for a refused CHECK constraint. */
  const checkFailed = (constraint: string) =>
    new RegExp(
      provider === "postgresql"
        ? `violates check constraint \\W*${constraint}\\b`
        : `CHECK constraint failed: ${constraint}`,
    );

  async function orphans(): Promise<Record<string, number>> {
    /** Rows of `table` with a foreign key (column → parent table) that names no parent row. */
    const dangling = async (table: string, keys: Record<string, string>) => {
      const broken = Object.entries(keys).map(
        ([column, parent]) => `("${column}" IS NOT NULL AND "${column}" NOT IN (SELECT "id" FROM "${parent}"))`,
      );
      const sql = `SELECT count(*) AS n FROM "${table}" WHERE ${broken.join(" OR ")}`;
      return Number((await t.prisma.$queryRawUnsafe<{ n: number | bigint }[]>(sql))[0].n);
    };
    return {
      metrics: await dangling("HostMetric", { hostId: "ComputeHost" }),
      traits: await dangling("HostTrait", { hostId: "ComputeHost" }),
      aggregateHosts: await dangling("AggregateHost", { hostId: "ComputeHost", aggregateId: "Aggregate" }),
      metadata: await dangling("AggregateMetadata", { aggregateId: "Aggregate" }),
      extraSpecs: await dangling("FlavorExtraSpec", { flavorId: "Flavor" }),
      properties: await dangling("ImageProperty", { imageId: "Image" }),
      instances: await dangling("Instance", {
        hostId: "ComputeHost",
        serverGroupId: "ServerGroup",
        flavorId: "Flavor",
        imageId: "Image",
      }),
    };
  }
  const NO_ORPHANS = {
    metrics: 0,
    traits: 0,
    aggregateHosts: 0,
    metadata: 0,
    extraSpecs: 0,
    properties: 0,
    instances: 0,
  };

  describe("CHECK constraints reject what Nova never reports", () => {
    /** Sets one column of host h1 to a raw SQL value, past every check but the database's. */
    const onH1 = (column: string, value: string) =>
      `UPDATE "ComputeHost" SET "${column}" = ${value} WHERE "name" = 'h1'`;
    const cases: [string, string, string][] = [
      ["negative vcpus_used", onH1("vcpusUsed", `-1`), "ComputeHost_vcpus_nonneg"],
      ["negative memory_mb", onH1("memoryMb", `-1`), "ComputeHost_memoryMb_nonneg"],
      ["negative memory_mb_used", onH1("memoryMbUsed", `-4096`), "ComputeHost_memoryMb_nonneg"],
      ["negative local_gb_used", onH1("localGbUsed", `-1`), "ComputeHost_localGb_nonneg"],
      ["negative reserved memory", onH1("reservedMemoryMb", `-1`), "ComputeHost_reserved_nonneg"],
      ["negative allocation ratio", onH1("ramAllocationRatio", `-0.5`), "ComputeHost_allocation_ratios_nonneg"],
      ["negative num_instances", onH1("numInstances", `-1`), "ComputeHost_stats_nonneg"],
      ["supported_instances not a list", onH1("supportedInstances", `'{}'`), "ComputeHost_supportedInstances_json"],
      ["cpu_info not JSON", onH1("cpuInfo", `'nope'`), "ComputeHost_cpuInfo_json"],
      ["empty host name", onH1("name", `''`), "ComputeHost_name_nonempty"],
      ["negative flavor RAM", `UPDATE "Flavor" SET "memoryMb" = -1`, "Flavor_resources_nonneg"],
      ["unknown group policy", `UPDATE "ServerGroup" SET "policy" = 'spread'`, "ServerGroup_policy_valid"],
      ["profile config not an object", `UPDATE "SchedulerProfile" SET "config" = '[]'`, "SchedulerProfile_config_json"],
      ["profile config not JSON", `UPDATE "SchedulerProfile" SET "config" = '{x'`, "SchedulerProfile_config_json"],
      ["group rules not JSON", `UPDATE "ServerGroup" SET "rules" = 'max=2'`, "ServerGroup_rules_json"],
      ["supported_instances not JSON", onH1("supportedInstances", `'[['`), "ComputeHost_supportedInstances_json"],
      ["Placement inventories not JSON", onH1("inventories", `'VGPU=4'`), "ComputeHost_inventories_json"],
      [
        "a NUMA topology without a list of cells",
        onH1("numaTopology", `'{"cells": {}}'`),
        "ComputeHost_numaTopology_json",
      ],
      ["a NUMA topology that is not JSON", onH1("numaTopology", `'{cells'`), "ComputeHost_numaTopology_json"],
      ["PCI device pools not a list", onH1("pciDevicePools", `'{}'`), "ComputeHost_pciDevicePools_json"],
      ["negative PCPUs in use", onH1("pcpusUsed", `-1`), "ComputeHost_pcpusUsed_nonneg"],
      ["Placement inventories not an object", onH1("inventories", `'[]'`), "ComputeHost_inventories_json"],
    ];
    it.each(cases)("%s", async (_name, sql, constraint) => {
      const before = await tableCounts(t.prisma);
      await expect(t.prisma.$executeRawUnsafe(sql)).rejects.toThrow(checkFailed(constraint));
      expect(await tableCounts(t.prisma)).toEqual(before);
    });

    it("also through the Prisma client", async () => {
      await expect(t.prisma.computeHost.update({ where: { name: "h2" }, data: { vcpusUsed: -3 } })).rejects.toThrow(
        checkFailed("ComputeHost_vcpus_nonneg"),
      );
      const h2 = await t.prisma.computeHost.findUnique({ where: { name: "h2" } });
      expect(h2!.vcpusUsed).toBe(0);
    });

    it("allows overcommit (usage above the total) and negative free_ram_mb overrides, as Nova does", async () => {
      await t.prisma.computeHost.update({
        where: { name: "h1" },
        data: { vcpusUsed: 64, memoryMbUsed: 70000, freeRamMb: -4464 },
      });
    });
  });

  describe("unique names and the single active profile", () => {
    it.each([
      ["host", () => t.prisma.computeHost.update({ where: { name: "h2" }, data: { name: "h1" } })],
      ["aggregate", () => t.prisma.aggregate.create({ data: { name: "agg", position: 9 } })],
      ["flavor", () => t.prisma.flavor.create({ data: { name: "small", vcpus: 1, memoryMb: 1 } })],
      ["instance uuid", () => t.prisma.instance.create({ data: { uuid: "i-1" } })],
    ] as const)("duplicate %s is refused", async (_what, op) => {
      await expect(op()).rejects.toThrow(/Unique constraint failed/);
    });

    it("at most one profile is active (partial unique index)", async () => {
      await expect(
        t.prisma.schedulerProfile.create({ data: { name: "second", config: "{}", active: true } }),
      ).rejects.toThrow(/Unique constraint failed/);
      await t.prisma.schedulerProfile.create({ data: { name: "second", config: "{}", active: false } });
      await t.prisma.$transaction((tx) => setActiveProfile(tx, { name: "second" }));
      const active = await t.prisma.schedulerProfile.findMany({ where: { active: true } });
      expect(active.map((p) => p.name)).toEqual(["second"]);
      await t.prisma.schedulerProfile.delete({ where: { name: "second" } });
    });
  });

  describe("cascades never leave orphans", () => {
    it("deleting a host deletes its metrics, traits and aggregate links, and un-hosts its instances", async () => {
      const h1 = await t.prisma.computeHost.findUniqueOrThrow({ where: { name: "h1" } });
      await t.prisma.computeHost.delete({ where: { id: h1.id } });
      expect(await t.prisma.hostMetric.count({ where: { hostId: h1.id } })).toBe(0);
      expect(await t.prisma.hostTrait.count({ where: { hostId: h1.id } })).toBe(0);
      expect(await t.prisma.aggregateHost.count({ where: { hostId: h1.id } })).toBe(0);
      const i1 = await t.prisma.instance.findUniqueOrThrow({
        where: { uuid: "i-1" },
        include: { serverGroup: true, flavor: true },
      });
      expect(i1.hostId).toBeNull();
      expect(i1.serverGroup!.name).toBe("grp"); // still a member of its group
      expect(i1.flavor!.name).toBe("small");
      expect(await orphans()).toEqual(NO_ORPHANS);
    });

    it("deleting an aggregate deletes its metadata and host links, not the hosts", async () => {
      await t.prisma.aggregate.delete({ where: { name: "agg" } });
      expect(await t.prisma.computeHost.count()).toBe(2);
      expect(await orphans()).toEqual(NO_ORPHANS);
    });

    it("deleting a flavor, an image or a server group keeps the instances", async () => {
      await t.prisma.flavor.delete({ where: { name: "small" } });
      await t.prisma.image.delete({ where: { uuid: "img-1" } });
      await t.prisma.serverGroup.delete({ where: { uuid: "g-1" } });
      expect(await t.prisma.instance.count()).toBe(3);
      const i1 = await t.prisma.instance.findUniqueOrThrow({ where: { uuid: "i-1" } });
      expect([i1.flavorId, i1.imageId, i1.serverGroupId]).toEqual([null, null, null]);
      expect(await orphans()).toEqual(NO_ORPHANS);
    });

    it("a cell with hosts cannot be deleted", async () => {
      await expect(t.prisma.cell.delete({ where: { name: "cell1" } })).rejects.toThrow(/Foreign key constraint/i);
    });

    it("foreign keys are enforced and consistent", async () => {
      await expect(
        t.prisma.$executeRawUnsafe(`INSERT INTO "HostMetric" ("hostId", "name", "value") VALUES (99999, 'x', 1)`),
      ).rejects.toThrow(
        provider === "postgresql" ? /violates foreign key constraint/ : /FOREIGN KEY constraint failed/,
      );
      // SQLite checks foreign keys only when asked per connection: none may be broken
      if (provider === "sqlite") expect(await t.prisma.$queryRawUnsafe(`PRAGMA foreign_key_check`)).toEqual([]);
      expect(await orphans()).toEqual(NO_ORPHANS);
    });
  });
});
