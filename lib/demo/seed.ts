/**
 * Seed the demo cloud (lib/demo/cloud.ts) into a database: through
 * importCloud (validated, one transaction, replaces the cloud), then the
 * demo scheduler profiles ("default" active, "stacking", "placement", "filters-only", "nfv").
 * Idempotent: does nothing when the database already has hosts, unless
 * `force` (then the cloud is replaced and the demo profiles reset).
 */
import type { PrismaClient } from "@/lib/db/client";
import { buildDemoCloud, DEMO_PROFILES } from "./cloud";
import { importCloud, type ImportSummary } from "@/lib/cloud/scenario-io";
import { bumpCloudRevision } from "../cloud/revision";
import { recordSnapshot } from "../history/store";

export interface SeedOptions {
  hosts?: number;
  seed?: number;
  force?: boolean;
}

export type SeedResult =
  | { seeded: false; existingHosts: number }
  | ({ seeded: true; buildMs: number; totalMs: number } & ImportSummary);

export async function seedDemoCloud(prisma: PrismaClient, opts: SeedOptions = {}): Promise<SeedResult> {
  const t0 = performance.now();
  const existingHosts = await prisma.computeHost.count();
  if (existingHosts > 0 && !opts.force) return { seeded: false, existingHosts };
  const doc = buildDemoCloud({ hosts: opts.hosts, seed: opts.seed });
  const buildMs = performance.now() - t0;
  const summary = await importCloud(prisma, doc, { profileName: "default" });
  // the other demo profiles (inactive); "default" got its config from the document
  await prisma.$transaction(
    async (tx) => {
      for (const p of DEMO_PROFILES) {
        await tx.schedulerProfile.upsert({
          where: { name: p.name },
          create: { name: p.name, description: p.description, config: JSON.stringify(p.config), active: p.active },
          update: { description: p.description, config: JSON.stringify(p.config) },
        });
      }
      await bumpCloudRevision(tx);
      // the demo's history starts with the seeded cloud
      await recordSnapshot(tx, { source: "scenario", startedBy: "(demo seed)", label: "demo cloud" });
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
  return { seeded: true, buildMs, totalMs: performance.now() - t0, ...summary };
}
