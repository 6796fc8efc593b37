// A team sharing one Schedscope: sign-in, roles enforced by the server,
// the audit trail, and two people editing the same aggregate.
import { type Browser, expect, type Page, request as pwRequest, test } from "@playwright/test";
import { E2E_USERS, signIn, storageStateFile } from "./auth";
import { execute, queryAll } from "./db";
import { createAggregate, form, uid } from "./ui-helpers";

const signedOut = { cookies: [], origins: [] };

const metadataValue = (aggregate: string, key: string) =>
  queryAll<{ value: string }>(
    `SELECT m.value AS value FROM "AggregateMetadata" m JOIN "Aggregate" a ON a.id = m.aggregateId WHERE a.name = ? AND m.key = ?`,
    aggregate,
    key,
  )[0]?.value;
const auditCount = (aggregate: string) =>
  queryAll<{ n: number }>(
    `SELECT COUNT(*) AS n FROM "AuditEntry" WHERE entity = 'aggregate' AND entityKey = ?`,
    aggregate,
  )[0].n;

/** A new aggregate with metadata gpu=true, made by the signed-in admin. */
async function aggregateWithGpu(page: Page): Promise<string> {
  const name = `e2e-team-${uid()}`;
  await createAggregate(page, name);
  const add = form(page, "Add metadata");
  await add.getByLabel("New key").fill("gpu");
  await add.getByLabel("New value").fill("true");
  await add.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByLabel("Value of gpu")).toHaveValue("true");
  return name;
}

async function saveGpu(page: Page, value: string) {
  const row = form(page, "Edit gpu");
  await row.getByLabel("Value of gpu").fill(value);
  await row.getByRole("button", { name: "Save gpu" }).click();
}

/** The message under the gpu row (beside its form, in the same list item). */
const gpuRowAlert = (page: Page) => form(page, "Edit gpu").locator("xpath=..").getByRole("alert");

async function contextAs(browser: Browser, user: keyof typeof E2E_USERS) {
  return browser.newContext({ storageState: storageStateFile(user) });
}

test.describe("signed out", () => {
  test.use({ storageState: signedOut });

  test("pages send you to sign in, API routes answer 401, and nothing is shown", async ({ page, request }) => {
    await page.goto("/aggregates");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Faggregates$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    const api = await request.get("/api/hosts?q=cmp");
    expect(api.status()).toBe(401);
    expect(await api.text()).not.toContain("cmp-");
    expect((await request.get("/audit/export")).status()).toBe(401);
  });

  test("a wrong password gets the same answer as an unknown name; repeated failures lock the name", async ({
    page,
  }) => {
    const sessions = () => queryAll<{ n: number }>(`SELECT COUNT(*) AS n FROM "Session"`)[0].n;
    const before = sessions();
    const attempt = async (name: string, password: string) => {
      await page.goto("/sign-in");
      const f = page.getByRole("form", { name: "Sign in" });
      await f.getByLabel("Name").fill(name);
      await f.getByLabel("Password").fill(password);
      await f.getByRole("button", { name: "Sign in" }).click();
      return f.getByRole("alert");
    };
    await expect(await attempt(E2E_USERS.viewer.name, "not-the-password")).toHaveText("Wrong name or password.");
    await expect(await attempt(`nobody_${uid()}`, "not-the-password")).toHaveText("Wrong name or password.");
    expect(sessions()).toBe(before);

    const name = `e2e_lock_${uid()}`;
    for (let i = 0; i < 5; i++) await expect(await attempt(name, `guess-${i}`)).toHaveText("Wrong name or password.");
    await expect(await attempt(name, "guess-6")).toHaveText(
      /^Too many failed sign-ins for this name: try again in \d+ s\.$/,
    );
    expect(sessions()).toBe(before);
  });
});

test.describe("sessions the server no longer accepts", () => {
  test.use({ storageState: signedOut });

  test("a tampered cookie and an expired session send you back to sign in", async ({ page, context }) => {
    await signIn(page, E2E_USERS.viewer.name);
    const [cookie] = (await context.cookies()).filter((c) => c.name.endsWith("session_token"));
    // tampered: same token, signature changed
    const [token, sig] = decodeURIComponent(cookie.value).split(".");
    const flipped = `${token}.${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`;
    await context.addCookies([{ ...cookie, value: encodeURIComponent(flipped) }]);
    await page.goto("/hosts");
    await expect(page).toHaveURL(/\/sign-in/);

    // expired: a valid cookie whose session ran out
    await context.addCookies([cookie]);
    await page.goto("/hosts");
    await expect(page.getByRole("heading", { level: 1, name: "Hosts" })).toBeVisible();
    expect(execute(`UPDATE "Session" SET expiresAt = ? WHERE token = ?`, "2000-01-01T00:00:00.000+00:00", token)).toBe(
      1,
    );
    await page.goto("/hosts");
    await expect(page).toHaveURL(/\/sign-in/);
  });
});

