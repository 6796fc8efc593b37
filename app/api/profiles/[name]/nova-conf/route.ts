import { type NextRequest, NextResponse } from "next/server";
import { profileNovaConf } from "@/lib/openstack/profile";
import { notFound } from "@/lib/api/route-input";
import { requireRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/** GET /api/profiles/NAME/nova-conf: the profile as a nova.conf fragment (a download). */
export async function GET(req: NextRequest, ctx: { params: Promise<{ name: string }> }) {
  // reads: any signed-in role; checked before any work
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  const { name } = await ctx.params;
  const text = await profileNovaConf(prisma, name);
  if (text === null) return notFound(`name: no profile is named "${name}"`);
  return new NextResponse(text, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="nova-${name.replace(/[^A-Za-z0-9._-]/g, "_")}.conf"`,
      "Cache-Control": "no-store",
    },
  });
}
