/**
 * The one shape of a form's server action: the form's fields through
 * mutate() (authorization, validation, the audited transaction), then, when
 * the write succeeded, the page the action leads to. Everything a form
 * action says (messages, where it goes) is worded from the form's input or
 * from what the write returned.
 */
import "server-only";
import { redirect } from "next/navigation";
import type { z } from "zod";
import type { Tx } from "@/lib/db/client";
import { type ActionResult, existing, formToObject, mutate, notAForm } from "./mutation";
import type { ActionName } from "@/lib/core/action-registry";

type FormInput = Record<string, unknown>;

export interface FormActionOptions<T> {
  /** The pages that show what the write changed. */
  revalidate: string[] | ((input: FormInput) => string[]);
  /** Said on success. */
  message?: string | ((data: T, input: FormInput) => string);
  /** Where a successful write leads (nothing: the form stays, with its message). */
  redirectTo?: (data: T) => string | null;
}

export async function formAction<S extends z.ZodType, T>(
  action: ActionName,
  schema: S,
  form: FormData,
  write: (tx: Tx, data: z.output<S>) => Promise<T>,
  opts: FormActionOptions<T>,
): Promise<ActionResult<T>> {
  const input = formToObject(form);
  if (!input) return notAForm();
  const revalidate = typeof opts.revalidate === "function" ? opts.revalidate(input) : opts.revalidate;
  const message = typeof opts.message === "string" ? opts.message : undefined;
  const result = await mutate(action, schema, input, write, { revalidate, message });
  if (!result.ok) return result;
  const href = opts.redirectTo?.(result.data);
  if (href) redirect(href);
  return typeof opts.message === "function" ? { ...result, message: opts.message(result.data, input) } : result;
}

/** After an edit that changed the record's uuid: the `list` with it open again, at its new uuid. */
export const editAt = (list: string) => (r: { uuid: string; old: string }) =>
  r.uuid !== r.old ? `${list}?edit=${encodeURIComponent(r.uuid)}` : null;

/** "Added key." or, for an edit in place (the form names the key it had), "Saved key.". */
export const keySaved = (_data: unknown, input: FormInput) =>
  `${typeof input.original_key === "string" && input.original_key !== "" ? "Saved" : "Added"} ${String(input.key ?? "").trim()}.`;

/** "Removed key.". */
export const keyRemoved = (_data: unknown, input: FormInput) => `Removed ${String(input.key ?? "")}.`;

/**
 * Deleting the record a form's `id` names: refused if it no longer exists
 * (or `check` refuses), then back to `list` saying which one went.
 */
export function deleteAction<R extends { id: number }>(
  action: ActionName,
  schema: z.ZodType<{ id: number }>,
  form: FormData,
  spec: {
    what: string;
    find: (tx: Tx, id: number) => Promise<R | null>;
    remove: (tx: Tx, id: number) => Promise<unknown>;
    label: (row: R) => string;
    check?: (row: R) => void;
    list: string;
    revalidate: string[];
    message: string;
  },
): Promise<ActionResult<{ label: string }>> {
  return formAction(
    action,
    schema,
    form,
    async (tx, d) => {
      const row = existing(await spec.find(tx, d.id), spec.what);
      spec.check?.(row);
      await spec.remove(tx, row.id);
      return { label: spec.label(row) };
    },
    {
      revalidate: spec.revalidate,
      message: spec.message,
      redirectTo: (r) => `${spec.list}?deleted=${encodeURIComponent(r.label)}`,
    },
  );
}
