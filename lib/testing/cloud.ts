/**
 * Helpers for the lib/cloud integration tests: the Nova reference, row
 * counts of every cloud table.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "@/lib/db/client";

/** The Nova reference, beside the project: `../shared/nova-reference` from its root. */
export const NOVA_REFERENCE_DIR = path.resolve(process.cwd(), "..", "shared", "nova-reference");
export const NOVA_REFERENCE = path.join(NOVA_REFERENCE_DIR, "nova_reference.py");
export const EXAMPLES_DIR = path.join(NOVA_REFERENCE_DIR, "examples");
export const PYTHON = "/usr/bin/python3";

/** Throws a clear message unless Debian's python3 can import Nova (python3-nova). */
export function assertNovaReferenceAvailable(): void {
  if (!fs.existsSync(NOVA_REFERENCE)) {
    throw new Error(`the Nova reference is missing: ${NOVA_REFERENCE} (see ../shared/nova-reference/SCENARIO.md)`);
  }
  const r = spawnSync(PYTHON, ["-c", "import nova.scheduler.filters, nova.scheduler.weights"], { encoding: "utf8" });
  if (r.error || r.status !== 0) {
    throw new Error(
      `${PYTHON} cannot import nova (${r.error?.message ?? r.stderr.trim().split("\n").pop()}): ` +
        "install it with `apt-get install -y --no-install-recommends python3-nova` (about 45 s)",
    );
  }
}

/** Run the Nova reference on a scenario object; the result without timing. */
export function runNovaReference(scenario: unknown, extraArgs: string[] = []): Record<string, unknown> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-ref-"));
  try {
    const file = path.join(dir, "scenario.json");
    fs.writeFileSync(file, JSON.stringify(scenario));
    const out = execFileSync(PYTHON, [NOVA_REFERENCE, ...extraArgs, file], { encoding: "utf8", maxBuffer: 1 << 30 });
    const result = JSON.parse(out) as Record<string, unknown>;
    delete result.timing;
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function exampleFiles(): string[] {
  return fs
    .readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".scenario.json"))
    .sort();
}

export function readExample(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), "utf8"));
}

export const CLOUD_TABLES = [
  "Cell",
  "ComputeHost",
  "HostMetric",
  "HostTrait",
  "Aggregate",
  "AggregateHost",
  "AggregateMetadata",
  "Flavor",
  "FlavorExtraSpec",
  "Image",
  "ImageProperty",
  "ServerGroup",
  "Instance",
  "SchedulerProfile",
  "SchedulingRun",
] as const;

/** Row count of every table (to prove that a failed operation changed nothing). */
export async function tableCounts(prisma: PrismaClient): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of CLOUD_TABLES) {
    const rows = await prisma.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT count(*) AS n FROM "${t}"`);
    out[t] = Number(rows[0].n);
  }
  return out;
}

/** A content fingerprint of every table (ids and values), for "unchanged" checks. */
export async function tableFingerprint(prisma: PrismaClient): Promise<string> {
  const parts: string[] = [];
  for (const t of CLOUD_TABLES) {
    const rows = await prisma.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${t}" ORDER BY "id"`);
    parts.push(`${t}:${JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? Number(v) : v))}`);
  }
  return parts.join("\n");
}
