import type { FilterFactory } from "../plugin";

/** IsolatedHostsFilter: isolated images only on isolated hosts (and, if restricted, vice versa). */
export const IsolatedHostsFilter: FilterFactory = (config) => {
  const hosts = new Set(config.isolatedHosts);
  const images = new Set(config.isolatedImages);
  const restrict = config.restrictIsolatedHostsToIsolatedImages;
  return {
    name: "IsolatedHostsFilter",
    runOncePerRequest: true,
    check(host, spec) {
      const hostIsolated = hosts.has(host.host);
      if (!images.size) {
        return !restrict || !hostIsolated ? null : "isolated host, and no image is isolated";
      }
      const imageIsolated = images.has(spec.imageId);
      if (restrict) {
        if (imageIsolated === hostIsolated) return null;
        return hostIsolated ? "isolated host refuses a non-isolated image" : "isolated image needs an isolated host";
      }
      return !imageIsolated || hostIsolated ? null : "isolated image needs an isolated host";
    },
  };
};
