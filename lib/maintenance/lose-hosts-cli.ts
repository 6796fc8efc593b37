/**
 * npm run -s lose-hosts -- CLOUD [HOST...]
 * Loses each host of a cloud file (every host, or the ones named) on its
 * own: the host's service goes down and its instances are evacuated one by
 * one as Nova would, each committed before the next. One JSON line per
 * host (evacuated, stranded with Nova's reason), then one per availability
 * zone with its worst single-host loss.
 */
import { readFileSync } from "node:fs";
import { validateCloud } from "../cloud/schemas";
import { parseJson } from "../scheduler/python";
import type { Cloud } from "./drain";
import { sweepHostLosses } from "./lose-hosts";

function main(argv: string[]): number {
  const args = argv.filter((a) => a !== "--");
  if (!args.length || args.includes("--help") || args.includes("-h")) {
    process.stderr.write("usage: npm run -s lose-hosts -- CLOUD.json [HOST...]\n");
    return 2;
  }
  const [file, ...hosts] = args;
  let doc: unknown;
  try {
    doc = parseJson(readFileSync(file, "utf8"));
  } catch (e) {
    process.stderr.write(`lose-hosts: ${file}: ${(e as Error).message}\n`);
    return 2;
  }
  const checked = validateCloud(doc);
  if (!checked.ok) {
    process.stderr.write(`lose-hosts: ${file}: ${checked.errors.join("; ")}\n`);
    return 2;
  }
  const cloud = doc as Cloud;
  const unknown = hosts.filter((h) => !cloud.hosts.some((x) => x.name === h));
  if (unknown.length) {
    process.stderr.write(`lose-hosts: no host ${unknown.map((h) => `"${h}"`).join(", ")} in ${file}\n`);
    return 2;
  }
  const sweep = sweepHostLosses(cloud, hosts.length ? hosts : undefined);
  for (const l of sweep.losses) process.stdout.write(`${JSON.stringify(l)}\n`);
  for (const [zone, w] of Object.entries(sweep.worst_by_zone))
    process.stdout.write(`${JSON.stringify({ availability_zone: zone, worst_single_host_loss: w })}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
