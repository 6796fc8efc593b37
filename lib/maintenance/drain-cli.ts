/**
 * npm run -s drain -- FILE HOST...
 * Drains the hosts of a cloud file (a scenario with flavors, images and
 * instances, as `scenario export` writes it): one JSON line per instance
 * (where it went, or why it is stranded), then a summary line. Nothing is
 * written back: every move is committed to a copy before the next.
 */
import { readCloudFile } from "./cloud-file";
import { drainHosts } from "./drain";

function main(argv: string[]): number {
  const args = argv.filter((a) => a !== "--");
  if (args.length < 2 || args.includes("--help") || args.includes("-h")) {
    process.stderr.write("usage: npm run -s drain -- CLOUD.json HOST...\n");
    return 2;
  }
  const [file, ...hosts] = args;
  const cloud = readCloudFile(file, hosts);
  if (typeof cloud === "string") {
    process.stderr.write(`drain: ${cloud}\n`);
    return 2;
  }
  for (const line of drainHosts(cloud, hosts)) process.stdout.write(`${JSON.stringify(line)}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
