import type { NextRequest } from "next/server";
import { requireRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { SensitivityInputError, runSensitivity, tryMultiplier } from "@/lib/runs/sensitivity-run";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/ID/sensitivity?index=0: for each configured multiplier, the
 * range within which the chosen host stays the winner, and where it flips.
 * GET ...&key=ram_weight_multiplier&value=-2: the run's snapshot scheduled
 * again with that multiplier (nothing stored): who wins then.
 */
export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  // re-runs the engine on a stored run without writing: any signed-in role; checked before any work
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  const id = Number((await ctx.params).id);
  const sp = req.nextUrl.searchParams;
  const index = Number(sp.get("index") ?? "0");
  if (!Number.isInteger(id) || id <= 0)
    return Response.json({ error: "run id must be a positive whole number" }, { status: 400 });
  if (!Number.isInteger(index) || index < 0)
    return Response.json({ error: "index: must be a whole number from 0" }, { status: 400 });
  try {
    const key = sp.get("key");
    if (key === null) return Response.json(await runSensitivity(prisma, id, index));
    const raw = sp.get("value") ?? "";
    const value = raw.trim() === "" ? Number.NaN : Number(raw);
    return Response.json(await tryMultiplier(prisma, id, index, key, value));
  } catch (e) {
    if (e instanceof SensitivityInputError) return Response.json({ error: e.message }, { status: 400 });
    throw e;
  }
}
