/**
 * GET /metrics: a read-only scrape token (Authorization: Bearer …) and
 * nothing else. A session cookie is not accepted here: a scraper is not a
 * person, and a page's cookie must not let a cross-site image tag or a
 * browser extension read capacity. 401 without a live token, before any work.
 */
import { apiError } from "@/lib/core/errors";
import { scrapeTokenName } from "@/lib/auth/scrape-tokens";
import type { PrismaClient } from "@/lib/db/client";
import { scrapeMetrics } from "./cache";
import { CONTENT_TYPE } from "./exposition";

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="schedscope-metrics"', "Cache-Control": "no-store" };

export async function handleMetricsRequest(db: PrismaClient, request: Request): Promise<Response> {
  if (!request.headers.get("authorization"))
    return apiError(
      401,
      "Authorization: a scrape token is required (Authorization: Bearer <token>; npm run -s users -- token add NAME)",
      undefined,
      { headers: CHALLENGE },
    );
  const name = await scrapeTokenName(db, request.headers);
  if (!name)
    return apiError(401, "Authorization: the bearer token is not a live scrape token (unknown or revoked)", undefined, {
      headers: CHALLENGE,
    });
  const body = await scrapeMetrics(db);
  return new Response(body, { status: 200, headers: { "Content-Type": CONTENT_TYPE, "Cache-Control": "no-store" } });
}
