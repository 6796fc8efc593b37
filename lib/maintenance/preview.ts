/** A drain of the stored cloud (nothing written): the cloud as `scenario export` gives it, drained in memory. */
import { exportCloud } from "@/lib/cloud/import-export";
import type { PrismaClient } from "@/lib/db-client";
import { type Cloud, type DrainStep, type DrainSummary, drainHosts } from "./drain";

export async function previewDrain(
  prisma: PrismaClient,
  host: string,
): Promise<{ steps: DrainStep[]; summary: DrainSummary }> {
  const cloud = (await exportCloud(prisma)) as unknown as Cloud;
  const lines = [...drainHosts(cloud, [host])];
  return { steps: lines.slice(0, -1) as DrainStep[], summary: lines[lines.length - 1] as DrainSummary };
}
