/**
 * Reads for the /schedule and /runs pages and the runs API. Never selects the
 * large JSON columns (snapshot, result) unless asked: a 10,000-host run
 * stores tens of MB.
 */
import "server-only";
import { type SnapshotChoice, snapshotChoices } from "@/lib/history/as-of";
import type { PrismaClient } from "@/lib/db/client";
import { DEFAULT_ENABLED_FILTERS } from "@/lib/scheduler/config";
import type { ScheduleResult } from "@/lib/scheduler/result";
import type { ScenarioConfig, ScenarioRequest } from "@/lib/scheduler/scenario";
import type { CommittedInstance } from "./commit";
import { readRunColumn } from "./store";

export interface RunSummary {
  id: number;
  createdAt: Date;
  profileName: string | null;
  flavorName: string;
  numInstances: number;
  error: string | null;
  chosenHosts: string[];
  hostCount: number;
  engineMs: number | null;
  committedAt: Date | null;
  /** A move's operation (resize, migrate, live-migrate, evacuate, unshelve); null for a boot. */
  operation: string | null;
}

const SUMMARY = {
  id: true,
  createdAt: true,
  profileName: true,
  flavorName: true,
  numInstances: true,
  error: true,
  chosenHosts: true,
  hostCount: true,
  engineMs: true,
  committedAt: true,
  // small (a flavor and hints): read for a move's operation
  request: true,
} as const;

type SummaryRow = Omit<RunSummary, "chosenHosts" | "operation"> & { chosenHosts: string; request: string };

function summary({ request, ...r }: SummaryRow): RunSummary {
  const operation = (JSON.parse(request) as ScenarioRequest).operation ?? null;
  return { ...r, chosenHosts: JSON.parse(r.chosenHosts) as string[], operation };
}

/** Newest first; `before` = an id for the next page. */
export async function listRuns(
  db: PrismaClient,
  opts: { limit?: number; before?: number } = {},
): Promise<{ runs: RunSummary[]; total: number; nextBefore: number | null }> {
  const limit = opts.limit ?? 50;
  const [rows, total] = await Promise.all([
    db.schedulingRun.findMany({
      where: opts.before ? { id: { lt: opts.before } } : undefined,
      orderBy: { id: "desc" },
      take: limit + 1,
      select: SUMMARY,
    }),
    db.schedulingRun.count(),
  ]);
  const more = rows.length > limit;
  const runs = rows.slice(0, limit).map(summary);
  return { runs, total, nextBefore: more ? runs[runs.length - 1].id : null };
}

export interface RunRecord extends RunSummary {
  request: ScenarioRequest;
  config: ScenarioConfig;
  committedInstances: CommittedInstance[] | null;
}

/** A run's metadata, request and config (not the snapshot, not the result). */
export async function getRun(db: PrismaClient, id: number): Promise<RunRecord | null> {
  const r = await db.schedulingRun.findUnique({
    where: { id },
    select: { ...SUMMARY, request: true, config: true, committedInstances: true },
  });
  if (!r) return null;
  return {
    ...summary(r),
    request: JSON.parse(r.request) as ScenarioRequest,
    config: JSON.parse(r.config) as ScenarioConfig,
    committedInstances: r.committedInstances ? (JSON.parse(r.committedInstances) as CommittedInstance[]) : null,
  };
}

/**
 * The stored JSON text of one column (no parse). The result and the snapshot
 * are kept compactly (lib/runs/store.ts): this gives them back as the JSON
 * the engine's result and scenario serialize to.
 */
export async function getRunText(
  db: PrismaClient,
  id: number,
  column: "result" | "snapshot" | "request" | "config",
): Promise<string | null> {
  if (column === "result" || column === "snapshot") return readRunColumn(db, id, column);
  const r = await db.schedulingRun.findUnique({
    where: { id },
    select: { [column]: true } as Record<typeof column, true>,
  });
  return r ? ((r as Record<string, string>)[column] ?? null) : null;
}

