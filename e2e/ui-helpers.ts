// Helpers shared by the issue-5 e2e specs (screens where the scheduler's inputs are edited).
import { expect, type Locator, type Page } from "@playwright/test";
import { queryAll } from "./db";

/** A suffix that keeps names unique across tests, workers and runs. */
export function uid(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The form with this accessible name (every edit form has an aria-label). */
export function form(page: Page | Locator, name: string): Locator {
  return page.getByRole("form", { name, exact: true });
}

/** Accept the next window.confirm (delete buttons ask first). */
export function acceptNextDialog(page: Page): void {
  page.once("dialog", (d) => void d.accept());
}

/** A field shows an error message and is marked invalid. */
export async function expectFieldError(field: Locator, message: string | RegExp): Promise<void> {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(message instanceof RegExp ? message : new RegExp(escapeRe(message)));
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Asks the what-if form of a scheduled run about each disabled (but up) host in turn and returns the
 * first one it proposes to enable, or "" when none: which disabled host the filters rejected for
 * that reason alone depends on the seeded cloud.
 */
export async function firstHostToEnable(page: Page): Promise<string> {
  const disabled = queryAll<{ name: string }>(
    `SELECT name FROM "ComputeHost" WHERE serviceDisabled = 1 AND serviceUp = 1 AND forcedDown = 0 ORDER BY name`,
  ).map((r) => r.name);
  const whatIf = page.getByRole("form", { name: "What would let a host pass" });
  for (const name of disabled) {
    await whatIf.getByLabel("Rejected host").fill(name);
    await whatIf.getByRole("button", { name: "Find changes" }).click();
    const region = page.getByRole("region", { name: `Changes for ${name}` });
    await expect(region).toBeVisible({ timeout: 20_000 });
    if (await region.getByRole("button", { name: `Apply: enable the compute service on ${name}` }).count()) return name;
  }
  return "";
}

/** A key/value editor's "Add" form (named e.g. "Add metadata") and its fields. */
export function pairForm(page: Page, name: string) {
  const add = form(page, name);
  return {
    add,
    key: add.getByLabel("New key"),
    value: add.getByLabel("New value"),
    submit: add.getByRole("button", { name: "Add", exact: true }),
  };
}

/** Adds key=value through a key/value editor's "Add" form and waits until the saved row shows it. */
export async function addPair(add: Locator, key: string, value: string): Promise<void> {
  await add.getByLabel("New key").fill(key);
  await add.getByLabel("New value").fill(value);
  await add.getByRole("button", { name: "Add", exact: true }).click();
  await expect(add.page().getByLabel(`Value of ${key}`)).toHaveValue(value);
}

/** Creates an aggregate from /aggregates and waits for its own page. */
export async function createAggregate(page: Page, name: string): Promise<void> {
  await page.goto("/aggregates");
  const create = form(page, "Create aggregate");
  await create.getByLabel("Name", { exact: true }).fill(name);
  await create.getByRole("button", { name: "Create aggregate" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

/** Submits the "Create server group" form and returns it, to read its outcome or field errors. */
export async function submitServerGroup(page: Page, name: string, policy: string, maxPerHost?: string) {
  await page.goto("/server-groups");
  const create = form(page, "Create server group");
  await create.getByLabel("Name", { exact: true }).fill(name);
  await create.getByLabel("Policy").selectOption(policy);
  if (maxPerHost !== undefined) await create.getByLabel("Rule max_server_per_host").fill(maxPerHost);
  await create.getByRole("button", { name: "Create server group" }).click();
  return create;
}
