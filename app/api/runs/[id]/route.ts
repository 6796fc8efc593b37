import { prisma } from "@/lib/db";
import { getRunText } from "@/lib/runs/queries";
import { notFound } from "@/lib/api/route-input";
import { viewerRunId } from "@/lib/api/viewer-input";

export const dynamic = "force-dynamic";

/** GET /api/runs/ID: the run's stored result document, byte for byte as stored. */
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  // reads: any signed-in role; checked before any work
  const id = await viewerRunId(req, ctx);
  if (id instanceof Response) return id;
  const text = await getRunText(prisma, id, "result");
  if (text === null) return notFound(`run ${id} does not exist`);
  return new Response(text, {
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "private, max-age=3600, immutable" },
  });
}
