import { prisma } from "@/lib/db";
import { answerHosts, parseHostsQuery } from "@/lib/runs/api";
import { loadRun } from "@/lib/runs/cache";
import { requireRole } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/ID/hosts?view=weighed|rejected|fate|detail&index=0&offset=0&limit=25&q=cmp-04
 * Pages of a run's weighed table and why-not list, a host's fate (search),
 * or one instance's details, from the stored result.
 */
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  // reads: any signed-in role; checked before any work
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  const id = Number((await ctx.params).id);
  if (!Number.isInteger(id) || id <= 0)
    return Response.json({ error: "run id must be a positive whole number" }, { status: 400 });
  const q = parseHostsQuery(new URL(req.url).searchParams);
  if (typeof q === "string") return Response.json({ error: q }, { status: 400 });
  const run = await loadRun(prisma, id);
  if (!run) return Response.json({ error: `run ${id} does not exist` }, { status: 404 });
  return Response.json(answerHosts(run, q));
}
