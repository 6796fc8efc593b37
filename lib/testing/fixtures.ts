/**
 * Building blocks of the small clouds the database tests import: rows in
 * the scenario format with plain defaults (an empty, enabled host; a flavor
 * with no extra specs), and one database per provider for a describe block.
 */
import { afterAll, beforeAll, inject } from "vitest";
import type { PrismaClient } from "@/lib/db/client";
import { createTestDatabaseOf, type Provider, type TestDatabase } from "./test-db";

/** An enabled, up compute host of 16 vCPUs, 32 GiB and 500 GB, nothing used, allocation ratios 1.0. */
export function hostRow(name: string, over: Record<string, unknown> = {}) {
  return {
    name,
    cell: "cell1",
    vcpus: 16,
    vcpus_used: 0,
    memory_mb: 32768,
    memory_mb_used: 0,
    local_gb: 500,
    local_gb_used: 0,
    host_ip: "10.0.0.1",
    cpu_allocation_ratio: 1.0,
    ram_allocation_ratio: 1.0,
    disk_allocation_ratio: 1.0,
    service: { disabled: false, up: true },
    ...over,
  };
}

/** A flavor whose id is its name, with no ephemeral disk, swap or extra specs. */
export function flavorRow(name: string, vcpus: number, memory_mb: number, root_gb: number) {
  return { name, id: name, vcpus, memory_mb, root_gb, ephemeral_gb: 0, swap: 0, extra_specs: {} };
}

/**
 * A fresh database of `provider` for the enclosing describe block: created
 * (then `seed` run on it) before its tests, removed after them. Read `prisma`
 * and `db` inside the tests, once beforeAll has set them.
 */
export function databaseFor(provider: Provider, seed?: (prisma: PrismaClient) => Promise<unknown>) {
  const t = {} as { db: TestDatabase; prisma: PrismaClient };
  beforeAll(async () => {
    t.db = await createTestDatabaseOf(provider, inject("postgresUrl"));
    t.prisma = t.db.prisma;
    await seed?.(t.prisma);
  });
  afterAll(async () => {
    await t.db?.cleanup();
  });
  return t;
}
