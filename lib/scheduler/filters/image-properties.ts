import { canonicalizeArch } from "../nova-fields";
import {
  parseStrictVersion,
  parseVersionPredicate,
  versionIntToStr,
  versionSatisfies,
  type VersionPredicate,
} from "../image-meta";
import type { FilterFactory } from "../plugin";

/**
 * ImagePropertiesFilter: the image's architecture, hypervisor type and VM
 * mode must be among the host's supported_instances, and its
 * img_hv_requested_version satisfied by the hypervisor version.
 */
export const ImagePropertiesFilter: FilterFactory = (config) => {
  let wanted: string[] = [];
  let want = "";
  let versionRequired: string | null = null;
  let predicate: VersionPredicate | null = null;
  return {
    name: "ImagePropertiesFilter",
    runOncePerRequest: true,
    prepare(spec) {
      const p = spec.imageProps;
      const arch = p.has("hw_architecture")
        ? (p.get("hw_architecture") as string)
        : config.imagePropertiesDefaultArchitecture;
      // Only the properties the image sets are compared (Nova skips falsy ones).
      wanted = [canonicalizeArch(arch), p.get("img_hv_type") as string, p.get("hw_vm_mode") as string].filter(
        Boolean,
      ) as string[];
      want = wanted.join("/");
      const v = p.get("img_hv_requested_version");
      versionRequired = typeof v === "string" && v ? v : null;
      // Valid by now: ImageMetaProps already rejected a bad predicate.
      predicate = versionRequired ? parseVersionPredicate(versionRequired) : null;
    },
    check(host) {
      if (!wanted.length) return null;
      const supported = host.supportedInstances;
      if (!supported.length) return `no supported instance types (image needs ${want})`;
      for (const s of supported) {
        let all = true;
        for (let i = 0; i < wanted.length; i++) if (!s.includes(wanted[i])) all = false;
        if (all) {
          if (!host.hypervisorVersion || !predicate) return null;
          if (versionSatisfies(predicate, parseStrictVersion(versionIntToStr(host.hypervisorVersion)))) return null;
        }
      }
      const ver = versionRequired ? ` with hypervisor version ${versionRequired}` : "";
      return `image needs ${want}${ver}; host supports ${supported.map((s) => s.join("/")).join(", ")} (hypervisor ${versionIntToStr(host.hypervisorVersion)})`;
    },
  };
};
