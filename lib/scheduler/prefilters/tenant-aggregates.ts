import type { PrefilterFactory } from "../plugin";
import { pyStrip } from "../python";

/**
 * require_tenant_aggregate: when aggregates name the project in a
 * filter_tenant_id* key, only hosts of those aggregates are candidates;
 * a project no aggregate names may land anywhere.
 */
export const TenantAggregatesPrefilter: PrefilterFactory = () => {
  let restricted = false;
  const namesTenant = (raw: Map<string, Set<string>>, project: string) => {
    for (const [k, vals] of raw) {
      if (!k.startsWith("filter_tenant_id")) continue;
      for (const v of vals) if (v.split(",").some((x) => pyStrip(x) === project)) return true;
    }
    return false;
  };
  return {
    name: "tenant_aggregates",
    prepare(spec, hosts) {
      restricted = hosts.some((h) => namesTenant(h.aggregates.raw, spec.projectId));
    },
    check(host, spec) {
      if (!restricted || namesTenant(host.aggregates.raw, spec.projectId)) return null;
      return `not in an aggregate reserved for project ${spec.projectId}`;
    },
  };
};
