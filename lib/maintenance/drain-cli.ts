/**
 * npm run -s drain -- FILE HOST...
 * Drains the hosts of a cloud file (a scenario with flavors, images and
 * instances, as `scenario export` writes it): one JSON line per instance
 * (where it went, or why it is stranded), then a summary line. Nothing is
 * written back: every move is committed to a copy before the next.
 */
import { readFileSync } from "node:fs";
import { validateCloud } from "../cloud/schemas";
import { parseJson } from "../scheduler/python";
import { type Cloud, drainHosts } from "./drain";

function main(argv: string[]): number {
  const args = argv.filter((a) => a !== "--");
  if (args.length < 2 || args.includes("--help") || args.includes("-h")) {
    process.stderr.write("usage: npm run -s drain -- CLOUD.json HOST...\n");
    return 2;
  }
  const [file, ...hosts] = args;
  let doc: unknown;
  try {
    doc = parseJson(readFileSync(file, "utf8"));
  } catch (e) {
    process.stderr.write(`drain: ${file}: ${(e as Error).message}\n`);
    return 2;
  }
  const checked = validateCloud(doc);
  if (!checked.ok) {
    process.stderr.write(`drain: ${file}: ${checked.errors.join("; ")}\n`);
    return 2;
  }
  const cloud = doc as Cloud;
  const unknown = hosts.filter((h) => !cloud.hosts.some((x) => x.name === h));
  if (unknown.length) {
    process.stderr.write(`drain: no host ${unknown.map((h) => `"${h}"`).join(", ")} in ${file}\n`);
    return 2;
  }
  for (const line of drainHosts(cloud, hosts)) process.stdout.write(`${JSON.stringify(line)}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
