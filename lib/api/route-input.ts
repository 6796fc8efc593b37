/**
 * What the route handlers (app/api/...) read from a request, and the answers
 * they give when it is wrong, worded once so every route says it alike.
 */

/** 400 {"error": message}: the runs API's shape. */
export const badRequest = (error: string) => Response.json({ error }, { status: 400 });

/** 404 {"error": message}. */
export const notFound = (error: string) => Response.json({ error }, { status: 404 });

/** 400 {"errors": {field: [message]}}: the shape of the APIs that take a form (capacity). */
export const fieldErrors = (errors: Record<string, string[]>) => Response.json({ errors }, { status: 400 });

/** The ID of /api/runs/ID/…: a positive whole number, or the 400 answer saying so. */
export async function runIdParam(ctx: { params: Promise<{ id: string }> }): Promise<number | Response> {
  const id = Number((await ctx.params).id);
  return Number.isInteger(id) && id > 0 ? id : badRequest("run id must be a positive whole number");
}

/** `index`: which instance of a run (0, the first, when absent), or the 400 answer saying so. */
export function instanceIndexParam(params: URLSearchParams): number | Response {
  const index = Number(params.get("index") ?? "0");
  return Number.isInteger(index) && index >= 0 ? index : badRequest("index: must be a whole number from 0");
}

/** The request's JSON body, or the 400 answer (a form error) when it is not JSON. */
export async function jsonBody(req: Request): Promise<{ body: unknown } | Response> {
  try {
    return { body: await req.json() };
  } catch {
    return fieldErrors({ _form: ["the request body must be JSON"] });
  }
}
