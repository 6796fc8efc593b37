#!/usr/bin/env node
// Run the Prisma CLI offline: `npm run prisma -- migrate status`.
// Sets the engine variables (see scripts/lib/env.mjs) so Prisma never tries
// to download native engines; prisma.config.ts selects the JS engine + adapter.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT, childEnv, exists, fail } from "./lib/env.mjs";

const cli = path.join(ROOT, "node_modules", "prisma", "build", "index.js");
if (!exists(cli)) fail("prisma is not installed: run `npm install` (or `npm start`) first");
const res = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
  cwd: ROOT,
  env: childEnv(),
  stdio: "inherit",
});
process.exit(res.status ?? 1);
