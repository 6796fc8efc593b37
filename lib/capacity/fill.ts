/**
 * Capacity fills against today's cloud: the form validated, the cloud and
 * profile loaded in one read transaction, the engine's CapacityFill run in
 * slices so the caller can report progress, and the outcome summarised for
 * the page. Nothing is written: the fill works on host states in memory.
 */
import { FLAVOR_SPECS, flavorFromDb, scenarioFlavor } from "@/lib/cloud/scenario-io";
import { ProfileNotFoundError, loadSnapshot } from "@/lib/cloud/snapshot";
import { loadSnapshotAsOf, type SnapshotChoice, snapshotChoices } from "@/lib/history/as-of";
import { SnapshotNotFoundError } from "@/lib/history/store";
import type { Db } from "@/lib/db/client";
import { CapacityFill, hostAvailabilityZone, type FillResult } from "@/lib/scheduler/fill";
import { toResult } from "@/lib/scheduler/result";
import type { Scenario, ScenarioConfig, ScenarioFlavor } from "@/lib/scheduler/scenario";
import { compareWorkload, type WorkloadOutcome } from "./ab";
import { fragmentation, type Fragmentation } from "./fragmentation";
import { DEFAULT_FILL_LIMIT, type CapacityCompare, type CapacityForm } from "./schemas";

export class CapacityInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The flavors of the form's mix, in its order; an unknown one names its row. */
async function mixFlavors(db: Db, mix: CapacityForm["mix"]): Promise<ScenarioFlavor[]> {
  const flavors: ScenarioFlavor[] = [];
  for (const [i, m] of mix.entries()) {
    const f = await flavorFromDb(db, m.flavor);
    if (!f) throw new CapacityInputError(`mix.${i}.flavor`, `flavor: unknown flavor "${m.flavor}"`);
    flavors.push(f);
  }
  return flavors;
}

/** Today's cloud under the named profile (the active one when none is named). */
async function profileSnapshot(db: Db, profile: CapacityForm["profile"], asOf?: number) {
  try {
    // "as of" an older snapshot: that moment's cloud under today's profile
    if (asOf !== undefined) return await loadSnapshotAsOf(db, asOf, { profileName: profile });
    return await loadSnapshot(db, { profileName: profile });
  } catch (e) {
    if (e instanceof ProfileNotFoundError)
      throw new CapacityInputError("profile", `profile: scheduler profile "${e.profileName}" does not exist`);
    if (e instanceof SnapshotNotFoundError) throw new CapacityInputError("asOf", `asOf: ${e.message}`);
    throw e;
  }
}

/** Load the cloud and the flavors; the fill is ready to step. Throws CapacityInputError. */
export async function prepareFill(
  db: Db,
  form: CapacityForm,
): Promise<{ fill: CapacityFill; profileName: string | null; hostCount: number }> {
  const flavors = await mixFlavors(db, form.mix);
  const snap = await profileSnapshot(db, form.profile, form.asOf);
  const scenario: Scenario = { ...snap.scenario, request: { flavor: flavors[0], num_instances: 1 } };
  const fill = new CapacityFill(scenario, {
    limit: form.limit,
    mix: flavors.map((flavor, i) => ({ flavor, share: form.mix[i].share })),
  });
  return { fill, profileName: snap.profileName, hostCount: snap.scenario.hosts.length };
}

export interface CapacitySummary {
  flavor: string;
  profileName: string | null;
  hostCount: number;
  count: number;
  limit: number;
  perFlavor: Array<{ flavor: string; count: number }>;
  /** One row per AZ: boots per flavor (the stacked chart). */
  perAz: Array<{ az: string; total: number; byFlavor: Record<string, number> }>;
  perCell: Array<{ cell: string; count: number }>;
  perAggregate: Array<{ aggregate: string; count: number }>;
  /** Hosts that took boots, most first (at most 200). */
  perHost: Array<{ host: string; count: number }>;
  hostsUsed: number;
  stopped: null | {
    flavor: string | null;
    error: string;
    message: string | null;
    summary: string | null;
    lastFilter: string | null;
    funnel: Array<{ filter: string; in: number; out: number; reasons: Array<{ reason: string; hosts: number }> }>;
  };
  fragmentation: Fragmentation;
  engineMs: number;
}

