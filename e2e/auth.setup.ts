import { test as setup } from "@playwright/test";
import { E2E_USERS, type E2EUser, ensureUser, signIn, storageStateFile } from "./auth";

for (const [user, { name, role }] of Object.entries(E2E_USERS) as [E2EUser, { name: string; role: string }][]) {
  setup(`sign in as ${name} (${role})`, async ({ page }) => {
    ensureUser(name, role);
    await signIn(page, name);
    await page.context().storageState({ path: storageStateFile(user) });
  });
}