export async function getRunResult(db: PrismaClient, id: number): Promise<ScheduleResult | null> {
  const text = await getRunText(db, id, "result");
  return text === null ? null : (JSON.parse(text) as ScheduleResult);
}

// ---------------------------------------------------------------------------
// The form's choices

export interface FlavorOption {
  name: string;
  vcpus: number;
  memoryMb: number;
  diskGb: number;
  extraSpecs: Record<string, string>;
}

export interface ScheduleFormOptions {
  flavors: FlavorOption[];
  images: Array<{ uuid: string; name: string | null; arch: string | null }>;
  availabilityZones: string[];
  projects: string[];
  serverGroups: Array<{ uuid: string; name: string; policy: string; members: number }>;
  profiles: Array<{ name: string; active: boolean; description: string | null; enabledFilters: string[] }>;
  hostCount: number;
  /** the history's snapshots a trial can run "as of", newest first */
  snapshots: SnapshotChoice[];
}

export async function scheduleFormOptions(db: PrismaClient): Promise<ScheduleFormOptions> {
  const [flavors, images, azs, projects, groups, profiles, hostCount, snapshots] = await Promise.all([
    db.flavor.findMany({ orderBy: { name: "asc" }, include: { extraSpecs: { orderBy: { key: "asc" } } } }),
    db.image.findMany({
      orderBy: [{ name: "asc" }, { id: "asc" }],
      include: { properties: { where: { key: "hw_architecture" } } },
    }),
    db.aggregate.findMany({
      where: { availabilityZone: { not: null } },
      distinct: ["availabilityZone"],
      select: { availabilityZone: true },
      orderBy: { availabilityZone: "asc" },
    }),
    db.$queryRawUnsafe<Array<{ p: string }>>(
      `SELECT "projectId" AS p FROM "Instance" WHERE "projectId" IS NOT NULL
       UNION SELECT "projectId" FROM "ServerGroup" WHERE "projectId" IS NOT NULL
       UNION SELECT "value" FROM "AggregateMetadata" WHERE "key" = 'filter_tenant_id'
       ORDER BY 1 LIMIT 500`,
    ),
    db.serverGroup.findMany({
      orderBy: [{ position: "asc" }, { id: "asc" }],
      select: { uuid: true, name: true, policy: true, _count: { select: { members: true } } },
    }),
    db.schedulerProfile.findMany({
      orderBy: [{ active: "desc" }, { name: "asc" }],
      select: { name: true, active: true, description: true, config: true },
    }),
    db.computeHost.count(),
    snapshotChoices(db),
  ]);
  return {
    snapshots,
    flavors: flavors.map((f) => ({
      name: f.name,
      vcpus: f.vcpus,
      memoryMb: f.memoryMb,
      diskGb: f.rootGb + f.ephemeralGb,
      extraSpecs: Object.fromEntries(f.extraSpecs.map((s) => [s.key, s.value])),
    })),
    images: images.map((i) => ({ uuid: i.uuid, name: i.name, arch: i.properties[0]?.value ?? null })),
    availabilityZones: azs.map((a) => a.availabilityZone!).filter(Boolean),
    projects: [
      ...new Set(
        projects
          .flatMap((p) =>
            String(p.p)
              .split(",")
              .map((s) => s.trim()),
          )
          .filter(Boolean),
      ),
    ],
    serverGroups: groups.map((g) => ({ uuid: g.uuid, name: g.name, policy: g.policy, members: g._count.members })),
    profiles: profiles.map((p) => {
      let enabledFilters: string[] = [];
      try {
        const cfg = JSON.parse(p.config) as ScenarioConfig;
        enabledFilters = cfg.enabled_filters ?? DEFAULT_ENABLED_FILTERS;
      } catch {
        // a broken profile still shows; the run will say what is wrong
      }
      return { name: p.name, active: p.active, description: p.description, enabledFilters };
    }),
    hostCount,
  };
}
