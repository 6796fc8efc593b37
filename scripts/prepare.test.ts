// The tsx command-line tools after a plain `npm install` (no generated Prisma
// client yet): `npm run scenario` must generate the client itself instead of
// failing with "Cannot find module '@/lib/generated/prisma/client'".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
let scratch = "";

/** A copy of the project without lib/generated, sharing node_modules. */
function scratchCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-prepare-"));
  for (const entry of ["package.json", "tsconfig.json", "prisma.config.ts", "prisma", "scripts", "lib"]) {
    fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), {
      recursive: true,
      filter: (src) => !src.includes(`${path.sep}generated`) && !src.endsWith(".db"),
    });
  }
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

function npmRun(script: string, ...args: string[]) {
  return spawnSync("npm", ["run", "-s", script, "--", ...args], {
    cwd: scratch,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: `file:${path.join(scratch, "data", "test.db")}` },
    timeout: 120_000,
  });
}

describe("CLIs prepare the Prisma client they import", () => {
  beforeAll(() => {
    scratch = scratchCopy();
  }, 60_000);
  afterAll(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("npm run scenario generates a missing client, then runs", { timeout: 180_000 }, () => {
    expect(fs.existsSync(path.join(scratch, "lib", "generated"))).toBe(false);
    const first = npmRun("scenario", "--help");
    expect(first.stderr).not.toContain("Cannot find module");
    expect(first.stderr).toContain("generating the Prisma client");
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^usage:/);
    expect(first.stdout).not.toContain("[schedscope]");
    expect(fs.existsSync(path.join(scratch, "lib", "generated", "prisma", "client.ts"))).toBe(true);

    // warm: nothing to generate, nothing said
    const second = npmRun("scenario", "--help");
    expect(second.status).toBe(0);
    expect(second.stderr).not.toContain("generating");
  });
});
