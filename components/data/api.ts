/**
 * How client components talk to the route handlers: JSON in, JSON out, and
 * a refusal (the one error shape, lib/core/errors.ts) thrown as an
 * ApiRequestError carrying its message and field errors. Used inside React
 * Query's query and mutation functions, never on its own.
 */
import { errorMessage, type FieldErrors } from "@/lib/core/errors";

export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fieldErrors: FieldErrors,
  ) {
    super(message);
  }
}

async function answer<T>(res: Response): Promise<T> {
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const fields = (body as { fieldErrors?: FieldErrors } | null)?.fieldErrors;
    throw new ApiRequestError(errorMessage(body, res.status), res.status, fields ?? {});
  }
  return body as T;
}

export async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  return answer<T>(await fetch(url, init));
}

export async function postJson<T>(url: string, body: unknown, init?: RequestInit): Promise<T> {
  return answer<T>(
    await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      ...init,
    }),
  );
}

/** A POST whose answer streams JSON lines: each line to `onLine`; a refusal thrown as above. */
export async function postJsonLines(url: string, body: unknown, onLine: (line: unknown) => void): Promise<void> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok || !res.body) {
    await answer(res);
    throw new ApiRequestError(`the server answered HTTP ${res.status} without a body`, res.status, {});
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (value) buf += decoder.decode(value, { stream: true });
    let nl = buf.indexOf("\n");
    while (nl >= 0) {
      onLine(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
      nl = buf.indexOf("\n");
    }
    if (done) break;
  }
}

/** Field errors to show for a failed request: the server's, or the message on the form. */
export function fieldErrorsOf(e: unknown, what: string): FieldErrors {
  if (e instanceof ApiRequestError && Object.keys(e.fieldErrors).length) return e.fieldErrors;
  return { _form: [`${what}: ${(e as Error).message}`] };
}