function sorted(m: Map<string, number>): Array<[string, number]> {
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

export function summarize(
  r: FillResult,
  meta: { profileName: string | null; hostCount: number; flavors: ScenarioFlavor[] },
): CapacitySummary {
  const azTotals: CapacitySummary["perAz"] = [...r.perAz]
    .map(([az, byFlavor]) => ({
      az,
      total: [...byFlavor.values()].reduce((a, b) => a + b, 0),
      byFlavor: Object.fromEntries(byFlavor),
    }))
    .sort((a, b) => (a.az < b.az ? -1 : 1));
  // AZs that took nothing show too: the chart says where capacity is not.
  const seen = new Set(azTotals.map((a) => a.az));
  for (const h of r.hosts) {
    const az = hostAvailabilityZone(h, r.config);
    if (!seen.has(az)) {
      seen.add(az);
      azTotals.push({ az, total: 0, byFlavor: {} });
    }
  }
  azTotals.sort((a, b) => (a.az < b.az ? -1 : 1));
  let stopped: CapacitySummary["stopped"] = null;
  if (r.stoppedBy) {
    const doc = toResult(r.stoppedBy);
    const last = doc.requests[doc.requests.length - 1];
    stopped = {
      flavor: r.stoppedFlavor,
      error: doc.error ?? "NoValidHost",
      message: doc.message ?? null,
      summary: doc.diagnosis?.summary ?? null,
      lastFilter: doc.diagnosis?.lastFilter ?? null,
      funnel: (last?.funnel ?? []).map((s) => {
        const counts = new Map<string, number>();
        for (const reason of s.reasons ?? []) counts.set(reason, (counts.get(reason) ?? 0) + 1);
        return {
          filter: s.filter,
          in: s.in,
          out: s.out,
          reasons: sorted(counts)
            .slice(0, 5)
            .map(([reason, hosts]) => ({ reason, hosts })),
        };
      }),
    };
  }
  return {
    flavor: r.flavor,
    profileName: meta.profileName,
    hostCount: meta.hostCount,
    count: r.count,
    limit: r.limit,
    perFlavor: [...r.perFlavor].map(([flavor, count]) => ({ flavor, count })),
    perAz: azTotals,
    perCell: sorted(r.perCell).map(([cell, count]) => ({ cell, count })),
    perAggregate: sorted(r.perAggregate).map(([aggregate, count]) => ({ aggregate, count })),
    perHost: sorted(r.perHost)
      .slice(0, 200)
      .map(([host, count]) => ({ host, count })),
    hostsUsed: r.perHost.size,
    stopped,
    fragmentation: fragmentation(r, meta.flavors),
    engineMs: r.engineMs,
  };
}

/** Today's instances per flavor: the proportions of a "today's mix" fill. */
export async function instanceMix(db: Db): Promise<Array<{ flavor: string; instances: number }>> {
  const rows = await db.instance.groupBy({
    by: ["flavorId"],
    _count: { _all: true },
    where: { flavorId: { not: null } },
  });
  const flavors = await db.flavor.findMany({ select: { id: true, name: true } });
  const name = new Map(flavors.map((f) => [f.id, f.name]));
  return rows
    .map((r) => ({ flavor: name.get(r.flavorId!) ?? "", instances: r._count._all }))
    .filter((r) => r.flavor)
    .sort((a, b) => b.instances - a.instances || (a.flavor < b.flavor ? -1 : 1));
}

/** Every flavor of the cloud, for the form and for fragmentation. */
export async function allFlavors(db: Db): Promise<ScenarioFlavor[]> {
  const rows = await db.flavor.findMany({ orderBy: { name: "asc" }, include: FLAVOR_SPECS });
  return rows.map(scenarioFlavor);
}

/**
 * Run a prepared fill, yielding progress between slices so the server can
 * stream it (and other requests get the event loop), then the summary.
 */
export async function* runFill(
  prepared: Awaited<ReturnType<typeof prepareFill>>,
  flavors: ScenarioFlavor[],
  slice = 250,
): AsyncGenerator<{ placed: number; limit: number } | { summary: CapacitySummary }> {
  const { fill } = prepared;
  while (!fill.step(slice)) {
    yield { placed: fill.counts.count, limit: fill.limit };
    await new Promise((resolve) => setImmediate(resolve));
  }
  yield { placed: fill.counts.count, limit: fill.limit };
  yield {
    summary: summarize(fill.result(), { profileName: prepared.profileName, hostCount: prepared.hostCount, flavors }),
  };
}

/** What the /capacity form offers: flavors, profiles, today's instance mix. */
export interface CapacityOptions {
  flavors: Array<{ name: string; vcpus: number; memory_mb: number }>;
  profiles: Array<{ name: string; active: boolean }>;
  todayMix: Array<{ flavor: string; instances: number }>;
  hostCount: number;
  defaultFlavor: string;
  defaultLimit: number;
  /** the history's snapshots a fill can run "as of", newest first */
  snapshots: SnapshotChoice[];
}

export async function capacityOptions(db: Db): Promise<CapacityOptions> {
  const [flavors, profiles, todayMix, hostCount, snapshots] = await Promise.all([
    db.flavor.findMany({ orderBy: { name: "asc" }, select: { name: true, vcpus: true, memoryMb: true } }),
    db.schedulerProfile.findMany({
      orderBy: [{ active: "desc" }, { name: "asc" }],
      select: { name: true, active: true },
    }),
    instanceMix(db),
    db.computeHost.count(),
    snapshotChoices(db),
  ]);
  return {
    flavors: flavors.map((f) => ({ name: f.name, vcpus: f.vcpus, memory_mb: f.memoryMb })),
    profiles,
    todayMix,
    hostCount,
    defaultFlavor: flavors.find((f) => f.name === "m1.large")?.name ?? flavors[0]?.name ?? "",
    defaultLimit: DEFAULT_FILL_LIMIT,
    snapshots,
  };
}

/** A/B over a workload: the form's mix and limit under two profiles, on copies of today's cloud. */
export async function compareProfiles(db: Db, form: CapacityCompare): Promise<[WorkloadOutcome, WorkloadOutcome]> {
  const flavors = await mixFlavors(db, form.mix);
  const profileB = await db.schedulerProfile.findUnique({ where: { name: form.profileB }, select: { config: true } });
  if (!profileB)
    throw new CapacityInputError("profileB", `profileB: scheduler profile "${form.profileB}" does not exist`);
  const snap = await profileSnapshot(db, form.profile, form.asOf);
  const mix = flavors.map((flavor, i) => ({ flavor, share: form.mix[i].share }));
  return compareWorkload(
    snap.scenario,
    { label: form.profile, config: snap.scenario.config },
    { label: form.profileB, config: JSON.parse(profileB.config) as ScenarioConfig },
    mix,
    form.limit,
    await allFlavors(db),
  );
}
