/**
 * npm run -s schedule -- [--brief] FILE...
 * Reads scenario files (../shared/nova-reference/SCENARIO.md) and prints the
 * results: one file → one JSON document; several → one compact line each.
 * Malformed input (not JSON, wrong types, missing keys) exits 2 naming the
 * file and field; what Nova itself rejects comes back as Nova's error.
 */
import { readFileSync } from 'node:fs';
import { ScenarioSchema, formatZodError } from '../cloud/schemas';
import { schedule } from './engine';
import { toResult } from './result';
import type { Scenario } from './scenario';

function fail(msg: string): never {
  process.stderr.write(`schedule: ${msg}\n`);
  process.exit(2);
}

function load(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    fail(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    fail(`${file}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = ScenarioSchema.safeParse(doc);
  if (!parsed.success) {
    // Types and required keys are ours to enforce; value rules Nova judges
    // itself (it raises ValueError and friends), so those go to the engine.
    const structural = parsed.error.issues.filter((i) => i.code === 'invalid_type' || i.code === 'invalid_union');
    if (structural.length) {
      const msgs = formatZodError({ issues: structural });
      fail(`${file}: invalid scenario:\n  ${msgs.join('\n  ')}`);
    }
  }
  return doc as Scenario;
}

function main(argv: string[]): void {
  const brief = argv.includes('--brief');
  const files = argv.filter((a) => a !== '--brief' && a !== '--');
  if (!files.length || argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write('usage: npm run -s schedule -- [--brief] SCENARIO.json...\n');
    process.exit(files.length ? 0 : 2);
  }
  const scenarios = files.map(load);
  const out: string[] = [];
  scenarios.forEach((sc) => {
    const run = schedule(sc);
    const result = toResult(run, { brief });
    out.push(files.length === 1 ? JSON.stringify(result, null, 1) : JSON.stringify(result));
  });
  process.stdout.write(out.join('\n') + '\n');
}

main(process.argv.slice(2));
