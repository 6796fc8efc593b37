/**
 * Time the schedule action's server path (what /schedule's "Schedule" does:
 * resolve the form, the snapshot (from memory while the cloud's revision is
 * unchanged), the engine, the run row, the view; then, after the answer, the
 * run's result and cloud) on the database at DATABASE_URL. It WRITES runs:
 * use a scratch database, e.g.
 *
 *   DATABASE_URL=file:/tmp/big.db npm run seed -- --hosts 10000
 *   DATABASE_URL=file:/tmp/big.db npx tsx --conditions=react-server bench/schedule-action.ts [flavor:instances ...]
 */
import { createPrismaClient } from "@/lib/db/client";
import { insertRun, prepareRun, resolveRequest, runDetails } from "@/lib/runs/schedule";
import { ScheduleFormSchema } from "@/lib/runs/schemas";
import { storeRunDetails } from "@/lib/runs/store";
import { buildRunView } from "@/lib/runs/view";
import { median } from "./median";

async function main() {
  const cases = process.argv.slice(2).length ? process.argv.slice(2) : ["gpu.large:1", "m1.small:1", "m1.large:3"];
  const prisma = createPrismaClient();
  const hosts = await prisma.computeHost.count();
  console.log(`${hosts} hosts; ms, median of 5 after a warm-up (the first request loads the snapshot)`);
  const cols = [
    "case",
    "answer",
    "snapshot",
    "engine",
    "host states+result",
    "row",
    "view",
    "stored after",
    "result MB",
  ];
  console.log(cols.join("\t"));
  for (const c of cases) {
    const [flavor, n] = c.split(":");
    const rows: number[][] = [];
    let mb = 0;
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      const form = ScheduleFormSchema.parse({ flavor, num_instances: n ?? "1" });
      const req = await resolveRequest(prisma, form);
      const p = await prepareRun(prisma, req);
      const row = await prisma.$transaction((tx) => insertRun(tx, p));
      const t1 = performance.now();
      buildRunView(p.result, p.request);
      const t2 = performance.now();
      await storeRunDetails(prisma, row.id, runDetails(p));
      const t3 = performance.now();
      mb = JSON.stringify(p.result).length / 1e6;
      rows.push([
        t2 - t0,
        p.timings.loadMs,
        p.timings.engineMs,
        p.timings.scheduleMs - p.timings.engineMs,
        row.storeMs,
        t2 - t1,
        t3 - t2,
      ]);
    }
    const warm = rows.slice(1);
    console.log(
      [c, ...warm[0].map((_, k) => median(warm.map((r) => r[k])).toFixed(0)), mb.toFixed(1)].join("\t"),
      `(first: ${rows[0][0].toFixed(0)})`,
    );
  }
  await prisma.$disconnect();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
