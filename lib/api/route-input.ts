/**
 * What the route handlers (app/api/...) read from a request, and the answers
 * they give when it is wrong, worded once so every route says it alike.
 */
import { apiError, type FieldErrors, summarize } from "@/lib/core/errors";
import { readUserJson } from "@/lib/core/input-limits";
import { type ParamsOf, type ParamsShape, param, parseParams, type RawParams } from "./params";

/** More instances than one request may ask for. */
const MAX_INSTANCE_INDEX = 100_000;

/** 400 {"error": message}. */
export const badRequest = (error: string) => apiError(400, error);

/** 404 {"error": message}. */
export const notFound = (error: string) => apiError(404, error);

/** 400 {"error": summary, "fieldErrors": {field: [message]}}: a form's fields refused (capacity). */
export const fieldErrors = (errors: FieldErrors) => apiError(400, summarize(errors), errors);

/** A route's path or query parameters read by `shape` (params.ts), or the 400 answer naming the first refused. */
export function routeParams<S extends ParamsShape>(shape: S, raw: RawParams): ParamsOf<S> | Response {
  const read = parseParams(shape, raw);
  return read.ok ? read.value : badRequest(read.error);
}

const RUN_ID = { id: param.pathId() };

/** `index`: which instance of a run (0, the first, when absent). */
export const instanceIndex = () => param.wholeNumber(0, MAX_INSTANCE_INDEX, 0);

/** The ID of /api/runs/ID/…: a positive whole number, or the 400 answer saying so. */
export async function runIdParam(ctx: { params: Promise<{ id: string }> }): Promise<number | Response> {
  const read = routeParams(RUN_ID, await ctx.params);
  return read instanceof Response ? read : read.id;
}

/** The request's JSON body, or the 400 answer (a form error) when it is not JSON. */
export async function jsonBody(req: Request): Promise<{ body: unknown } | Response> {
  let text: string;
  try {
    text = await req.text();
  } catch {
    return fieldErrors({ _form: ["the request body must be JSON"] });
  }
  const read = readUserJson(text, "the request body");
  if (read.ok) return { body: read.value };
  return fieldErrors({
    _form: [read.message.includes("not valid JSON") ? "the request body must be JSON" : read.message],
  });
}
