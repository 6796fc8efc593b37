import { defineConfig, devices } from "@playwright/test";
import { storageStateFile } from "./e2e/auth";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/chromium";

// Normally run through `npm test` (scripts/test.mjs), which builds the app
// against a fresh temporary database and sets E2E_PORT, DATABASE_URL and
// CHROMIUM_PATH. Standalone: `npx playwright test` after `npm run build`.
const port = Number(process.env.E2E_PORT || 3100);
const baseURL = `http://127.0.0.1:${port}`;
// The same build served from PostgreSQL too, when scripts/test.mjs prepared
// such a database (E2E_POSTGRES_URL): a second server and its own journey.
const postgresUrl = process.env.E2E_POSTGRES_URL;
const pgPort = Number(process.env.E2E_PG_PORT || port + 1);
const nextStart = (p: number, databaseUrl: string | undefined) => ({
  command: `node node_modules/next/dist/bin/next start -p ${p} -H 127.0.0.1`,
  url: `http://127.0.0.1:${p}/`,
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: "ignore" as const,
  stderr: "pipe" as const,
  env: {
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  },
});
const launchOptions = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  // One worker by default: every spec shares one seeded database and one
  // server, and the machine has 2 cores (the server needs one). Specs that
  // write must not depend on row counts other specs may change.
  workers: Number(process.env.E2E_WORKERS || 1),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE || "test-results/e2e-results.json" }],
  ],
  outputDir: "test-results/e2e",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    // creates the e2e users (users CLI) and signs each in once
    { name: "setup", testMatch: /auth\.setup\.ts$/, use: { launchOptions } },
    {
      name: "chromium",
      dependencies: ["setup"],
      testIgnore: /postgresql(-start)?\.spec\.ts$/,
      use: {
        ...devices["Desktop Chrome"],
        // every spec runs signed in as an admin unless it says otherwise
        storageState: storageStateFile("admin"),
        launchOptions,
      },
    },
    ...(postgresUrl
      ? [
          {
            name: "postgresql",
            testMatch: /postgresql(-start)?\.spec\.ts$/,
            use: { ...devices["Desktop Chrome"], baseURL: `http://127.0.0.1:${pgPort}`, launchOptions },
          },
        ]
      : []),
  ],
  webServer: [nextStart(port, process.env.DATABASE_URL), ...(postgresUrl ? [nextStart(pgPort, postgresUrl)] : [])],
});
