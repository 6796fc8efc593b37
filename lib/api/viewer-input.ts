import { requireRole } from "@/lib/auth/session";
import { jsonBody, runIdParam } from "./route-input";

/*
 * The start of the read-only routes: any signed-in role may ask (they read a
 * stored run, or compute on a copy and write nothing), and the role is checked
 * before any work, the input only after.
 */

/** GET /api/runs/ID/…: the run id, or the 401/403/400 answer. */
export async function viewerRunId(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<number | Response> {
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  return runIdParam(ctx);
}

/** POST with a JSON body: the body, or the 401/403/400 answer. */
export async function viewerJsonBody(req: Request): Promise<{ body: unknown } | Response> {
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  return jsonBody(req);
}
