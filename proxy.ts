/**
 * Every page, server action and API route needs a signed-in user: the
 * session is checked against the database here (valid signature, not
 * expired, user still present with a known role) before anything renders.
 * Roles are enforced where the work happens (mutate(), requireRole()).
 */
import { type NextRequest, NextResponse } from "next/server";
import { actorFromHeaders } from "@/lib/auth/session";

const PUBLIC = ["/sign-in"];
/** Answered with 401, not a redirect to the sign-in page: machine-read routes. */
const API = ["/api/", "/audit/export"];

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return NextResponse.next();
  const actor = await actorFromHeaders(request.headers);
  if (actor) return NextResponse.next();
  if (API.some((p) => pathname.startsWith(p)))
    return NextResponse.json({ error: "sign in first (no valid session)" }, { status: 401 });
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = "";
  if (pathname !== "/") url.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(url);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
