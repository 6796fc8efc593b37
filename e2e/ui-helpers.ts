// Helpers shared by the issue-5 e2e specs (screens where the scheduler's inputs are edited).
import { expect, type Locator, type Page } from "@playwright/test";

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
