/** Scheduler profiles (their config parsed), and the active one. */
import "server-only";
import type { Db } from "@/lib/db/client";
import type { ScenarioConfig } from "@/lib/scheduler/scenario";

export type ProfileRow = {
  id: number;
  name: string;
  description: string | null;
  active: boolean;
  config: ScenarioConfig & Record<string, unknown>;
  /** why the stored config could not be read ({} is used instead); null = fine */
  configError: string | null;
  updatedAt: Date;
  /** optimistic concurrency: forms send it back (lib/audit/trail.ts) */
  version: number;
};

function profileRow(p: {
  id: number;
  name: string;
  description: string | null;
  active: boolean;
  config: string;
  updatedAt: Date;
  version: number;
}): ProfileRow {
  let config: ProfileRow["config"] = {};
  let configError: string | null = null;
  try {
    const v = JSON.parse(p.config);
    if (v && typeof v === "object" && !Array.isArray(v)) config = v;
    else configError = "config is not a JSON object";
  } catch (e) {
    configError = `config is not valid JSON (${(e as Error).message})`;
  }
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    active: p.active,
    config,
    configError,
    version: p.version,
    updatedAt: p.updatedAt,
  };
}

/** Profiles by name. */
export async function listProfiles(db: Db): Promise<ProfileRow[]> {
  return (await db.schedulerProfile.findMany({ orderBy: [{ name: "asc" }] })).map(profileRow);
}

export async function getActiveProfile(db: Db): Promise<ProfileRow | null> {
  const p = await db.schedulerProfile.findFirst({ where: { active: true } });
  return p ? profileRow(p) : null;
}

/** The active profile's default_availability_zone (Nova default "nova"). */
export async function defaultAvailabilityZone(db: Db): Promise<string> {
  const az = (await getActiveProfile(db))?.config.default_availability_zone;
  return typeof az === "string" && az ? az : "nova";
}
