/**
 * /metrics on the real server, behind proxy.ts: a scrape token made with
 * the users CLI is accepted; no token, a revoked one, or an admin's signed-in
 * session cookie alone are refused with 401 (never a redirect to sign-in).
 */
import { request as pwRequest, expect, test } from "@playwright/test";
import { storageStateFile, usersCli } from "./auth";

const NAME = `e2e_scrape_${Date.now() % 100000}`;
let token = "";

test.beforeAll(() => {
  const added = usersCli(["token", "add", NAME]);
  expect(added.status, added.out).toBe(0);
  token = /sst_[A-Za-z0-9_-]+/.exec(added.out)?.[0] ?? "";
  expect(token).not.toBe("");
  const listed = usersCli(["token", "list"]);
  expect(listed.out).toMatch(new RegExp(`${NAME}\\s+active`));
  // the token is shown once: never in the list
  expect(listed.out).not.toContain(token);
});

test.setTimeout(360_000);

test("a scrape token reads /metrics; a session cookie, no token or a revoked token get 401", async ({ baseURL }) => {
  const anonymous = await pwRequest.newContext({ baseURL });
  const ok = await anonymous.get("/metrics", { headers: { Authorization: `Bearer ${token}` }, timeout: 120_000 });
  expect(ok.status()).toBe(200);
  expect(ok.headers()["content-type"]).toContain("text/plain; version=0.0.4");
  // the server computes in the background from the first scrape on; flavors appear as each is filled
  await expect
    .poll(async () => (await anonymous.get("/metrics", { headers: { Authorization: `Bearer ${token}` } })).text(), {
      timeout: 300_000,
      intervals: [2_000],
    })
    .toMatch(/^openstack_free_capacity_by_flavor_total\{flavor_name="m1\.large",public="True"\} \d+$/m);

  const none = await anonymous.get("/metrics", { maxRedirects: 0 });
  expect(none.status()).toBe(401);

  const admin = await pwRequest.newContext({ baseURL, storageState: storageStateFile("admin") });
  const cookieOnly = await admin.get("/metrics", { maxRedirects: 0 });
  expect(cookieOnly.status()).toBe(401);
  expect(await cookieOnly.text()).not.toContain("openstack_");

  const revoked = usersCli(["token", "revoke", NAME]);
  expect(revoked.status, revoked.out).toBe(0);
  const after = await anonymous.get("/metrics", { headers: { Authorization: `Bearer ${token}` }, maxRedirects: 0 });
  expect(after.status()).toBe(401);
  await anonymous.dispose();
  await admin.dispose();
});
