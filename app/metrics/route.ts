import { prisma } from "@/lib/db";
import { handleMetricsRequest } from "@/lib/metrics/handler";

export const dynamic = "force-dynamic";

/** GET /metrics: Prometheus' text format, for a scrape token only (lib/metrics/handler.ts). */
export async function GET(request: Request) {
  return handleMetricsRequest(prisma, request);
}
