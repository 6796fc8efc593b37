/**
 * npm run -s explain -- --cloud CLOUD.json LOG...
 * Reads Nova's logs (oslo.log or journald, plain or gzip) and prints one JSON
 * line per scheduling call, in the order the calls started: request_id,
 * instance_uuids, logged {filters, selected, error}, replayed {the same},
 * agree, differences. The replay runs on CLOUD.json (a scenario file or a
 * cloud document; a scenario's own request is the request replayed).
 * Counts of skipped lines go to stderr. Exit status 2 on bad arguments.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { InvalidScenario, loadScenarioFile } from "../scenario/file";
import { parseJson } from "../scheduler/python";
import type { Scenario, ScenarioFlavor, ScenarioRequest } from "../scheduler/scenario";
import { currentCloudAsOf, explainCall, explanationLine } from "./explain";
import { readAllCalls } from "./read";
import { byStart } from "./order";
import { requestFor } from "./request";

type Cloud = Omit<Scenario, "request"> & { request?: ScenarioRequest; flavors?: ScenarioFlavor[] };

/** A scenario file (its request is the one replayed) or a cloud document (hosts, flavors, config). */
function loadCloud(file: string): Cloud {
  let doc: unknown;
  try {
    doc = parseJson(readFileSync(file, "utf8"));
  } catch (e) {
    throw new InvalidScenario(`not readable JSON (${(e as Error).message})`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new InvalidScenario("not a JSON object");
  if ("request" in doc) return loadScenarioFile(file);
  if (!Array.isArray((doc as { hosts?: unknown }).hosts)) throw new InvalidScenario("hosts: must be a list");
  return doc as Cloud;
}

async function main(argv: string[]): Promise<number> {
  const args = argv.filter((a) => a !== "--");
  const i = args.indexOf("--cloud");
  const cloudFile = i >= 0 ? args[i + 1] : undefined;
  const logs = args.filter((_, k) => k !== i && k !== i + 1);
  if (!cloudFile || !logs.length || args.includes("--help")) {
    process.stderr.write("usage: npm run -s explain -- --cloud CLOUD.json LOG...\n");
    return 2;
  }
  let cloud: Cloud;
  try {
    cloud = loadCloud(cloudFile);
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
    out.push(
      JSON.stringify(
        explanationLine(explainCall(call, { cloudAsOf: asOf, requestFor: requestFor(cloud.flavors ?? []) })),
      ),
    );
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
