/**
 * An imported cloud's request, exported as a scenario on the Placement path
 * (ComputeFilter, AggregateInstanceExtraSpecsFilter, RAMWeigher), answered
 * by the Nova reference and by our engine: what the bundle tests compare.
 */
import type { PrismaClient } from "@/lib/db/client";
import { exportCloud, requestFromDb } from "@/lib/cloud/scenario-io";
import { schedule } from "@/lib/scheduler/engine";
import { type ScheduleResult, toResult } from "@/lib/scheduler/result";
import type { Scenario } from "@/lib/scheduler/scenario";
import { assertNovaReferenceAvailable, runNovaReference } from "./cloud";

export async function placementAnswers(
  db: PrismaClient,
  flavor: string,
  image: string,
): Promise<{ reference: { error: string | null; selections: { host: string }[] }; ours: ScheduleResult }> {
  assertNovaReferenceAvailable();
  const request = await requestFromDb(db, { flavor, image });
  const doc = (await exportCloud(db, { request })) as Record<string, unknown>;
  doc.config = {
    placement: true,
    enabled_filters: ["ComputeFilter", "AggregateInstanceExtraSpecsFilter"],
    weighers: ["RAMWeigher"],
  };
  const reference = runNovaReference(doc) as { error: string | null; selections: { host: string }[] };
  return { reference, ours: toResult(schedule(doc as unknown as Scenario)) };
}
