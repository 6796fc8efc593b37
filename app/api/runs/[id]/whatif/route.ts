import type { NextRequest } from "next/server";
import { requireRole } from "@/lib/auth/session";
import { badRequest, instanceIndexParam, runIdParam } from "@/lib/api/route-input";
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
  const id = await runIdParam(ctx);
  if (id instanceof Response) return id;
  const sp = req.nextUrl.searchParams;
  const host = (sp.get("host") ?? "").trim();
  if (!host) return badRequest("host: name a host of the run");
  const index = instanceIndexParam(sp);
  if (index instanceof Response) return index;
  try {
    if (sp.get("fate")) return Response.json(await hostFate(prisma, id, host, index));
    return Response.json(await runWhatIf(prisma, id, host, index));
  } catch (e) {
    if (e instanceof WhatIfInputError) return badRequest(e.message);
    throw e;
  }
}
