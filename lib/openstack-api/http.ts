/**
 * The one place Schedscope speaks HTTP to a cloud. Every call but Keystone's
 * token request is a GET (Schedscope only reads); each has a timeout, and a
 * failure becomes an ApiError naming the endpoint, the status and what was
 * not read, so a sync can say exactly where it stopped.
 */

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type ApiFailure = "unreachable" | "timeout" | "status" | "malformed";

/** A call the cloud did not answer usefully. Its message never carries a token or a password. */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiFailure,
    /** The URL asked (no query secrets: Schedscope puts none there). */
    readonly endpoint: string,
    /** What this call was reading, in OpenStack's words ("hypervisors", "inventories of provider X"). */
    readonly what: string,
    readonly status: number | null,
    detail: string,
    readonly method: "GET" | "POST" = "GET",
  ) {
    super(
      `${what}: ${
        kind === "status"
          ? `${method} ${endpoint} answered ${status}${detail ? ` (${detail})` : ""}`
          : kind === "timeout"
            ? `${method} ${endpoint} timed out ${detail}`
            : kind === "malformed"
              ? `${method} ${endpoint} answered malformed JSON (${detail})`
              : `${method} ${endpoint} could not be reached (${detail})`
      }`,
    );
    this.name = "ApiError";
  }
}

/** The first line of an error body, short (OpenStack puts the reason in JSON: {"itemNotFound": {"message": ...}}). */
export function reasonOf(text: string): string {
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const inner = Object.values(j)[0] as Record<string, unknown> | undefined;
    const msg =
      (inner && typeof inner === "object" && (inner.message ?? inner.title)) ??
      (Array.isArray(j.errors) ? (j.errors[0] as Record<string, unknown>)?.detail : undefined) ??
      j.message;
    if (typeof msg === "string") return msg.slice(0, 200);
  } catch {
    // not JSON: the text itself
  }
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
}

function causeOf(e: unknown): string {
  const err = e as { cause?: { code?: string; message?: string }; message?: string };
  return err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e);
}

export interface GetOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  what: string;
  /** Statuses that are an answer, not a failure (e.g. 404 for "no such thing"). */
  accept?: number[];
}

/** GET a JSON document. Nothing but GET leaves through here. */
export async function getJson(
  fetchImpl: FetchLike,
  url: string,
  opts: GetOptions,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  let res: Response;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    res = await fetchImpl(url, {
      method: "GET",
      headers: { Accept: "application/json", ...opts.headers },
      signal,
      redirect: "error",
    });
  } catch (e) {
    if (signal.aborted) throw new ApiError("timeout", url, opts.what, null, `after ${opts.timeoutMs / 1000} s`);
    throw new ApiError("unreachable", url, opts.what, null, causeOf(e));
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    if (signal.aborted) throw new ApiError("timeout", url, opts.what, null, `after ${opts.timeoutMs / 1000} s`);
    throw new ApiError("unreachable", url, opts.what, res.status, `the answer broke off: ${causeOf(e)}`);
  }
  if (!res.ok && !opts.accept?.includes(res.status))
    throw new ApiError("status", url, opts.what, res.status, reasonOf(text));
  if (!res.ok) return { status: res.status, body: null, headers: res.headers };
  try {
    return { status: res.status, body: JSON.parse(text), headers: res.headers };
  } catch (e) {
    throw new ApiError("malformed", url, opts.what, res.status, (e as Error).message.slice(0, 120));
  }
}

/** Run `fn` over `items` with at most `limit` at once; the first failure stops the rest. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed: unknown = null;
  const worker = async () => {
    while (failed === null && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]);
      } catch (e) {
        if (failed === null) failed = e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failed !== null) throw failed;
  return out;
}
