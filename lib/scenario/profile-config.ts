/**
 * Scheduler profile configs: the former `placement_prefilters` list becomes
 * Nova's own Placement path (`placement: true`) with the [scheduler] options
 * that select the same request filters. The same mapping as the SQL data
 * migration prisma/migrations/*_numa_pci_placement, for documents imported
 * later. Pure: no Prisma, no Next.js.
 */
import { LEGACY_PLACEMENT_PREFILTERS } from "./schema";

export function migrateProfileConfig<T extends Record<string, unknown>>(config: T): T {
  const list = config.placement_prefilters;
  if (list === undefined) return config;
  const { placement_prefilters: _dropped, ...rest } = config as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (Array.isArray(list)) {
    const has = (name: string) => list.includes(name);
    if (has("tenant_aggregates")) out.limit_tenants_to_placement_aggregate = true;
    if (LEGACY_PLACEMENT_PREFILTERS.some(has)) {
      out.placement = true;
      // Zed's default is true: a list without availability_zone meant "off"
      out.query_placement_for_availability_zone = has("availability_zone");
    }
  }
  return out as T;
}
