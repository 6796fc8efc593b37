import type { NextRequest } from "next/server";
import { param } from "@/lib/api/params";
import { badRequest, instanceIndex, routeParams } from "@/lib/api/route-input";
import { prisma } from "@/lib/db";
import { WhatIfInputError, hostFate, runWhatIf } from "@/lib/whatif/run";
import { viewerRunId } from "@/lib/api/viewer-input";

export const dynamic = "force-dynamic";

const QUERY = { host: param.text(), index: instanceIndex(), fate: param.flag() };

/**
 * GET /api/runs/ID/whatif?host=NAME&index=0: the smallest changes that let a
 * rejected host pass, each verified on the run's snapshot.
 * GET ...&fate=1: whether the host survived every filter of that run.
 */
export async function GET(req: NextRequest, ctx: { params: Promise<{ id: string }> }) {
  // re-runs the engine on changed copies, writes nothing: any signed-in role; checked before any work
  const id = await viewerRunId(req, ctx);
  if (id instanceof Response) return id;
  const query = routeParams(QUERY, req.nextUrl.searchParams);
  if (query instanceof Response) return query;
  const { host, index } = query;
  if (!host) return badRequest("host: name a host of the run");
  try {
    if (query.fate) return Response.json(await hostFate(prisma, id, host, index));
    return Response.json(await runWhatIf(prisma, id, host, index));
  } catch (e) {
    if (e instanceof WhatIfInputError) return badRequest(e.message);
    throw e;
  }
}
