import { prisma } from "@/lib/db";
import { answerHosts, parseHostsQuery } from "@/lib/runs/api";
import { loadRun } from "@/lib/runs/cache";
import { badRequest, notFound } from "@/lib/api/route-input";
import { viewerRunId } from "@/lib/api/viewer-input";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/ID/hosts?view=weighed|rejected|fate|detail&index=0&offset=0&limit=25&q=cmp-04
 * Pages of a run's weighed table and why-not list, a host's fate (search),
 * or one instance's details, from the stored result.
 */
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  // reads: any signed-in role; checked before any work
  const id = await viewerRunId(req, ctx);
  if (id instanceof Response) return id;
  const q = parseHostsQuery(new URL(req.url).searchParams);
  if (typeof q === "string") return badRequest(q);
  const run = await loadRun(prisma, id);
  if (!run) return notFound(`run ${id} does not exist`);
  return Response.json(answerHosts(run, q));
}
