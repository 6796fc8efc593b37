import type { FilterFactory } from '../plugin';
import { NovaError, pyInt } from '../python';

/**
 * ServerGroupAntiAffinityFilter: for an anti-affinity group, hosts already
 * running max_server_per_host members (rule, default 1) are out.
 */
export const ServerGroupAntiAffinityFilter: FilterFactory = () => ({
  name: 'ServerGroupAntiAffinityFilter',
  runOncePerRequest: false,
  check(host, spec) {
    const group = spec.instanceGroup;
    if (!group || group.policy !== 'anti-affinity') return null;
    if (host.instances.has(spec.instanceUuid)) return null;
    let members = 0;
    for (const u of host.instances) if (group.members.has(u)) members++;
    let max = 1;
    if ('max_server_per_host' in group.rules) {
      try {
        max = pyInt(group.rules.max_server_per_host);
      } catch (e) {
        throw new NovaError('ValueError', `server group ${group.name} rules.max_server_per_host: ${(e as Error).message}`);
      }
    }
    return members < max ? null : `already running ${members} of anti-affinity group ${group.name} (max ${max} per host)`;
  },
});
