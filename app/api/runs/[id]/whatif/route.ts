import type { NextRequest } from "next/server";
import { requireRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { WhatIfInputError, hostFate, runWhatIf } from "@/lib/whatif/run";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/ID/whatif?host=NAME&index=0: the smallest changes that let a
 * rejected host pass, each verified on the run's snapshot.
 * GET ...&fate=1: whether the host survived every filter of that run.
 */
export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  // re-runs the engine on changed copies, writes nothing: any signed-in role; checked before any work
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  const id = Number((await ctx.params).id);
  const sp = req.nextUrl.searchParams;
  const host = (sp.get("host") ?? "").trim();
  const index = Number(sp.get("index") ?? "0");
  if (!Number.isInteger(id) || id <= 0)
    return Response.json({ error: "run id must be a positive whole number" }, { status: 400 });
  if (!host) return Response.json({ error: "host: name a host of the run" }, { status: 400 });
  if (!Number.isInteger(index) || index < 0)
    return Response.json({ error: "index: must be a whole number from 0" }, { status: 400 });
  try {
    if (sp.get("fate")) return Response.json(await hostFate(prisma, id, host, index));
    return Response.json(await runWhatIf(prisma, id, host, index));
  } catch (e) {
    if (e instanceof WhatIfInputError) return Response.json({ error: e.message }, { status: 400 });
    throw e;
  }
}
