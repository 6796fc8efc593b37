import { defineFilter, fixedReason } from "../plugin";

const NO_ISOLATED_IMAGES = fixedReason("ISOLATED_HOST", "isolated host, and no image is isolated");
const REFUSES_IMAGE = fixedReason("ISOLATED_HOST", "isolated host refuses a non-isolated image");
const NEEDS_ISOLATED_HOST = fixedReason("ISOLATED_IMAGE", "isolated image needs an isolated host");

/** What an operator changes so a host passes. */
const ISOLATED =
  "Isolated hosts only take isolated images (and other images avoid them): adjust isolated_hosts / isolated_images in the profile, or use another image.";

/** IsolatedHostsFilter: isolated images only on isolated hosts (and, if restricted, vice versa). */
export const IsolatedHostsFilter = defineFilter({
  name: "IsolatedHostsFilter",
  doc: "isolated_hosts run only isolated_images (and vice versa).",
  reasons: {
    ISOLATED_HOST: "isolated hosts (the image is not isolated)",
    ISOLATED_IMAGE: "not isolated (the image needs an isolated host)",
  },
  advice: {
    ISOLATED_HOST: ISOLATED,
    ISOLATED_IMAGE: ISOLATED,
  },
  reads: {
    options: ["isolated_hosts", "isolated_images", "restrict_isolated_hosts_to_isolated_images"],
  },
  factory: (config) => {
    const hosts = new Set(config.isolatedHosts);
    const images = new Set(config.isolatedImages);
    const restrict = config.restrictIsolatedHostsToIsolatedImages;
    return {
      name: "IsolatedHostsFilter",
      runOncePerRequest: true,
      check(host, spec) {
        const hostIsolated = hosts.has(host.host);
        if (!images.size) {
          return !restrict || !hostIsolated ? null : NO_ISOLATED_IMAGES;
        }
        const imageIsolated = images.has(spec.imageId);
        if (restrict) {
          if (imageIsolated === hostIsolated) return null;
          return hostIsolated ? REFUSES_IMAGE : NEEDS_ISOLATED_HOST;
        }
        return !imageIsolated || hostIsolated ? null : NEEDS_ISOLATED_HOST;
      },
    };
  },
});
