import type { NextRequest } from "next/server";
import { CapacityInputError, compareProfiles } from "@/lib/capacity/fill";
import { CapacityCompareSchema } from "@/lib/capacity/schemas";
import { zodFieldErrors } from "@/lib/core/errors";
import { fieldErrors } from "@/lib/api/route-input";
import { viewerJsonBody } from "@/lib/api/viewer-input";
import { prisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/**
 * POST /api/capacity/compare {mix, limit, profile, profileB}: the same
 * workload under two profiles on throwaway copies of today's cloud.
 * 200 [outcome A, outcome B]; 400 {"errors": {field: [message]}}.
 */
export async function POST(req: NextRequest) {
  // fills copies in memory, writes nothing: any signed-in role; checked before any work
  const read = await viewerJsonBody(req);
  if (read instanceof Response) return read;
  const parsed = CapacityCompareSchema.safeParse(read.body);
  if (!parsed.success) return fieldErrors(zodFieldErrors(parsed.error.issues));
  try {
    return Response.json(await compareProfiles(prisma, parsed.data));
  } catch (e) {
    if (e instanceof CapacityInputError) return fieldErrors({ [e.field]: [e.message] });
    throw e;
  }
}
