import { NextResponse, type NextRequest } from "next/server";
import { requireRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { syncStatus } from "@/lib/sync/status";

export const dynamic = "force-dynamic";

/** GET /api/sync: the running sync's progress, the recent syncs and the newest success (polled by /connections). */
export async function GET(req: NextRequest) {
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  return NextResponse.json(await syncStatus(prisma), { headers: { "Cache-Control": "no-store" } });
}
