/**
 * npm run -s schedule -- [--brief] FILE...
 * Reads scenario files (../shared/nova-reference/SCENARIO.md) and prints one
 * compact JSON result per file, one per line, in order (a single file gives
 * one document on one line, so the output is also JSON Lines).
 *
 * A file we cannot run (unreadable, not JSON, not shaped like a scenario:
 * hosts, request and flavor missing or of the wrong type) is reported on
 * stderr naming the file and the field; its line carries
 * {"error": "InvalidScenario", ...} so the other lines keep their places,
 * and the exit status is 2. Values Nova itself judges (a size that is not a
 * number, an unknown architecture, a bad JsonFilter query) go to the engine,
 * which answers with the error Nova raises.
 */
import { readFileSync } from "node:fs";
import { ScenarioSchema, formatZodError } from "../cloud/schemas";
import { schedule } from "./engine";
import { parseJson } from "./python";
import { toResult } from "./result";
import type { Scenario } from "./scenario";

class InvalidScenario extends Error {}

// Shapes without which there is no scheduling question at all.
function isFatal(path: PropertyKey[]): boolean {
  if (path.length <= 1) return true;
  const [top, second, third] = path;
  if ((top === "hosts" || top === "aggregates" || top === "server_groups") && path.length === 2) return true;
  if (top === "hosts" && third === "name" && path.length === 3) return true;
  return top === "request" && second === "flavor" && path.length <= 3 && (path.length === 2 || third === "name");
}

function load(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new InvalidScenario(`cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = parseJson(text);
  } catch (e) {
    throw new InvalidScenario(`not valid JSON (${(e as Error).message})`);
  }
  const parsed = ScenarioSchema.safeParse(doc);
  if (!parsed.success) {
    const fatal = parsed.error.issues.filter(
      (i) => (i.code === "invalid_type" || i.code === "invalid_union") && isFatal(i.path),
    );
    if (fatal.length) throw new InvalidScenario(`invalid scenario: ${formatZodError({ issues: fatal }).join("; ")}`);
  }
  return doc as Scenario;
}

function main(argv: string[]): number {
  const brief = argv.includes("--brief");
  const files = argv.filter((a) => a !== "--brief" && a !== "--");
  if (!files.length || argv.includes("--help") || argv.includes("-h")) {
    process.stderr.write("usage: npm run -s schedule -- [--brief] SCENARIO.json...\n");
    return files.length ? 0 : 2;
  }
  let status = 0;
  const out: string[] = [];
  for (const file of files) {
    try {
      const result = toResult(schedule(load(file), { now: () => performance.now(), clock: () => new Date() }), {
        brief,
      });
      out.push(JSON.stringify(result));
    } catch (e) {
      status = 2;
      const message = e instanceof InvalidScenario ? e.message : `the engine failed: ${(e as Error).stack ?? e}`;
      process.stderr.write(`schedule: ${file}: ${message}\n`);
      out.push(JSON.stringify({ error: "InvalidScenario", message, requests: [], selections: [] }));
    }
  }
  process.stdout.write(`${out.join("\n")}\n`);
  return status;
}

process.exitCode = main(process.argv.slice(2));
