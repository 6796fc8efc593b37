import type { FilterFactory } from '../plugin';
import { getSchedulerHint } from '../request-spec';

/** DifferentHostFilter: avoid hosts running any instance in the different_host hint. */
export const DifferentHostFilter: FilterFactory = () => {
  let uuids: string[] = [];
  return {
    name: 'DifferentHostFilter',
    runOncePerRequest: true,
    prepare(spec) {
      const hint = getSchedulerHint(spec, 'different_host');
      uuids = !hint ? [] : typeof hint === 'string' ? [hint] : hint;
    },
    check(host) {
      for (const u of uuids) if (host.instances.has(u)) return `running instance ${u} (different_host hint)`;
      return null;
    },
  };
};
