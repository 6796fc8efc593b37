/** Row counts of the cloud. Scheduling runs are read through lib/runs/queries.ts. */
import "server-only";
import type { Db } from "@/lib/db/client";

/** Row counts of the cloud (for the dashboard / a quick sanity check). */
export async function cloudCounts(db: Db) {
  const [hosts, aggregates, serverGroups, instances, flavors, images, profiles, runs] = await db.$transaction([
    db.computeHost.count(),
    db.aggregate.count(),
    db.serverGroup.count(),
    db.instance.count(),
    db.flavor.count(),
    db.image.count(),
    db.schedulerProfile.count(),
    db.schedulingRun.count(),
  ]);
  return { hosts, aggregates, serverGroups, instances, flavors, images, profiles, runs };
}
