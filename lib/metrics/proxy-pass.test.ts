/**
 * proxy.ts lets /metrics through to its route's token check without looking
 * for a session (a scraper has none): no redirect to the sign-in page, no
 * 401 from the proxy; the route answers (lib/metrics/prometheus.test.ts).
 */
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";

describe("proxy and /metrics", () => {
  it.each([
    ["no credentials", {}],
    ["a bearer token", { authorization: "Bearer sst_x" }],
    ["a cookie", { cookie: "schedscope.session_token=abc.def" }],
  ])("passes GET /metrics with %s on to the route", async (_label, headers) => {
    const res = await proxy(new NextRequest("http://127.0.0.1:3000/metrics", { headers }));
    expect(res.headers.get("x-middleware-next")).toBe("1");
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
});
