/**
 * npm run -s lose-hosts -- CLOUD [HOST...] [--survive K]
 * Loses each host of a cloud file (every host, or the ones named) on its
 * own: the host's service goes down and its instances are evacuated one by
 * one as Nova would, each committed before the next. One JSON line per
 * host (evacuated, stranded with Nova's reason), then one per availability
 * zone with its worst single-host loss. With --survive K, per zone: how
 * many of its hosts (up to K) the cloud survives losing together, every
 * combination tried.
 */
import { readCloudFile } from "./cloud-file";
import { survivableLosses, sweepHostLosses } from "./lose-hosts";

function main(argv: string[]): number {
  let args = argv.filter((a) => a !== "--");
  const at = args.indexOf("--survive");
  let survive = 0;
  if (at >= 0) {
    survive = Number(args[at + 1]);
    if (!Number.isInteger(survive) || survive < 1) {
      process.stderr.write("lose-hosts: --survive needs a whole number of hosts >= 1\n");
      return 2;
    }
    args = [...args.slice(0, at), ...args.slice(at + 2)];
  }
  if (!args.length || args.includes("--help") || args.includes("-h")) {
    process.stderr.write("usage: npm run -s lose-hosts -- CLOUD.json [HOST...] [--survive K]\n");
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
  if (survive)
    for (const zone of Object.keys(sweep.worst_by_zone))
      process.stdout.write(`${JSON.stringify(survivableLosses(cloud, zone, survive))}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
