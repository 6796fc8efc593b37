// Signed-in users for the e2e tests: created through the users CLI on the
// e2e database, signed in once by e2e/auth.setup.ts, their browser state
// (the session cookie) saved for the specs.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

export const ROOT = path.resolve(__dirname, "..");
export const E2E_PASSWORD = "e2e-password-123";

export const E2E_USERS = {
  admin: { name: "e2e_admin", role: "admin" },
  admin2: { name: "e2e_admin2", role: "admin" },
  operator: { name: "e2e_operator", role: "operator" },
  viewer: { name: "e2e_viewer", role: "viewer" },
} as const;
export type E2EUser = keyof typeof E2E_USERS;

/** Where a user's signed-in browser state is kept between the setup and the specs. */
export function storageStateFile(user: E2EUser): string {
  return path.join(ROOT, "test-results", "e2e-auth", `${user}.json`);
}

/** `npm run -s users -- ARGS` against the e2e database; returns exit code and output. */
export function usersCli(args: string[], input = ""): { status: number; out: string } {
  const r = spawnSync(path.join(ROOT, "node_modules", ".bin", "tsx"), ["lib/auth/users-cli.ts", ...args], {
    cwd: ROOT,
    input,
    encoding: "utf8",
    env: { ...process.env },
  });
  return { status: r.status ?? 1, out: `${r.stdout}${r.stderr}` };
}

/** Add the user unless it exists. */
export function ensureUser(name: string, role: string): void {
  const r = usersCli(["add", name, "--role", role], `${E2E_PASSWORD}\n`);
  if (r.status !== 0 && !/already exists/.test(r.out)) throw new Error(`users add ${name}: ${r.out}`);
}

export async function signIn(page: Page, name: string, password = E2E_PASSWORD): Promise<void> {
  await page.goto("/sign-in");
  const f = page.getByRole("form", { name: "Sign in" });
  await f.getByLabel("Name").fill(name);
  await f.getByLabel("Password").fill(password);
  await f.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(`Signed in as ${name.toLowerCase()}`)).toBeVisible();
}
