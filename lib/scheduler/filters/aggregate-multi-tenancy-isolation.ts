import type { FilterFactory } from "../plugin";

/** AggregateMultiTenancyIsolation: aggregates with filter_tenant_id accept only those projects. */
export const AggregateMultiTenancyIsolation: FilterFactory = () => ({
  name: "AggregateMultiTenancyIsolation",
  runOncePerRequest: true,
  check(host, spec) {
    const tenants = host.aggregates.split.get("filter_tenant_id");
    if (!tenants?.size) return null;
    return tenants.has(spec.projectId)
      ? null
      : `project ${spec.projectId} not in aggregate filter_tenant_id=${[...tenants].join(",")}`;
  },
});
