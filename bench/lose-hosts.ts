/**
 * npm run bench:lose-hosts [-- HOSTS INSTANCES]: the single-host-loss sweep
 * (lib/maintenance/lose-hosts.ts) over every host of a cloud of HOSTS hosts
 * (default 1,000) with INSTANCES instances each (default 20): every host
 * lost in turn, each instance evacuated and committed before the next.
 * Printed beside the Nova reference's time for one evacuation on the same
 * cloud (nova_reference.py, its engine_ms and its whole run). Run from the
 * project root; npm run bench runs it as a bundle, in a process of its own.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Cloud } from "../lib/maintenance/drain";
import { sweepHostLosses } from "../lib/maintenance/lose-hosts";

const FLAVORS = [
  { name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20 },
  { name: "m1.medium", vcpus: 2, memory_mb: 4096, root_gb: 40 },
  { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 80 },
];

export function lossCloud(hosts: number, perHost: number): Cloud {
  const cloud: Cloud = {
    config: {
      enabled_filters: [
        "ComputeFilter",
        "AvailabilityZoneFilter",
        "ImagePropertiesFilter",
        "ServerGroupAntiAffinityFilter",
      ],
      weighers: ["RAMWeigher", "CPUWeigher", "DiskWeigher"],
    },
    hosts: [],
    aggregates: [1, 2, 3].map((z) => ({ name: `az${z}`, availability_zone: `az${z}`, hosts: [] as string[] })),
    flavors: FLAVORS,
    instances: [],
  };
  let seq = 0;
  for (let i = 0; i < hosts; i++) {
    const name = `cmp-${String(i).padStart(5, "0")}`;
    const h = {
      name,
      vcpus: 64,
      memory_mb: 262144,
      local_gb: 4000,
      vcpus_used: 0,
      memory_mb_used: 0,
      local_gb_used: 0,
      num_instances: 0,
      instances: [] as string[],
    };
    for (let k = 0; k < perHost; k++) {
      const f = FLAVORS[(i + k) % FLAVORS.length];
      const uuid = `00000000-0000-4000-8000-${String(seq++).padStart(12, "0")}`;
      h.instances.push(uuid);
      h.vcpus_used += f.vcpus;
      h.memory_mb_used += f.memory_mb;
      h.local_gb_used += f.root_gb;
      h.num_instances++;
      cloud.instances!.push({ uuid, flavor: f.name, project_id: "proj-a" });
    }
    cloud.hosts.push(h);
    cloud.aggregates![i % 3].hosts!.push(name);
  }
  return cloud;
}

function main(): void {
  const [hosts = 1000, perHost = 20] = process.argv
    .slice(2)
    .filter((a) => a !== "--")
    .map(Number);
  const cloud = lossCloud(hosts, perHost);
  const t0 = performance.now();
  const sweep = sweepHostLosses(cloud);
  const ms = performance.now() - t0;
  const stranded = sweep.losses.reduce((a, l) => a + l.stranded.length, 0);
  console.log(
    `single-host-loss sweep: ${hosts} hosts x ${perHost} instances = ${hosts * perHost} evacuations in ${(ms / 1000).toFixed(1)} s (goal < 60 s): ${stranded} stranded`,
  );
  // The reference: one evacuation of the first host's first instance on the same cloud.
  const dir = mkdtempSync(path.join(os.tmpdir(), "lose-hosts-"));
  try {
    const { flavors: _f, instances: _i, ...base } = cloud;
    const lost = { ...cloud.hosts[0], service: { up: false } };
    const scenario = {
      ...base,
      hosts: [lost, ...cloud.hosts.slice(1)],
      request: {
        operation: "evacuate",
        project_id: "proj-a",
        instance: { uuid: lost.instances![0], host: lost.name, flavor: FLAVORS[0] },
      },
    };
    const file = path.join(dir, "evacuate.json");
    writeFileSync(file, JSON.stringify(scenario));
    const r0 = performance.now();
    const out = JSON.parse(
      execFileSync(
        "/usr/bin/python3",
        [path.resolve(process.cwd(), "../shared/nova-reference/nova_reference.py"), "--brief", file],
        {
          encoding: "utf8",
          maxBuffer: 1 << 28,
        },
      ),
    );
    const wall = performance.now() - r0;
    console.log(
      `Nova reference, one evacuation on the same cloud: engine_ms ${out.timing.engine_ms.toFixed(1)} ms, whole run ${(wall / 1000).toFixed(1)} s (x ${hosts * perHost} evacuations ≈ ${((out.timing.engine_ms * hosts * perHost) / 1000).toFixed(0)} s of scheduling alone)`,
    );
  } catch (e) {
    console.log(`Nova reference not run: ${(e as Error).message.split("\n")[0]}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
