/**
 * The fake cloud of bench/sync.ts in its own process (so the sync's timing
 * does not share a thread with the server): prints its settings as one JSON
 * line, serves until killed.
 */
import { startFakeCloud } from "../lib/openstack-api/testing/fake-cloud";

const hosts = Number(process.argv[2] ?? 10000);
startFakeCloud({ hosts, serversPerHost: 3, flavors: 40, images: 200, aggregates: 20, serverGroups: 300 }).then((c) => {
  process.stdout.write(`${JSON.stringify(c.settings)}\n`);
});
