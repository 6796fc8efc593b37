/**
 * npm run -s capacity -- [--limit N] [--detail] FILE...
 * Fills each scenario's cloud with its request's flavor, one boot at a time
 * (lib/scheduler/fill.ts), and prints one JSON line per file:
 * {"flavor", "count", "per_host", "stopped_by"}, where stopped_by is the
 * failing boot's result as `npm run -s schedule` prints it, or null when the
 * limit was reached. --detail adds per_az, per_aggregate and per_cell.
 *
 * A bad --limit is refused before any file is read (exit 2); a file that is
 * not a scenario gets {"error": "InvalidScenario", ...} on its line, as the
 * schedule CLI does.
 */
import { FillInputError, MAX_FILL_LIMIT, checkLimit, fill } from "../scheduler/fill";
import { toResult } from "../scheduler/result";
import { InvalidScenario, loadScenarioFile } from "./file";

const USAGE = `usage: npm run -s capacity -- [--limit N] [--detail] SCENARIO.json...
  --limit N   boot at most N instances per file (1 to ${MAX_FILL_LIMIT}; default ${MAX_FILL_LIMIT})
  --detail    also print per_az, per_aggregate and per_cell\n`;

function parseArgs(argv: string[]): { limit: number; detail: boolean; files: string[] } {
  let limit = MAX_FILL_LIMIT;
  let detail = false;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") continue;
    if (a === "--detail") detail = true;
    else if (a === "--limit" || a.startsWith("--limit=")) {
      const text = a === "--limit" ? argv[++i] : a.slice("--limit=".length);
      if (text === undefined || !/^\s*[+-]?\d+(\.\d+)?(e\d+)?\s*$/i.test(text)) {
        throw new FillInputError(`--limit: a whole number of boots is required (got ${text ?? "nothing"})`);
      }
      limit = checkLimitFlag(Number(text));
    } else if (a.startsWith("--")) throw new FillInputError(`${a}: unknown option`);
    else files.push(a);
  }
  return { limit, detail, files };
}

function checkLimitFlag(n: number): number {
  try {
    return checkLimit(n);
  } catch (e) {
    throw new FillInputError(`--${(e as Error).message}`);
  }
}

const record = (m: Map<string, number>) => Object.fromEntries(m);

function main(argv: string[]): number {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`capacity: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!args.files.length) {
    process.stderr.write(USAGE);
    return 2;
  }
  let status = 0;
  const out: string[] = [];
  for (const file of args.files) {
    try {
      const scenario = loadScenarioFile(file);
      const r = fill(scenario, { limit: args.limit, clock: () => new Date() });
      const line: Record<string, unknown> = {
        flavor: r.flavor,
        count: r.count,
        per_host: record(r.perHost),
        stopped_by: r.stoppedBy ? toResult(r.stoppedBy) : null,
      };
      if (args.detail) {
        line.per_az = Object.fromEntries([...r.perAz].map(([az, byFlavor]) => [az, [...byFlavor.values()][0] ?? 0]));
        line.per_aggregate = record(r.perAggregate);
        line.per_cell = record(r.perCell);
      }
      out.push(JSON.stringify(line));
    } catch (e) {
      status = 2;
      const message = e instanceof InvalidScenario ? e.message : `the fill failed: ${(e as Error).stack ?? e}`;
      process.stderr.write(`capacity: ${file}: ${message}\n`);
      out.push(JSON.stringify({ error: "InvalidScenario", message, count: 0, per_host: {}, stopped_by: null }));
    }
  }
  process.stdout.write(`${out.join("\n")}\n`);
  return status;
}

process.exitCode = main(process.argv.slice(2));
