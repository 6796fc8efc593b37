import type { NextRequest } from "next/server";
import { param } from "@/lib/api/params";
import { badRequest, instanceIndex, routeParams } from "@/lib/api/route-input";
import { prisma } from "@/lib/db";
import { SensitivityInputError, runSensitivity, tryMultiplier } from "@/lib/runs/sensitivity-run";
import { viewerRunId } from "@/lib/api/viewer-input";

export const dynamic = "force-dynamic";

const QUERY = { index: instanceIndex(), key: param.optional(), value: param.optional() };

/**
 * GET /api/runs/ID/sensitivity?index=0: for each configured multiplier, the
 * range within which the chosen host stays the winner, and where it flips.
 * GET ...&key=ram_weight_multiplier&value=-2: the run's snapshot scheduled
 * again with that multiplier (nothing stored): who wins then.
 */
export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  // re-runs the engine on a stored run without writing: any signed-in role; checked before any work
  const id = await viewerRunId(req, ctx);
  if (id instanceof Response) return id;
  const query = routeParams(QUERY, req.nextUrl.searchParams);
  if (query instanceof Response) return query;
  const { index, key } = query;
  try {
    if (key === undefined) return Response.json(await runSensitivity(prisma, id, index));
    const raw = query.value ?? "";
    const value = raw.trim() === "" ? Number.NaN : Number(raw);
    return Response.json(await tryMultiplier(prisma, id, index, key, value));
  } catch (e) {
    if (e instanceof SensitivityInputError) return badRequest(e.message);
    throw e;
  }
}
