/**
 * A sync of a 10,000-host cloud (goal: under 60 s): a local server replaying
 * the real cloud's answer shapes (lib/openstack-api/testing/fake-cloud.ts,
 * recorded from ../shared/real-cloud) at that scale, 3 servers per host and a
 * nested provider under every tenth host; the whole sync as the app runs it
 * (token, every API read with the default concurrency, conversion,
 * validation, the one-transaction write into a migrated SQLite file).
 *
 *   node --import tsx bench/sync.ts [HOSTS]
 */
import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import type { CloudSettings } from "../lib/openstack-api/keystone";
import { runSync } from "../lib/sync/run";
import { createTestDatabase } from "../lib/testing/test-db";

async function startCloud(hosts: number): Promise<{ child: ChildProcess; settings: CloudSettings }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "sync-cloud.ts"), String(hosts)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the fake cloud exited (${code})`)));
  });
  return { child, settings: JSON.parse(line) };
}

export interface SyncBench {
  hosts: number;
  seconds: number;
  requests: number;
  instances: number;
  readSeconds: number;
}

export async function benchSync(hosts = 10000): Promise<SyncBench> {
  const { child, settings } = await startCloud(hosts);
  const db = await createTestDatabase();
  try {
    const t0 = performance.now();
    let readDone = 0;
    const r = await runSync(db.prisma, {
      connectionName: "bench",
      settings,
      actor: { userId: null, userName: "bench", role: "admin" },
      startedBy: "bench",
      onProgress: (p) => {
        if (p.step === "converting" && !readDone) readDone = performance.now();
      },
    });
    const seconds = (performance.now() - t0) / 1000;
    return {
      hosts: r.hosts,
      seconds,
      requests: r.requests,
      instances: r.instances,
      readSeconds: (readDone - t0) / 1000,
    };
  } finally {
    child.kill();
    await db.cleanup();
  }
}

export function printSync(b: SyncBench): void {
  console.log(
    `\nSync of a ${b.hosts.toLocaleString("en")}-host cloud (local server in the real cloud's answer shapes, ` +
      `${b.instances.toLocaleString("en")} servers, ${b.requests.toLocaleString("en")} GETs): ` +
      `${b.seconds.toFixed(1)} s (reading the APIs ${b.readSeconds.toFixed(1)} s, converting and writing ` +
      `${(b.seconds - b.readSeconds).toFixed(1)} s); goal < 60 s: ${b.seconds < 60 ? "met" : "NOT MET"}` +
      ` (load average ${os.loadavg()[0].toFixed(1)})`,
  );
}

if (process.argv[1] && /bench[\\/]sync\.ts$/.test(process.argv[1])) {
  benchSync(Number(process.argv[2] ?? 10000)).then(printSync, (e) => {
    console.error(e);
    process.exit(1);
  });
}
