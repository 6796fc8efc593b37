/**
 * Every example of ../shared/nova-reference/examples, as it is there today,
 * through our CLI and judged by the reference's own compare.py. An example
 * our engine does not speak yet stays in PENDING with the issue it waits for;
 * once it agrees, the test asks for it to leave the list.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { firstDisagreement } from "./compare";

// ../shared beside the project; NOVA_REFERENCE_DIR for a checkout elsewhere (a git worktree)
const NOVA_REFERENCE_DIR =
  process.env.NOVA_REFERENCE_DIR ?? path.resolve(process.cwd(), "..", "shared", "nova-reference");
const EXAMPLES_DIR = path.join(NOVA_REFERENCE_DIR, "examples");

/** Example name -> the issue whose work it waits for. */
const PENDING: Record<string, string> = {};

const names = readdirSync(EXAMPLES_DIR)
  .filter((f) => f.endsWith(".scenario.json"))
  .map((f) => f.replace(/\.scenario\.json$/, ""))
  .sort();

/** Our CLI's answer to every example, one JSON line each, in `names` order. */
function answers(): string[] {
  const files = names.map((n) => path.join(EXAMPLES_DIR, `${n}.scenario.json`));
  const r = spawnSync(
    process.execPath,
    [path.resolve("node_modules/tsx/dist/cli.mjs"), "lib/scenario/schedule-cli.ts", ...files],
    {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const lines = r.stdout.split("\n").filter((l) => l.trim());
  expect(lines.length, `one answer per example (stderr: ${r.stderr.slice(0, 500)})`).toBe(names.length);
  return lines;
}

/**
 * compare.py's verdict on one example, then ours (compare.ts: also the
 * move's RequestSpec, skipped_hosts and source allocation): null when both agree.
 */
function verdict(dir: string, name: string, line: string): string | null {
  const strict = firstDisagreement(
    JSON.parse(readFileSync(path.join(EXAMPLES_DIR, `${name}.expected.json`), "utf8")),
    JSON.parse(line),
  );
  if (strict) return strict;
  const actual = path.join(dir, `${name}.actual.jsonl`);
  writeFileSync(actual, `${line}\n`);
  const r = spawnSync(
    "/usr/bin/python3",
    [path.join(NOVA_REFERENCE_DIR, "compare.py"), actual, path.join(EXAMPLES_DIR, `${name}.expected.json`)],
    { encoding: "utf8", env: { ...process.env, VERBOSE: "1" } },
  );
  if (r.status === 0) return null;
  return r.stdout.trim().split("\n")[0] || r.stderr.trim() || "compare.py failed";
}

describe("the shared examples, judged by compare.py", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "schedscope-examples-"));
  let lines: string[] = [];
  it("has the examples and answers each", () => {
    expect(names.length).toBeGreaterThanOrEqual(35);
    lines = answers();
  });
  it("lists as pending only examples that exist", () => {
    for (const name of Object.keys(PENDING)) expect(names).toContain(name);
  });
  it.each(names)("%s", (name) => {
    const v = verdict(dir, name, lines[names.indexOf(name)] ?? "{}");
    if (PENDING[name]) expect(v, `${name} agrees now: remove it from PENDING (${PENDING[name]})`).not.toBeNull();
    else expect(v).toBeNull();
  });
});
