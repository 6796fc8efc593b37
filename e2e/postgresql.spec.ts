// The same app on PostgreSQL: a real browser against `next start` serving
// from a PostgreSQL database (migrated with prisma/postgresql/migrations,
// seeded with the demo cloud). Runs as the "postgresql" project when
// scripts/test.mjs starts that second server (E2E_POSTGRES_URL).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_PASSWORD, ROOT, signIn } from "./auth";

const OPERATOR = "pg_operator";

/** The users CLI against the PostgreSQL database. */
function addUser(name: string, role: string) {
  const r = spawnSync(
    path.join(ROOT, "node_modules", ".bin", "tsx"),
    ["lib/auth/users-cli.ts", "add", name, "--role", role],
    {
      cwd: ROOT,
      input: `${E2E_PASSWORD}\n`,
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: process.env.E2E_POSTGRES_URL },
    },
  );
  const out = `${r.stdout}${r.stderr}`;
  if (r.status !== 0 && !/already exists/.test(out)) throw new Error(`users add ${name}: ${out}`);
}

test.describe("on PostgreSQL", () => {
  test.beforeAll(() => addUser(OPERATOR, "operator"));

  test("sign in, find a host, trial-schedule a flavor and see the chosen host", async ({ page }) => {
    await signIn(page, OPERATOR);

    // the hosts page: paged and searched in SQL (case-insensitive on PostgreSQL too)
    await page.goto("/hosts?q=CMP-A2-01");
    const table = page.getByRole("table", { name: "Compute hosts" });
    await expect(table.getByRole("rowheader", { name: "cmp-a2-010", exact: true })).toBeVisible();
    await expect(table.getByRole("rowheader", { name: "cmp-a1-001", exact: true })).toHaveCount(0);

    await page.goto("/schedule");
    await page.getByLabel("Flavor").selectOption("m1.small");
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    const status = page.getByRole("status").filter({ hasText: /Run #\d+/ });
    await expect(status).toBeVisible({ timeout: 30_000 });
    const placement = page.getByRole("list", { name: "Placement", exact: true });
    await expect(placement).toContainText(/chosen host\s*cmp-a\d-\d{3}/);

    // the run is stored in PostgreSQL and listed
    const id = /Run #(\d+)/.exec((await status.textContent()) ?? "")?.[1];
    await page.goto("/runs");
    const runs = page.getByRole("table", { name: "Scheduling runs" });
    await expect(runs.getByRole("link", { name: `#${id}`, exact: true })).toBeVisible();
  });
});
