import { NextResponse, type NextRequest } from "next/server";
import { searchHosts } from "@/lib/cloud/queries";
import { requireRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { recordIdOf, wholeNumber, wholeNumberRule } from "@/lib/api/input-limits";
import { badRequest } from "@/lib/api/route-input";

export const dynamic = "force-dynamic";

/**
 * GET /api/hosts?q=cmp-a1&notIn=<aggregate id>&limit=20
 * The host picker's server-side search (works with 10,000 hosts).
 */
export async function GET(req: NextRequest) {
  // reads: any signed-in role; checked before any work
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  const sp = req.nextUrl.searchParams;
  const notIn = sp.get("notIn") ? recordIdOf(sp.get("notIn")) : undefined;
  if (notIn === null) return badRequest(wholeNumberRule("notIn", 1));
  const limit = sp.get("limit") ? wholeNumber(sp.get("limit"), 1, 1000) : 20;
  if (limit === null) return badRequest(wholeNumberRule("limit", 1, 1000));
  const result = await searchHosts(prisma, { q: sp.get("q") ?? "", notInAggregate: notIn, limit });
  return NextResponse.json(result, { headers: { "Cache-Control": "no-store" } });
}
