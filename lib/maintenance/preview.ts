/** Maintenance previews of the stored cloud (nothing written): the cloud as `scenario export` gives it, changed in memory. */
import { exportCloud } from "@/lib/cloud/scenario-io";
import type { PrismaClient } from "@/lib/db/client";
import { type Cloud, type DrainStep, type DrainSummary, drainHosts } from "./drain";
import { type LossSweep, sweepHostLosses } from "./lose-hosts";

export async function previewDrain(
  prisma: PrismaClient,
  host: string,
): Promise<{ steps: DrainStep[]; summary: DrainSummary }> {
  const cloud = (await exportCloud(prisma)) as unknown as Cloud;
  const lines = [...drainHosts(cloud, [host])];
  return { steps: lines.slice(0, -1) as DrainStep[], summary: lines[lines.length - 1] as DrainSummary };
}

/** Every host of the stored cloud lost on its own (nothing written). */
export async function previewHostLosses(prisma: PrismaClient): Promise<LossSweep> {
  return sweepHostLosses((await exportCloud(prisma)) as unknown as Cloud);
}
