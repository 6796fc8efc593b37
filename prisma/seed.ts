/**
 * npm run seed [-- --hosts N] [--seed S] [--force]
 *
 * A deterministic demo cloud (lib/demo/cloud.ts) in DATABASE_URL
 * (default data/schedscope.db; a SQLite file or a PostgreSQL database;
 * created/migrated when missing).
 * Does nothing when the database already has hosts, unless --force, which
 * REPLACES the whole cloud. Default 200 hosts; --hosts 10000 for a large one.
 */
import { createPrismaClient, databaseProvider } from "@/lib/db/client";
import { migrateDatabaseAt } from "@/lib/db/open";
import { MIN_DEMO_HOSTS } from "@/lib/demo/cloud";
import { seedDemoCloud } from "@/lib/demo/seed";
import { withSetupLock } from "@/lib/db/migrate-pg";

const USAGE = "usage: npm run seed [-- --hosts N] [--seed S] [--force]";

function parse(argv: string[]): { hosts: number; seed?: number; force: boolean } {
  let hosts = 200;
  let seed: number | undefined;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [key, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${key} needs a value\n${USAGE}`);
      return v;
    };
    if (key === "--hosts") {
      const v = value();
      hosts = Number(v);
      if (!Number.isInteger(hosts) || hosts < MIN_DEMO_HOSTS) {
        throw new Error(`--hosts must be a whole number >= ${MIN_DEMO_HOSTS} (got "${v}")`);
      }
    } else if (key === "--seed") {
      const v = value();
      seed = Number(v);
      if (!Number.isInteger(seed)) throw new Error(`--seed must be a whole number (got "${v}")`);
    } else if (key === "--force") force = true;
    else if (key === "--help" || key === "-h") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else throw new Error(`unknown argument "${a}"\n${USAGE}`);
  }
  return { hosts, seed, force };
}

async function main() {
  const opts = parse(process.argv.slice(2));
  const mig = await migrateDatabaseAt();
  const { url, label: file } = mig;
  for (const m of mig.modified) {
    process.stderr.write(
      `warning: migration ${m} changed after it was applied to ${file}; if this fails, delete that file\n`,
    );
  }
  const prisma = createPrismaClient(url);
  try {
    // on PostgreSQL under the migrations' lock, the emptiness re-checked inside it: of several
    // instances starting together on one empty database exactly one seeds
    const r =
      databaseProvider(url) === "postgresql"
        ? await withSetupLock(url, () => seedDemoCloud(prisma, opts))
        : await seedDemoCloud(prisma, opts);
    if (!r.seeded) {
      process.stdout.write(
        `seed: ${file} already has ${r.existingHosts} hosts; nothing done (--force replaces the cloud)\n`,
      );
      return;
    }
    process.stdout.write(
      `seed: ${r.hosts} hosts (${r.cells} cells), ${r.aggregates} aggregates, ${r.serverGroups} server groups, ` +
        `${r.instances} instances, ${r.flavors} flavors, ${r.images} images; active profile "default" ` +
        `(+ "stacking", "placement", "nfv") in ${file} — ${(r.totalMs / 1000).toFixed(2)} s ` +
        `(build ${r.buildMs.toFixed(0)} ms, validate ${r.validateMs.toFixed(0)} ms, write ${r.writeMs.toFixed(0)} ms)\n`,
    );
  } finally {
    await prisma.$disconnect();
  }
}

main().catch((err) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
