import { canonicalizeArch } from '../nova-fields';
import { parseStrictVersion, parseVersionPredicate, versionIntToStr, versionSatisfies } from '../image-meta';
import type { FilterFactory } from '../plugin';

/**
 * ImagePropertiesFilter: the image's architecture, hypervisor type and VM
 * mode must be among the host's supported_instances, and its
 * img_hv_requested_version satisfied by the hypervisor version.
 */
export const ImagePropertiesFilter: FilterFactory = (config) => {
  let wanted: [string | null, string | null, string | null] = [null, null, null];
  let versionRequired: string | null = null;
  return {
    name: 'ImagePropertiesFilter',
    runOncePerRequest: true,
    prepare(spec) {
      const p = spec.imageProps;
      const arch = p.has('hw_architecture') ? (p.get('hw_architecture') as string) : config.imagePropertiesDefaultArchitecture;
      wanted = [canonicalizeArch(arch), (p.get('img_hv_type') as string) ?? null, (p.get('hw_vm_mode') as string) ?? null];
      const v = p.get('img_hv_requested_version');
      versionRequired = typeof v === 'string' && v ? v : null;
    },
    check(host) {
      if (!wanted[0] && !wanted[1] && !wanted[2]) return null;
      const supported = host.supportedInstances;
      const want = wanted.filter(Boolean).join('/');
      if (!supported.length) return `no supported instance types (image needs ${want})`;
      for (const s of supported) {
        if (wanted.every((w) => !w || s.includes(w))) {
          if (!host.hypervisorVersion || !versionRequired) return null;
          const pred = parseVersionPredicate(versionRequired);
          if (versionSatisfies(pred, parseStrictVersion(versionIntToStr(host.hypervisorVersion)))) return null;
        }
      }
      const ver = versionRequired ? ` with hypervisor version ${versionRequired}` : '';
      return `image needs ${want}${ver}; host supports ${supported.map((s) => s.join('/')).join(', ')} (hypervisor ${versionIntToStr(host.hypervisorVersion)})`;
    },
  };
};
