/**
 * Rules of scheduler profiles, called by the server actions inside their
 * transaction (and by tests): unique names, what a new profile starts from,
 * the active profile cannot be deleted, and one active profile at a time.
 */
import "server-only";
import { existing, MutationError } from "@/lib/actions/mutation";
import type { Tx } from "@/lib/db/client";
import { DEFAULT_ENABLED_FILTERS } from "@/lib/scheduler";

/** Profile names are unique. */
export async function assertProfileNameFree(tx: Tx, name: string): Promise<void> {
  if (await tx.schedulerProfile.findUnique({ where: { name }, select: { id: true } })) {
    throw new MutationError("name", `name: a profile named "${name}" already exists`);
  }
}

/** A new profile's config and description: a copy of profile `copyFrom`, or Nova's defaults (on Placement, as every Nova since Stein). */
export async function newProfileContent(
  tx: Tx,
  copyFrom: string | null | undefined,
  description: string | null | undefined,
): Promise<{ config: string; description: string | null | undefined }> {
  if (!copyFrom) {
    return {
      config: JSON.stringify({ placement: true, enabled_filters: DEFAULT_ENABLED_FILTERS, weighers: "all" }),
      description,
    };
  }
  const src = await tx.schedulerProfile.findUnique({ where: { name: copyFrom } });
  if (!src) throw new MutationError("copy_from", `copy_from: no profile is named "${copyFrom}"`);
  return { config: src.config, description: description ?? `Copy of ${src.name}` };
}

/** The active profile is what new runs use: another one must be activated before it can go. */
export function assertProfileDeletable(p: { name: string; active: boolean }): void {
  if (p.active)
    throw new MutationError(null, `profile ${p.name} is the active one; activate another profile before deleting it`);
}

/**
 * Make profile `ref` the only active one. The partial unique index
 * "SchedulerProfile_single_active" forbids two active rows at any moment, so
 * the others are deactivated before it is activated, in the caller's
 * transaction. A profile deleted meanwhile is refused (MutationError).
 */
export async function setActiveProfile(
  tx: Tx,
  ref: { id: number } | { name: string },
): Promise<{ id: number; name: string }> {
  const p = existing(await tx.schedulerProfile.findUnique({ where: ref, select: { id: true, name: true } }), "profile");
  await tx.schedulerProfile.updateMany({ where: { active: true, NOT: { id: p.id } }, data: { active: false } });
  await tx.schedulerProfile.update({ where: { id: p.id }, data: { active: true } });
  return p;
}
