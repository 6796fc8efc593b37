/**
 * Capacity by filling at scale: 5,000 boots of m1.large on the 10,000-host
 * demo cloud (the database snapshot, as `npm run -s scenario -- export`
 * gives it), with the default profile and with Placement's resources
 * prefilter; time per fill and per boot.
 *
 * Standalone: node --import tsx bench/capacity.ts SCENARIO.json
 */
import { readFileSync } from "node:fs";
import { fill } from "../lib/scheduler/fill";
import { parseJson } from "../lib/scheduler/python";
import type { Scenario, ScenarioFlavor } from "../lib/scheduler/scenario";

const M1_LARGE: ScenarioFlavor = { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 80 };

export function benchCapacity(
  cloud: Omit<Scenario, "request"> & { request?: Scenario["request"] },
  boots = 5000,
): void {
  const flavor = cloud.request?.flavor?.name === "m1.large" ? cloud.request.flavor : M1_LARGE;
  const profiles: Array<[string, Scenario["config"], number]> = [
    ["default profile", cloud.config, boots],
    ["Placement path", { ...cloud.config, placement: true }, boots],
  ];
  console.log(`\ncapacity fill, ${cloud.hosts.length} hosts, ${flavor.name}:`);
  for (const [label, config, limit] of profiles) {
    const scenario: Scenario = { ...cloud, config, request: { flavor, num_instances: 1 } };
    const wall: number[] = [];
    const cpu: number[] = [];
    let last = fill(scenario, { limit });
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      const c = process.cpuUsage();
      last = fill(scenario, { limit });
      const used = process.cpuUsage(c);
      wall.push(performance.now() - t);
      cpu.push((used.user + used.system) / 1000);
    }
    // Median; CPU time too, since the machine is shared and wall time includes waiting for a core.
    const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
    console.log(
      `  ${label}: ${last.count} boots on ${last.perHost.size} hosts in ${(mid(wall) / 1000).toFixed(2)} s wall, ` +
        `${(mid(cpu) / 1000).toFixed(2)} s CPU (${(mid(cpu) / Math.max(last.count, 1)).toFixed(3)} ms CPU per boot), ` +
        `stopped by ${last.stoppedBy ? last.stoppedBy.error?.name : "the limit"}`,
    );
  }
}

if (process.argv[1]?.endsWith("capacity.ts") && process.argv[2]) {
  benchCapacity(parseJson(readFileSync(process.argv[2], "utf8")) as Scenario);
}
