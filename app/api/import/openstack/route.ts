import { NextResponse, type NextRequest } from "next/server";
import { requireRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { bundleUpload } from "@/lib/openstack/upload";

export const dynamic = "force-dynamic";

/**
 * POST /api/import/openstack?mode=preview            body: the bundle's .tar.gz
 * POST /api/import/openstack?mode=apply&sha256=HEX   the same file: replace the cloud
 */
export async function POST(req: NextRequest) {
  // replacing the cloud is an admin write; even a preview reads up to 200 MB, so it is refused first; checked before any work
  const actor = await requireRole(req, "admin");
  if (actor instanceof Response) return actor;
  const mode = req.nextUrl.searchParams.get("mode") === "apply" ? "apply" : "preview";
  const { status, body } = await bundleUpload(prisma, req, mode, req.nextUrl.searchParams.get("sha256"));
  return NextResponse.json(body, { status, headers: { "Cache-Control": "no-store" } });
}
