import type { FilterFactory } from '../plugin';
import { pyStrip } from '../python';

/** AggregateTypeAffinityFilter: aggregates with instance_type metadata accept only those flavors. */
export const AggregateTypeAffinityFilter: FilterFactory = () => ({
  name: 'AggregateTypeAffinityFilter',
  runOncePerRequest: true,
  check(host, spec) {
    const vals = host.aggregates.raw.get('instance_type');
    if (!vals || !vals.size) return null;
    for (const v of vals) {
      if (v.split(',').some((x) => pyStrip(x) === spec.flavor.name)) return null;
    }
    return `flavor ${spec.flavor.name} not in aggregate instance_type=${[...vals].join(';')}`;
  },
});
