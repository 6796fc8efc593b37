import { prisma } from "@/lib/db";
import { getRunText } from "@/lib/runs/queries";
import { requireRole } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/ID/snapshot: the whole scenario the engine saw (cloud, config
 * and request), as stored; feed it to `npm run -s schedule` to reproduce the run.
 */
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  // reads: any signed-in role; checked before any work
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  const id = Number((await ctx.params).id);
  if (!Number.isInteger(id) || id <= 0)
    return Response.json({ error: "run id must be a positive whole number" }, { status: 400 });
  const text = await getRunText(prisma, id, "snapshot");
  if (text === null) return Response.json({ error: `run ${id} does not exist` }, { status: 404 });
  return new Response(text, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `inline; filename="run-${id}-scenario.json"`,
    },
  });
}
