/**
 * Time the schedule action's server path (what /schedule's "Schedule" does:
 * resolve the form, load the snapshot, run the engine, store the run, build
 * the view) on the database at DATABASE_URL. It WRITES runs: use a scratch
 * database, e.g.
 *
 *   DATABASE_URL=file:/tmp/big.db npm run seed -- --hosts 10000
 *   DATABASE_URL=file:/tmp/big.db npx tsx --conditions=react-server bench/schedule-action.ts [flavor:instances ...]
 */
import { createPrismaClient } from "@/lib/db-client";
import { buildRunView } from "@/lib/runs/view";
import { insertRun, prepareRun, resolveRequest } from "@/lib/runs/schedule";
import { ScheduleFormSchema } from "@/lib/runs/schemas";

async function main() {
  const cases = process.argv.slice(2).length ? process.argv.slice(2) : ["gpu.large:1", "m1.small:1", "m1.large:3"];
  const prisma = createPrismaClient();
  const hosts = await prisma.computeHost.count();
  console.log(`${hosts} hosts; times in ms (best of 3 after a warm-up)`);
  console.log(
    [
      "case",
      "total",
      "load",
      "engine",
      "host states + toResult",
      "store",
      "view",
      "result MB",
      "snapshot MB",
      "survivors",
    ].join("\t"),
  );
  for (const c of cases) {
    const [flavor, n] = c.split(":");
    const times: number[][] = [];
    let sizes = [0, 0];
    let survivors = 0;
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now();
      const form = ScheduleFormSchema.parse({ flavor, num_instances: n ?? "1" });
      const req = await resolveRequest(prisma, form);
      const p = await prepareRun(prisma, req);
      const row = await prisma.$transaction((tx) => insertRun(tx, p));
      const t1 = performance.now();
      const view = buildRunView(p.result, p.request);
      const t2 = performance.now();
      void row;
      sizes = [JSON.stringify(p.result).length / 1e6, JSON.stringify(p.scenario).length / 1e6];
      survivors = p.result.requests[0]?.weighed.length ?? 0;
      void view;
      times.push([
        t2 - t0,
        p.timings.loadMs,
        p.timings.engineMs,
        p.timings.scheduleMs - p.timings.engineMs,
        row.storeMs,
        t2 - t1,
      ]);
    }
    const best = times.slice(1).sort((a, b) => a[0] - b[0])[0];
    console.log([c, ...best.map((x) => x.toFixed(0)), sizes[0].toFixed(2), sizes[1].toFixed(2), survivors].join("\t"));
  }
  await prisma.$disconnect();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
