/**
 * The Nova releases an operator can pick (config `nova_release`) and the
 * scheduler behaviour each changed. Zed (26) is what the reference checks;
 * each later entry names the Nova change it follows (docs/engine.md keeps
 * the table, releases.test.ts one test per difference).
 */
export const NOVA_RELEASES = ["zed", "2023.1", "2023.2", "2024.1", "2024.2", "2025.1", "2025.2", "2026.1"] as const;
export type NovaRelease = (typeof NOVA_RELEASES)[number];

export interface ReleaseBehaviour {
  release: NovaRelease;
  /** How result documents name it, e.g. "26 (Zed)". */
  label: string;
  /** Weigher classes "all" stands for (nova.scheduler.weights.all_weighers). */
  allWeighers: readonly string[];
  /** Filters this release no longer ships (naming one is an error). */
  removedFilters: ReadonlySet<string>;
  /** map_az_to_placement_aggregate runs whatever query_placement_for_availability_zone says. */
  azRequestFilterAlwaysOn: boolean;
  /**
   * hw:virtio_packed_ring / hw_virtio_packed_ring require COMPUTE_NET_VIRTIO_PACKED
   * (request filter packed_virtqueue_filter) and hw:maxphysaddr_mode /
   * hw_maxphysaddr_mode require COMPUTE_ADDRESS_SPACE_{PASSTHROUGH,EMULATED}
   * (ResourceRequest._translate_maxphysaddr_request).
   */
  packedRingAndMaxphysaddrTraits: boolean;
  /** Standard traits this release's os-traits adds to the 2.9.0 list Zed ships. */
  addedStandardTraits: ReadonlySet<string>;
}

/** What "all" means in Zed (nova.scheduler.weights.all_weighers). */
export const ZED_ALL_WEIGHERS = [
  "CrossCellWeigher",
  "MetricsWeigher",
  "CPUWeigher",
  "BuildFailureWeigher",
  "ServerGroupSoftAffinityWeigher",
  "ServerGroupSoftAntiAffinityWeigher",
  "RAMWeigher",
  "DiskWeigher",
  "PCIWeigher",
  "IoOpsWeigher",
];

const LABELS: Record<NovaRelease, string> = {
  zed: "26 (Zed)",
  "2023.1": "27 (2023.1 Antelope)",
  "2023.2": "28 (2023.2 Bobcat)",
  "2024.1": "29 (2024.1 Caracal)",
  "2024.2": "30 (2024.2 Dalmatian)",
  "2025.1": "31 (2025.1 Epoxy)",
  "2025.2": "32 (2025.2 Flamingo)",
  "2026.1": "33 (2026.1 Gazpacho)",
};

const NO_TRAITS: ReadonlySet<string> = new Set();
const CARACAL_TRAITS: ReadonlySet<string> = new Set([
  "COMPUTE_ADDRESS_SPACE_EMULATED",
  "COMPUTE_ADDRESS_SPACE_PASSTHROUGH",
  "COMPUTE_NET_VIRTIO_PACKED",
]);

const at = (r: NovaRelease, since: NovaRelease) => NOVA_RELEASES.indexOf(r) >= NOVA_RELEASES.indexOf(since);

/**
 * The differences, each from Nova's source and release notes:
 * - 2023.2 "Add HypervisorVersionWeigher" and "Add NumInstancesWeigher":
 *   both join all_weighers (the first with multiplier 1.0: on by default).
 * - 2023.2 "Remove AvailabilityZoneFilter" (deprecated since Zed, whose AZ
 *   request filter replaces it) and the AZ request filter always on.
 * - 2024.1 (per the project's brief; from memory the Nova changes landed
 *   in 2023.1 Antelope with os-traits 2.10.0: check before relying on it)
 *   packed virtqueue and maxphysaddr traits, and the three trait names.
 * - 2025.1 "Add ImagePropertiesWeigher": joins all_weighers (multiplier 0.0:
 *   off by default).
 */
export function releaseBehaviour(release: NovaRelease): ReleaseBehaviour {
  const bobcat = at(release, "2023.2");
  const bobcatAll = bobcat
    ? [...ZED_ALL_WEIGHERS, "HypervisorVersionWeigher", "NumInstancesWeigher"]
    : ZED_ALL_WEIGHERS;
  return {
    release,
    label: LABELS[release],
    allWeighers: at(release, "2025.1") ? [...bobcatAll, "ImagePropertiesWeigher"] : bobcatAll,
    removedFilters: new Set(bobcat ? ["AvailabilityZoneFilter"] : []),
    azRequestFilterAlwaysOn: bobcat,
    packedRingAndMaxphysaddrTraits: at(release, "2024.1"),
    addedStandardTraits: at(release, "2024.1") ? CARACAL_TRAITS : NO_TRAITS,
  };
}

export function isNovaRelease(v: unknown): v is NovaRelease {
  return typeof v === "string" && (NOVA_RELEASES as readonly string[]).includes(v);
}
