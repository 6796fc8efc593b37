import type { NextRequest } from "next/server";
import { allFlavors } from "@/lib/capacity/fill";
import { loadSnapshot, ProfileNotFoundError } from "@/lib/cloud/snapshot";
import { requireRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { historyCloudAsOf } from "@/lib/nova-logs/as-of";
import { ExplainInputError, explainUpload } from "@/lib/nova-logs/upload";

export const dynamic = "force-dynamic";

/**
 * POST /api/explain (multipart/form-data): logs=FILE... [mode=explain|period]
 * [profile=NAME] [nova_release=R]. Streams JSON lines (lib/nova-logs/upload.ts).
 * Reads the cloud, writes nothing: any signed-in role; checked before any work.
 */
export async function POST(req: NextRequest) {
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  return explainUpload(req, {
    async loadCloud(profile) {
      try {
        const snap = await loadSnapshot(prisma, profile ? { profileName: profile } : {});
        const flavors = await allFlavors(prisma);
        return {
          scenario: snap.scenario,
          flavors,
          label: snap.profileName ? `the current cloud, profile ${snap.profileName}` : "the current cloud",
        };
      } catch (e) {
        if (e instanceof ProfileNotFoundError)
          throw new ExplainInputError("profile", `profile: scheduler profile "${e.profileName}" does not exist`);
        throw e;
      }
    },
    // each call on the snapshot in force at its time (the current cloud before the history starts)
    cloudAsOf: (calls, current) =>
      historyCloudAsOf(prisma, calls, { scenario: current.scenario, label: current.label }),
  });
}