test.describe("roles and the audit trail", () => {
  test("a viewer cannot change aggregate metadata, even by a hand-made request; an admin can, and /audit shows both values", async ({
    page,
    browser,
    baseURL,
  }) => {
    const name = await aggregateWithGpu(page);
    const audits = auditCount(name);

    // the admin's own save request, captured and held back
    let captured: { url: string; headers: Record<string, string>; body: Buffer } | null = null;
    await page.route(
      (url) => url.pathname.startsWith("/aggregates/"),
      async (route) => {
        const req = route.request();
        if (req.method() !== "POST") return route.continue();
        captured = { url: req.url(), headers: await req.allHeaders(), body: req.postDataBuffer() ?? Buffer.from("") };
        return route.abort();
      },
    );
    await saveGpu(page, "false");
    await expect.poll(() => captured !== null).toBe(true);
    await page.unroute((url) => url.pathname.startsWith("/aggregates/"));
    const sent = captured!;
    const headers = Object.fromEntries(
      Object.entries(sent.headers).filter(([k]) => !["cookie", "content-length", "host"].includes(k.toLowerCase())),
    );

    // the same request with a viewer's session: refused, nothing written
    const viewer = await pwRequest.newContext({ baseURL, storageState: storageStateFile("viewer") });
    const refused = await viewer.post(sent.url, { headers, data: sent.body });
    expect(await refused.text()).toContain("Not allowed: aggregate.metadata.save needs the admin role");
    expect(metadataValue(name, "gpu")).toBe("true");
    expect(auditCount(name)).toBe(audits);
    // and on the page itself: the viewer's buttons are disabled and say which role they need
    const viewerCtx = await contextAs(browser, "viewer");
    const vp = await viewerCtx.newPage();
    await vp.goto(`/aggregates/${name}`);
    const edit = form(vp, "Edit gpu");
    // the viewer cannot type into what it cannot save
    await expect(edit.getByLabel("Value of gpu")).not.toBeEditable();
    for (const button of [
      edit.getByRole("button", { name: "Save gpu" }),
      vp.getByRole("button", { name: "Delete aggregate" }),
    ]) {
      await expect(button).toBeDisabled();
      await expect(button).toHaveAttribute("title", /needs the admin role or higher; you are signed in as a viewer/i);
    }
    expect(metadataValue(name, "gpu")).toBe("true");
    await viewerCtx.close();
    await viewer.dispose();

    // the admin's request as sent: accepted
    const accepted = await page.request.post(sent.url, { headers, data: sent.body });
    expect(accepted.ok()).toBe(true);
    expect(metadataValue(name, "gpu")).toBe("false");

    // the aggregate's history: who, the old and the new value
    await page.goto(`/aggregates/${name}`);
    await page.getByRole("main").getByRole("link", { name: "History" }).click();
    await expect(page).toHaveURL(/\/audit\?entity=aggregate&key=/);
    const changes = page.getByRole("table", { name: "Changes" });
    const row = changes.getByRole("row").filter({ hasText: "metadata.gpu" }).filter({ hasText: "false" });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(E2E_USERS.admin.name);
    await expect(row.getByRole("cell", { name: "true", exact: true })).toBeVisible();
    await expect(row.getByRole("cell", { name: "false", exact: true })).toBeVisible();

    // the same selection as CSV
    const csv = await page.request.get(`/audit/export?entity=aggregate&key=${encodeURIComponent(name)}`);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe("at,user,role,action,entity,key,before,after");
    expect(text).toContain(`${E2E_USERS.admin.name},admin,aggregate.metadata.save,aggregate,${name}`);
  });

  test("two people editing the same aggregate: the second save is refused, nothing is overwritten", async ({
    browser,
  }) => {
    const a = await contextAs(browser, "admin");
    const b = await contextAs(browser, "admin2");
    const pa = await a.newPage();
    const name = await aggregateWithGpu(pa);
    const pb = await b.newPage();
    await pb.goto(`/aggregates/${name}`);
    await expect(pb.getByLabel("Value of gpu")).toHaveValue("true");

    await saveGpu(pa, "a100");
    await expect(pa.getByText("Saved gpu.")).toBeVisible();
    expect(metadataValue(name, "gpu")).toBe("a100");

    await saveGpu(pb, "h100");
    const alert = gpuRowAlert(pb);
    await expect(alert).toContainText(
      new RegExp(`changed by ${E2E_USERS.admin.name} at \\d\\d:\\d\\d since you opened it`),
    );
    const values = alert.getByRole("row", { name: /gpu/ });
    await expect(values.getByRole("cell", { name: "h100" })).toBeVisible();
    await expect(values.getByRole("cell", { name: "a100" })).toBeVisible();
    expect(metadataValue(name, "gpu")).toBe("a100");

    // after reloading, the second person sees the change and can save on top of it
    await pb.reload();
    await expect(pb.getByLabel("Value of gpu")).toHaveValue("a100");
    await saveGpu(pb, "h100");
    await expect(pb.getByText("Saved gpu.")).toBeVisible();
    expect(metadataValue(name, "gpu")).toBe("h100");
    await a.close();
    await b.close();
  });

  test("signing out ends the session on the server", async ({ browser }) => {
    const ctx = await browser.newContext({ storageState: signedOut });
    const page = await ctx.newPage();
    await signIn(page, E2E_USERS.operator.name);
    await expect(page.getByText("operator", { exact: true })).toBeVisible();
    const [cookie] = (await ctx.cookies()).filter((c) => c.name.endsWith("session_token"));
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByText("You are signed out.")).toBeVisible();
    // the old cookie, replayed, is worth nothing
    await ctx.addCookies([cookie]);
    await page.goto("/hosts");
    await expect(page).toHaveURL(/\/sign-in/);
    await ctx.close();
  });
});
