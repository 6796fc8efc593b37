import type { AggregateView } from "../host-state";
import { PerAggregateView } from "../per-view";
import { defineFilter, type Reason } from "../plugin";

/**
 * AggregateMultiTenancyIsolation: aggregates with filter_tenant_id accept
 * only those projects (values split on ','). From 2024.2 every key starting
 * with filter_tenant_id counts (3cd26b0a08, "AggregateMultitenancyIsolation
 * to support unlimited tenant"); before, only the key itself.
 */
export const AggregateMultiTenancyIsolation = defineFilter({
  name: "AggregateMultiTenancyIsolation",
  doc: "Aggregate metadata filter_tenant_id: only those projects on its hosts.",
  reasons: {
    TENANT_NOT_ALLOWED: "in aggregates reserved for other projects",
  },
  reads: {
    metadata: [
      {
        key: "filter_tenant_id",
        meaning: "only these projects may boot on the aggregate's hosts",
        valueHint: "project ids, comma separated",
        value: { kind: "list", of: "project id" },
      },
    ],
  },
  factory: (config) => {
    const prefixes = config.release.tenantIdKeyPrefixes;
    let project = "";
    const byView = new PerAggregateView((view: AggregateView): Reason<"TENANT_NOT_ALLOWED"> | null => {
      let tenants: Set<string> | undefined;
      if (prefixes) {
        for (const [key, values] of view.split) {
          if (!key.startsWith("filter_tenant_id")) continue;
          tenants ??= new Set();
          for (const v of values) tenants.add(v);
        }
      } else tenants = view.split.get("filter_tenant_id");
      if (!tenants?.size || tenants.has(project)) return null;
      return {
        code: "TENANT_NOT_ALLOWED",
        message: `project ${project} not in aggregate filter_tenant_id=${[...tenants].join(",")}`,
      };
    });
    return {
      name: "AggregateMultiTenancyIsolation",
      runOncePerRequest: true,
      prepare(spec) {
        byView.reset();
        project = spec.projectId;
      },
      check(host) {
        return byView.get(host.aggregates);
      },
    };
  },
});
