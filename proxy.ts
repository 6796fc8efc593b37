/**
 * Every request passes here first, before any work:
 *   1. every segment of the raw path must decode (a malformed %-escape is a 400);
 *   2. a request that changes state (server actions and /api/* alike) must
 *      come from this site's own pages (Origin / Sec-Fetch-Site): 403;
 *   3. a server action's body must be one Next.js can decode: 413 / 400;
 *   4. a signed-in user: the session is checked against the database
 *      (valid signature, not expired, user still present with a known role);
 *   5. a page's number parameters (ids, cursors, page numbers) must be whole
 *      numbers within their bounds: a 400 page naming the parameter and rule
 *      (a page itself cannot answer with a status other than 200 or 404).
 * /metrics is for machines: no session is looked at; its route accepts a
 * scrape token only (lib/metrics/handler.ts), and answers 401 without one.
 * Roles are enforced where the work happens (mutate(), requireRole()).
 * Every answer carries the security headers (lib/api/request-guard.ts).
 */
import { type NextRequest, NextResponse } from "next/server";
import {
  actionBodyRefusal,
  crossSiteRefusal,
  isStateChanging,
  pageQueryRefusal,
  pathRefusal,
  type Refused,
  securityHeaders,
} from "@/lib/api/request-guard";
import { actorFromHeaders } from "@/lib/auth/session";

const PUBLIC = ["/sign-in"];
/** Checked by the route itself against a bearer scrape token, never a session. */
const TOKEN_ONLY = ["/metrics"];
/** Answered with 401, not a redirect to the sign-in page: machine-read routes. */
const API = ["/api/", "/audit/export"];
const HEADERS = securityHeaders(process.env.NODE_ENV === "development");

function withHeaders(res: NextResponse): NextResponse {
  for (const [k, v] of Object.entries(HEADERS)) res.headers.set(k, v);
  return res;
}

const refuse = (r: Refused) => withHeaders(NextResponse.json({ error: r.error }, { status: r.status }));

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** A refused page request: a page a person reads, saying what was wrong and where to go on. */
function refusePage(r: Refused, pathname: string): NextResponse {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad request · Schedscope</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem;color:#1b1f24}code{overflow-wrap:anywhere}</style>
</head><body><main>
<h1>Bad request</h1>
<p role="alert">The address has a value this page cannot use: <code>${escapeHtml(r.error)}</code>.</p>
<p><a href="${escapeHtml(pathname)}">Open ${escapeHtml(pathname)} without it</a> or go to the <a href="/">overview</a>.</p>
</main></body></html>
`;
  return withHeaders(
    new NextResponse(html, { status: r.status, headers: { "content-type": "text/html; charset=utf-8" } }),
  );
}

/** The path as the client sent it (nextUrl's pathname may already be normalized). */
function rawPath(request: NextRequest): string {
  return /^[a-z]+:\/\/[^/?#]*([^?#]*)/i.exec(request.url)?.[1] ?? request.nextUrl.pathname;
}

export async function proxy(request: NextRequest) {
  // (a malformed escape in the query is left to URLSearchParams, which keeps it as text)
  const bad = pathRefusal(rawPath(request));
  if (bad) return refuse(bad);
  if (isStateChanging(request.method)) {
    const cross = crossSiteRefusal(request.headers);
    if (cross) return refuse(cross);
    if (request.headers.has("next-action")) {
      const body = await actionBodyRefusal(request);
      if (body) return refuse(body);
    }
  }
  const { pathname, search } = request.nextUrl;
  if (PUBLIC.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return withHeaders(NextResponse.next());
  if (TOKEN_ONLY.includes(pathname)) return withHeaders(NextResponse.next());
  const actor = await actorFromHeaders(request.headers);
  if (actor) {
    const badQuery = isStateChanging(request.method) ? null : pageQueryRefusal(pathname, request.nextUrl.searchParams);
    return badQuery ? refusePage(badQuery, pathname) : withHeaders(NextResponse.next());
  }
  if (API.some((p) => pathname.startsWith(p)))
    return refuse({ status: 401, error: "sign in first (no valid session)" });
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = "";
  if (pathname !== "/") url.searchParams.set("next", `${pathname}${search}`);
  return withHeaders(NextResponse.redirect(url));
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
