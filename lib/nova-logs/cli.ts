/**
 * npm run -s explain -- --cloud CLOUD.json LOG...
 * Reads Nova's logs (oslo.log or journald, plain or gzip) and prints one JSON
 * line per scheduling call, in the order the calls started: request_id,
 * instance_uuids, logged {filters, selected, error}, replayed {the same},
 * agree, differences. The replay runs on CLOUD.json (a scenario file or a
 * cloud document; a scenario's own request is the request replayed).
 * Counts of skipped lines go to stderr. Exit status 2 on bad arguments.
 */
import { createReadStream, statSync } from "node:fs";
import { loadScenarioFile, InvalidScenario } from "../scenario/file";
import { currentCloudAsOf, explainCall, explanationLine } from "./explain";
import { readAllCalls } from "./read";
import { byStart } from "./order";

async function main(argv: string[]): Promise<number> {
  const args = argv.filter((a) => a !== "--");
  const i = args.indexOf("--cloud");
  const cloudFile = i >= 0 ? args[i + 1] : undefined;
  const logs = args.filter((_, k) => k !== i && k !== i + 1);
  if (!cloudFile || !logs.length || args.includes("--help")) {
    process.stderr.write("usage: npm run -s explain -- --cloud CLOUD.json LOG...\n");
    return 2;
  }
  let cloud: ReturnType<typeof loadScenarioFile>;
  try {
    cloud = loadScenarioFile(cloudFile);
  } catch (e) {
    process.stderr.write(`explain: ${cloudFile}: ${e instanceof InvalidScenario ? e.message : String(e)}\n`);
    return 2;
  }
  for (const f of logs) {
    try {
      statSync(f);
    } catch {
      process.stderr.write(`explain: ${f}: cannot read\n`);
      return 2;
    }
  }
  const { calls, stats } = await readAllCalls(
    logs.map((f) => ({ name: f, chunks: createReadStream(f), size: statSync(f).size })),
  );
  const asOf = currentCloudAsOf(cloud, cloudFile);
  const out: string[] = [];
  for (const call of calls.sort(byStart))
    out.push(JSON.stringify(explanationLine(explainCall(call, { cloudAsOf: asOf }))));
  if (out.length) process.stdout.write(`${out.join("\n")}\n`);
  process.stderr.write(
    `explain: ${stats.calls} scheduling call(s) in ${stats.lines} line(s); skipped ${stats.unparsed} unparsed, ${stats.tooLong} too long, ${stats.binary} binary${stats.refused.map((r) => `; ${r.file}: ${r.reason}`).join("")}\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`explain: ${(e as Error).message}\n`);
    process.exitCode = 1;
  },
);
