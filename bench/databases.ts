/**
 * `npm run bench:db`: the snapshot load at 10,000 hosts on SQLite and on
 * PostgreSQL, the same demo cloud and queries on each (bench/snapshot.ts).
 * PostgreSQL: BENCH_POSTGRES_URL (a superuser URL; the bench creates and
 * drops its own database), else a throwaway cluster (scripts/lib/postgres.mjs).
 */
import os from "node:os";
import { startPostgres } from "../scripts/lib/postgres.mjs";
import { freePort } from "../scripts/lib/setup.mjs";
import { benchSnapshot } from "./snapshot";

async function main() {
  const hosts = Number(process.env.BENCH_HOSTS ?? 10000);
  await benchSnapshot(hosts, "sqlite");
  const given = process.env.BENCH_POSTGRES_URL;
  const cluster = given ? null : startPostgres(await freePort());
  try {
    await benchSnapshot(hosts, "postgresql", given ?? cluster!.url);
  } finally {
    cluster?.stop();
  }
  console.log(
    `\nload average ${os.loadavg()[0].toFixed(1)} at the end (2 CPUs shared: compare runs of one machine only)`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
