/**
 * The one shape of every refusal the server answers (server actions, route
 * handlers, the proxy, the upload): `{"error": "what was wrong, naming the
 * field and the rule"}`, with `fieldErrors` (messages per field) when the
 * input's fields are at fault. Pure: the client components read it with
 * `errorMessage`.
 */
import type { z } from "zod";

/**
 * Messages per field, keyed by the field's path ("mix.0.share"); an error
 * about the whole value is the form's ("_form"). Declared here only
 * (lib/architecture.test.ts).
 */
export type FieldErrors = Record<string, string[]>;

/** The refusal of a form's server action called with something other than a form (any client can call one). */
export const NOT_A_FORM = "the request must be a form (its fields as FormData)";

/** Zod's issues as FieldErrors: every form answer (actions, routes, checks in the browser) keys its errors so. */
export function zodFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const out: FieldErrors = {};
  for (const i of issues) (out[i.path.map(String).join(".") || "_form"] ??= []).push(i.message);
  return out;
}

export interface ErrorBody {
  error: string;
  fieldErrors?: FieldErrors;
}

/** One line for a set of field errors: the first few messages, and how many more. */
export function summarize(fieldErrors: FieldErrors, most = 3): string {
  const all = Object.values(fieldErrors).flat();
  if (all.length === 0) return "the request was refused";
  const shown = all.slice(0, most).join("; ");
  return all.length > most ? `${shown} (and ${all.length - most} more)` : shown;
}

export function errorBody(error: string, fieldErrors?: FieldErrors): ErrorBody {
  return fieldErrors ? { error, fieldErrors } : { error };
}

/** A JSON refusal in the one shape. */
export function apiError(status: number, error: string, fieldErrors?: FieldErrors, init: ResponseInit = {}): Response {
  return Response.json(errorBody(error, fieldErrors), { ...init, status });
}

/** The message of an answer in the one shape (or what to say when the server gave none). */
export function errorMessage(body: unknown, status: number): string {
  const error = (body as Partial<ErrorBody> | null)?.error;
  return typeof error === "string" && error ? error : `the server answered HTTP ${status} without a reason`;
}
