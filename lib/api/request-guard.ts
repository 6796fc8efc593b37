/**
 * The checks every request passes in the proxy before any work: a request
 * that changes state (any method but GET/HEAD/OPTIONS: server actions and
 * /api/* alike) must come from a page of this site, every path segment must
 * decode, and a server action's body must be one Next.js can decode (size,
 * JSON, depth, references), so an attacker's request is a 4xx naming what
 * was wrong, never a 500. Pure functions of the Request: no Next.js, no Prisma.
 */
import { MAX_JSON_DEPTH, jsonTooDeep } from "@/lib/core/input-limits";
import { pageParamsRefusal } from "./page-params";

/** The server actions' body limit (Next.js's default `serverActions.bodySizeLimit`). */
export const MAX_ACTION_BODY_BYTES = 1024 * 1024;

export type Refused = { status: number; error: string };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const isStateChanging = (method: string) => !SAFE_METHODS.has(method.toUpperCase());

/** The host this server was asked for (as a reverse proxy forwards it, else the Host header). */
function ownHost(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return (forwarded || headers.get("host") || "").toLowerCase() || null;
}

/**
 * Why a state-changing request is refused as cross-site, or null.
 * Browsers send `Origin` on every POST (also `mode: "no-cors"` ones) and
 * `Sec-Fetch-Site`; a request that carries neither is not a browser's (a
 * script with its own cookie) and cannot be forged by another site.
 */
export function crossSiteRefusal(headers: Headers): Refused | null {
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    return {
      status: 403,
      error: `cross-site request refused: Sec-Fetch-Site is "${site}"; changes are accepted only from this site's own pages`,
    };
  }
  const origin = headers.get("origin");
  if (origin === null) return null;
  let originHost: string | null = null;
  try {
    originHost = origin === "null" ? null : new URL(origin).host.toLowerCase();
  } catch {
    originHost = null;
  }
  const host = ownHost(headers);
  if (originHost !== null && host !== null && originHost === host) return null;
  return {
    status: 403,
    error: `cross-site request refused: Origin ${JSON.stringify(origin.slice(0, 100))} is not this site (${host ?? "unknown host"}); changes are accepted only from this site's own pages`,
  };
}

/** Why the raw path is refused (a segment whose %-escapes do not decode), or null. */
export function pathRefusal(rawPath: string): Refused | null {
  for (const segment of rawPath.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return {
        status: 400,
        error: `path: the segment ${JSON.stringify(segment.slice(0, 80))} has a malformed %-escape (write % as %25)`,
      };
    }
  }
  return null;
}

/**
 * Why a page's query is refused: a parameter its shape (page-params.ts)
 * does not read, named with its rule. Ids, cursors and page numbers are
 * whole numbers within their bounds (every value of a repeated one); an
 * empty value is an absent one (a form's empty field).
 */
export function pageQueryRefusal(pathname: string, query: URLSearchParams): Refused | null {
  const error = pageParamsRefusal(pathname, query);
  return error === null ? null : { status: 400, error };
}

/** A string of React's reply encoding that refers to another row of the body ("$1", "$@2", "$Q3", "$W4"). */
const ROW_REF = /^\$(@|Q|W)?([0-9a-f]+)(?::.*)?$/;

/**
 * Why an action body's rows are refused: every row must be JSON within the
 * depth limit, every reference to another row must point at a row sent,
 * and a BigInt ("$n…") must be digits.
 */
function rowsRefusal(rows: Map<string, string>): Refused | null {
  for (const [id, text] of rows) {
    const deep = jsonTooDeep(text, MAX_JSON_DEPTH);
    if (deep !== null)
      return { status: 400, error: `action body: nests deeper than ${MAX_JSON_DEPTH} levels at ${deep}` };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { status: 400, error: `action body: part ${id} is not JSON` };
    }
    const problem = badReference(value, rows);
    if (problem) return { status: 400, error: `action body: ${problem}` };
  }
  return null;
}

function badReference(value: unknown, rows: Map<string, string>): string | null {
  // depth is bounded by the check above: an explicit stack keeps it that way
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (!v.startsWith("$") || v.startsWith("$$")) continue;
      const ref = ROW_REF.exec(v);
      if (ref) {
        if (!rows.has(String(Number.parseInt(ref[2], 16)))) return `reference ${JSON.stringify(v)} names no part`;
      } else if (v.startsWith("$n") && !/^\$n-?\d{1,400}$/.test(v)) {
        return `${JSON.stringify(v.slice(0, 40))} is not a whole number`;
      }
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === "object") stack.push(...Object.values(v));
  }
  return null;
}

/**
 * Why a server action's body is refused (too large, not the encoding
 * React sends, not JSON, too deep, dangling references), or null.
 * `body` is read by the caller up to MAX_ACTION_BODY_BYTES + 1 bytes.
 */
export async function actionBodyRefusal(request: Request): Promise<Refused | null> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  const tooLarge = {
    status: 413,
    error: `action body: is larger than ${MAX_ACTION_BODY_BYTES} bytes (1 MB), the limit of a form`,
  };
  if (Number.isFinite(declared) && declared > MAX_ACTION_BODY_BYTES) return tooLarge;
  // the multipart boundary is case-sensitive: only the comparisons are lower-cased
  const rawType = request.headers.get("content-type") ?? "";
  const type = rawType.toLowerCase();
  const bytes = await readLimited(request, MAX_ACTION_BODY_BYTES);
  if (bytes === null) return tooLarge;
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": rawType } }).formData();
    } catch {
      return { status: 400, error: "action body: is not valid multipart/form-data" };
    }
    const rows = new Map<string, string>();
    for (const [k, v] of form.entries()) if (/^\d+$/.test(k) && typeof v === "string") rows.set(k, v);
    return rowsRefusal(rows);
  }
  if (type.startsWith("application/x-www-form-urlencoded")) return null;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { status: 400, error: "action body: is not UTF-8 text" };
  }
  return rowsRefusal(new Map([["0", text]]));
}

/** The body, or null when it is longer than `max` bytes (reading stops there). */
async function readLimited(request: Request, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Sent with every response: no framing by other sites, no MIME sniffing, no
 * full URL to other sites, and only this site's scripts, styles and data.
 * Next.js's inline bootstrap scripts need 'unsafe-inline' (no nonces on
 * statically rendered pages); 'unsafe-eval' only in development (React's
 * debugging).
 */
export function securityHeaders(dev: boolean): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
  };
}
