import { prisma } from "@/lib/db";
import { getRunText } from "@/lib/runs/queries";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/ID/snapshot: the whole scenario the engine saw (cloud, config
 * and request), as stored; feed it to `npm run -s schedule` to reproduce the run.
 */
export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
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
