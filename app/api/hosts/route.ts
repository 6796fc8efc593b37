import { NextResponse, type NextRequest } from "next/server";
import { searchHosts } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/**
 * GET /api/hosts?q=cmp-a1&notIn=<aggregate id>&limit=20
 * The host picker's server-side search (works with 10,000 hosts).
 */
export async function GET(req: NextRequest) {
  const sp = req.nextUrl.searchParams;
  const notIn = Number(sp.get("notIn") ?? "");
  const limit = Number(sp.get("limit") ?? "20");
  const result = await searchHosts(prisma, {
    q: sp.get("q") ?? "",
    notInAggregate: Number.isInteger(notIn) && notIn > 0 ? notIn : undefined,
    limit: Number.isFinite(limit) ? limit : 20,
  });
  return NextResponse.json(result, { headers: { "Cache-Control": "no-store" } });
}
