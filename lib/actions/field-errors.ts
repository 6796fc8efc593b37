import type { z } from "zod";

/**
 * Zod's issues as messages per field, keyed by the field's path ("mix.0.share");
 * an issue about the whole value is the form's ("_form"). Every form answer
 * (server actions, route handlers, checks in the browser) keys its errors so.
 */
export function zodFieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const i of issues) (out[i.path.map(String).join(".") || "_form"] ??= []).push(i.message);
  return out;
}
