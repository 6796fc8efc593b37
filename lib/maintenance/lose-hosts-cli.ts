/**
 * npm run -s lose-hosts -- CLOUD [HOST...]
 * Loses each host of a cloud file (every host, or the ones named) on its
 * own: the host's service goes down and its instances are evacuated one by
 * one as Nova would, each committed before the next. One JSON line per
 * host (evacuated, stranded with Nova's reason), then one per availability
 * zone with its worst single-host loss.
 */
import { readCloudFile } from "./cloud-file";
import { sweepHostLosses } from "./lose-hosts";

function main(argv: string[]): number {
  const args = argv.filter((a) => a !== "--");
  if (!args.length || args.includes("--help") || args.includes("-h")) {
    process.stderr.write("usage: npm run -s lose-hosts -- CLOUD.json [HOST...]\n");
    return 2;
  }
  const [file, ...hosts] = args;
  const cloud = readCloudFile(file, hosts);
  if (typeof cloud === "string") {
    process.stderr.write(`lose-hosts: ${cloud}\n`);
    return 2;
  }
  const sweep = sweepHostLosses(cloud, hosts.length ? hosts : undefined);
  for (const l of sweep.losses) process.stdout.write(`${JSON.stringify(l)}\n`);
  for (const [zone, w] of Object.entries(sweep.worst_by_zone))
    process.stdout.write(`${JSON.stringify({ availability_zone: zone, worst_single_host_loss: w })}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
