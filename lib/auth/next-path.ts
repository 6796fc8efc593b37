/**
 * Where to go after signing in: `next` resolved as a browser resolves it
 * against this site (tabs and newlines dropped, "/\host" and "//host" made
 * absolute), kept only when it stays on this site; else "/". Pure.
 */
const BASE = "http://this-site.invalid";

export function safeNext(next: unknown): string {
  if (typeof next !== "string" || !next.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return "/";
  }
  return url.origin === BASE ? `${url.pathname}${url.search}${url.hash}` : "/";
}
