import { NextResponse, type NextRequest } from "next/server";
import { searchHosts } from "@/lib/cloud/queries";
import { requireRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { param } from "@/lib/api/params";
import { routeParams } from "@/lib/api/route-input";

export const dynamic = "force-dynamic";

const QUERY = { q: param.optional(), notIn: param.recordId(), limit: param.wholeNumber(1, 1000, 20) };

/**
 * GET /api/hosts?q=cmp-a1&notIn=<aggregate id>&limit=20
 * The host picker's server-side search (works with 10,000 hosts).
 */
export async function GET(req: NextRequest) {
  // reads: any signed-in role; checked before any work
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  const query = routeParams(QUERY, req.nextUrl.searchParams);
  if (query instanceof Response) return query;
  const { q, notIn, limit } = query;
  const result = await searchHosts(prisma, { q: q ?? "", notInAggregate: notIn ?? undefined, limit });
  return NextResponse.json(result, { headers: { "Cache-Control": "no-store" } });
}
