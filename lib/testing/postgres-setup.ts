/**
 * vitest globalSetup: a PostgreSQL server for the integration tests that run
 * on both databases. `npm test` starts one and passes TEST_POSTGRES_URL;
 * otherwise a throwaway cluster is started here (scripts/lib/postgres.mjs:
 * Debian's postgresql, a free port, removed afterwards).
 */
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  if (process.env.TEST_POSTGRES_URL) {
    project.provide("postgresUrl", process.env.TEST_POSTGRES_URL);
    return;
  }
  const { startPostgres } = await import("../../scripts/lib/postgres.mjs");
  const { freePort } = await import("../../scripts/lib/setup.mjs");
  const pg = startPostgres(await freePort());
  project.provide("postgresUrl", pg.url);
  return () => pg.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
