/**
 * A nova.conf read into a scheduler profile (created or replaced; the active
 * flag is left as it is). Takes the transaction first, like every write.
 */
import type { Tx } from "@/lib/cloud/scenario-io";
import type { Db } from "@/lib/db/client";
import { exportNovaConf, type NovaConfImport } from "./nova-conf";

export async function saveNovaConfProfile(
  tx: Tx,
  name: string,
  parsed: Pick<NovaConfImport, "config" | "unknown" | "notModelled">,
): Promise<{ name: string; created: boolean }> {
  const config = JSON.stringify(parsed.config);
  const ignored = [...parsed.unknown, ...parsed.notModelled];
  const description = `Imported from nova.conf${ignored.length ? ` (not taken: ${ignored.join(", ")})` : ""}`.slice(
    0,
    500,
  );
  const existing = await tx.schedulerProfile.findUnique({ where: { name }, select: { id: true } });
  if (existing) await tx.schedulerProfile.update({ where: { name }, data: { config, description } });
  else await tx.schedulerProfile.create({ data: { name, config, description, active: false } });
  return { name, created: !existing };
}

/** A stored profile as a nova.conf fragment (null: no such profile). */
export async function profileNovaConf(db: Db, name: string): Promise<string | null> {
  const row = await db.schedulerProfile.findUnique({ where: { name }, select: { name: true, config: true } });
  if (!row) return null;
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(row.config);
  } catch {
    config = {};
  }
  return exportNovaConf(config, row.name);
}
