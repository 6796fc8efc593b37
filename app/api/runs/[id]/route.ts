import { prisma } from "@/lib/db";
import { getRunText } from "@/lib/runs/queries";
import { requireRole } from "@/lib/auth/session";
import { notFound, runIdParam } from "@/lib/api/route-input";

export const dynamic = "force-dynamic";

/** GET /api/runs/ID: the run's stored result document, byte for byte as stored. */
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  // reads: any signed-in role; checked before any work
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  const id = await runIdParam(ctx);
  if (id instanceof Response) return id;
  const text = await getRunText(prisma, id, "result");
  if (text === null) return notFound(`run ${id} does not exist`);
  return new Response(text, {
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "private, max-age=3600, immutable" },
  });
}
