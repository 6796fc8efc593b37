import { canonicalizeArch } from "../nova-fields";
import { parseVersionPredicate, versionIntToStr, versionSatisfies, type VersionPredicate } from "../image-meta";
import { defineFilter } from "../plugin";
import { NovaError, pyInt } from "../python";

/**
 * ImagePropertiesFilter: the image's architecture, hypervisor type and VM
 * mode must be among the host's supported_instances, and its
 * img_hv_requested_version satisfied by the hypervisor version.
 */
export const ImagePropertiesFilter = defineFilter({
  name: "ImagePropertiesFilter",
  doc: "Keeps hosts supporting the image's architecture, hypervisor type, VM mode and version.",
  reasons: {
    IMAGE_PROPS_MISMATCH: "not supporting the image's architecture, hypervisor or VM mode",
  },
  advice: {
    IMAGE_PROPS_MISMATCH:
      "No host supports the image's architecture, hypervisor type or VM mode (hw_architecture, img_hv_type, hw_vm_mode): pick an image built for this hardware, or add hosts that support it.",
  },
  reads: {
    imageProps: ["hw_architecture", "img_hv_type", "hw_vm_mode", "img_hv_requested_version"],
  },
  factory: (config) => {
    let wanted: string[] = [];
    let want = "";
    let versionRequired: string | null = null;
    let predicate: VersionPredicate | null = null;
    let bitsRequired = false;
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
        predicate = versionRequired
          ? parseVersionPredicate(versionRequired, config.release.pep440VersionPredicates)
          : null;
        const bits = config.release.maxphysaddrBitsChecks ? spec.newerImageProps.get("hw_maxphysaddr_bits") : undefined;
        bitsRequired = bits === undefined ? false : pyInt(bits) !== 0;
      },
      passesEveryHost: () => !wanted.length,
      check(host) {
        if (!wanted.length) return null;
        const supported = host.supportedInstances;
        if (!supported.length)
          return { code: "IMAGE_PROPS_MISMATCH", message: `no supported instance types (image needs ${want})` };
        for (const s of supported) {
          let all = true;
          for (let i = 0; i < wanted.length; i++) if (!s.includes(wanted[i])) all = false;
          if (all) {
            if (
              !host.hypervisorVersion ||
              !predicate ||
              versionSatisfies(predicate, versionIntToStr(host.hypervisorVersion))
            ) {
              // 2024.1's _compare_maxphysaddr_bits calls host_state.cpu_info.get(),
              // but HostState.cpu_info is ComputeNode's JSON text: Nova raises.
              if (bitsRequired) throw new NovaError("AttributeError", "'str' object has no attribute 'get'");
              return null;
            }
          }
        }
        const ver = versionRequired ? ` with hypervisor version ${versionRequired}` : "";
        return {
          code: "IMAGE_PROPS_MISMATCH",
          message: `image needs ${want}${ver}; host supports ${supported.map((s) => s.join("/")).join(", ")} (hypervisor ${versionIntToStr(host.hypervisorVersion)})`,
        };
      },
    };
  },
});
