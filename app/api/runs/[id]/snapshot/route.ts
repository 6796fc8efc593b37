import { prisma } from "@/lib/db";
import { getRunText } from "@/lib/runs/queries";
import { notFound } from "@/lib/api/route-input";
import { viewerRunId } from "@/lib/api/viewer-input";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/ID/snapshot: the whole scenario the engine saw (cloud, config
 * and request), as stored; feed it to `npm run -s schedule` to reproduce the run.
 */
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  // reads: any signed-in role; checked before any work
  const id = await viewerRunId(req, ctx);
  if (id instanceof Response) return id;
  const text = await getRunText(prisma, id, "snapshot");
  if (text === null) return notFound(`run ${id} does not exist`);
  return new Response(text, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `inline; filename="run-${id}-scenario.json"`,
    },
  });
}
