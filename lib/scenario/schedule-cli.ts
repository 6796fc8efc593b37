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
import { schedule } from "../scheduler/engine";
import { toResult } from "../scheduler/result";
import { InvalidScenario, loadScenarioFile as load } from "./file";

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
