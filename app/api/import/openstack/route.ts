import { NextResponse, type NextRequest } from "next/server";
import { requireRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { bundleUpload, chosenRelease } from "@/lib/openstack/upload";

export const dynamic = "force-dynamic";

/**
 * POST /api/import/openstack?mode=preview            body: the bundle's .tar.gz
 * POST /api/import/openstack?mode=apply&sha256=HEX   the same file: replace the cloud
 * &nova_release=R on both: the Nova release of a cloud whose nova.conf names none
 */
export async function POST(req: NextRequest) {
  // replacing the cloud is an admin write; even a preview reads up to 200 MB, so it is refused first; checked before any work
  const actor = await requireRole(req, "admin");
  if (actor instanceof Response) return actor;
  const sp = req.nextUrl.searchParams;
  const mode = sp.get("mode") === "apply" ? "apply" : "preview";
  const release = chosenRelease(sp.get("nova_release"));
  if ("error" in release)
    return NextResponse.json({ ok: false, errors: [release.error], warnings: [] }, { status: 400 });
  const { status, body } = await bundleUpload(prisma, req, mode, sp.get("sha256"), release);
  return NextResponse.json(body, { status, headers: { "Cache-Control": "no-store" } });
}
