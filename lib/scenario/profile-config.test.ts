/**
 * Profiles written with the former `placement_prefilters` list: the SQL data
 * migration (on a database migrated up to the release before it) and the
 * import-time mapping give the same config.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrateDatabase } from "@/lib/db/migrate";
import { createTestDatabase } from "@/lib/testing/test-db";
import { importCloud } from "@/lib/cloud/scenario-io";
import { migrateProfileConfig } from "./profile-config";

const F = ["ComputeFilter"];
const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    "all five prefilters",
    {
      enabled_filters: F,
      placement_prefilters: ["compute_status", "availability_zone", "tenant_aggregates", "traits", "resources"],
    },
    {
      enabled_filters: F,
      placement: true,
      query_placement_for_availability_zone: true,
      limit_tenants_to_placement_aggregate: true,
    },
  ],
  [
    "resources only: the AZ is not asked of Placement",
    { enabled_filters: F, placement_prefilters: ["resources"] },
    { enabled_filters: F, placement: true, query_placement_for_availability_zone: false },
  ],
  [
    "availability zone and traits",
    { enabled_filters: F, placement_prefilters: ["availability_zone", "traits"], max_attempts: 2 },
    { enabled_filters: F, max_attempts: 2, placement: true, query_placement_for_availability_zone: true },
  ],
  ["an empty list is dropped", { enabled_filters: F, placement_prefilters: [] }, { enabled_filters: F }],
  [
    "no list: unchanged",
    { enabled_filters: F, ram_weight_multiplier: -1 },
    { enabled_filters: F, ram_weight_multiplier: -1 },
  ],
];

describe("migrateProfileConfig", () => {
  it.each(cases)("%s", (_name, before, after) => {
    expect(migrateProfileConfig(before)).toEqual(after);
  });
});

/**
 * Profiles stored (name -> config) in a database migrated up to the release
 * before migration `suffix`, then the rest applied: the configs after, and
 * which migrations ran.
 */
function migratedProfiles(
  suffix: string,
  profiles: [string, Record<string, unknown>][],
): { applied: string[]; configs: Record<string, unknown> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-mig-"));
  try {
    const all = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((d) => /^\d+_/.test(d))
      .sort();
    const mine = all.findIndex((d) => d.endsWith(suffix));
    expect(mine).toBeGreaterThan(0);
    const before = path.join(dir, "before");
    fs.mkdirSync(before);
    for (const d of all.slice(0, mine))
      fs.cpSync(path.join(MIGRATIONS_DIR, d), path.join(before, d), { recursive: true });
    fs.copyFileSync(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(before, "migration_lock.toml"));
    const file = path.join(dir, "old.db");
    migrateDatabase(`file:${file}`, { migrationsDir: before });
    const db = new Database(file);
    const insert = db.prepare(
      `INSERT INTO "SchedulerProfile" ("name", "config", "active", "updatedAt") VALUES (?, ?, 0, CURRENT_TIMESTAMP)`,
    );
    for (const [name, config] of profiles) insert.run(name, JSON.stringify(config));
    db.close();
    const r = migrateDatabase(`file:${file}`);
    const after = new Database(file);
    const rows = after.prepare(`SELECT "name", "config" FROM "SchedulerProfile"`).all() as {
      name: string;
      config: string;
    }[];
    after.close();
    return { applied: r.applied, configs: Object.fromEntries(rows.map((row) => [row.name, JSON.parse(row.config)])) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("the numa_pci_placement migration rewrites stored profiles", () => {
  it("maps each old profile as migrateProfileConfig does, and leaves no placement_prefilters", () => {
    const r = migratedProfiles(
      "_numa_pci_placement",
      cases.map(([name, config]) => [name, config]),
    );
    expect(r.applied.some((m) => m.endsWith("_numa_pci_placement"))).toBe(true);
    for (const [name, , expected] of cases) expect(r.configs[name], name).toEqual(expected);
  });
});

describe("the default_profile_placement migration", () => {
  it("puts the default profile on Placement and leaves the others as they are", () => {
    const r = migratedProfiles("_default_profile_placement", [
      ["default", { enabled_filters: F, ram_weight_multiplier: 2 }],
      ["mine", { enabled_filters: F }],
      ["off", { enabled_filters: F, placement: false }],
    ]);
    expect(r.configs).toEqual({
      default: { enabled_filters: F, ram_weight_multiplier: 2, placement: true },
      mine: { enabled_filters: F },
      off: { enabled_filters: F, placement: false },
    });
  });
});

describe("importing an old scenario config", () => {
  it("stores the profile with the new keys", async () => {
    const t = await createTestDatabase();
    try {
      await importCloud(
        t.prisma,
        {
          config: { placement_prefilters: ["compute_status", "resources"] },
          hosts: [{ name: "h1", vcpus: 4, memory_mb: 4096, local_gb: 10 }],
        },
        { profileName: "old" },
      );
      const p = await t.prisma.schedulerProfile.findUniqueOrThrow({ where: { name: "old" } });
      expect(JSON.parse(p.config)).toEqual({ placement: true, query_placement_for_availability_zone: false });
    } finally {
      await t.cleanup();
    }
  });
});
