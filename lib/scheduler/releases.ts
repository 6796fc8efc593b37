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
  /** Filters this release no longer ships (named, they are left out and said so). */
  removedFilters: ReadonlySet<string>;
  /** Weighers of later releases (named, they are left out and said so). */
  laterWeighers: ReadonlySet<string>;
  /** map_az_to_placement_aggregate runs whatever query_placement_for_availability_zone says (the option is gone). */
  azRequestFilterAlwaysOn: boolean;
  /**
   * hw:virtio_packed_ring / hw_virtio_packed_ring require COMPUTE_NET_VIRTIO_PACKED
   * (request filter packed_virtqueue_filter) and hw:maxphysaddr_mode /
   * hw_maxphysaddr_mode require COMPUTE_ADDRESS_SPACE_{PASSTHROUGH,EMULATED}
   * (ResourceRequest._translate_maxphysaddr_request).
   */
  packedRingAndMaxphysaddrTraits: boolean;
  /**
   * hw:maxphysaddr_bits becomes capabilities:cpu_info:maxphysaddr:bits ">= N"
   * in ComputeCapabilitiesFilter, and ImagePropertiesFilter reads the image's
   * hw_maxphysaddr_bits.
   */
  maxphysaddrBitsChecks: boolean;
  /** AggregateMultiTenancyIsolation reads every key starting with filter_tenant_id. */
  tenantIdKeyPrefixes: boolean;
  /** vTPM also requires COMPUTE_SECURITY_TPM_{TIS,CRB}; hw_firmware_stateless requires COMPUTE_SECURITY_STATELESS_FIRMWARE. */
  tpmModelAndStatelessFirmwareTraits: boolean;
  /** Request filter virtio_sound_filter (hw:sound_model=virtio). */
  virtioSoundFilter: boolean;
  /** _translate_mem_encryption_request also requires the model's trait (hw:mem_encryption_model, 32.0.0). */
  memEncryptionModelTrait: boolean;
  /** [pci] alias entries need both vendor_id and product_id (_validate_required_ids, 32.0.0). */
  pciAliasRequiresIds: boolean;
  /** LiveMigrationTask._check_can_migrate_pci asks for live-migratable devices (31.0.0). */
  liveMigratablePciCheck: boolean;
  /** Request filter tpm_secret_security_filter (every vTPM request, hw:tpm_secret_security). */
  tpmSecretSecurityFilter: boolean;
  /**
   * img_hv_requested_version is oslo_utils.versionutils.VersionPredicate's
   * (packaging, PEP 440 versions) rather than distutils' StrictVersion one.
   */
  pep440VersionPredicates: boolean;
  /**
   * _numa_fit_instance_cell: a pinned guest cell without a page size must fit
   * the host cell's free smallest pages (free memory without pages); with a
   * page size, only the pages are checked (f14c16af82, bug 1811886).
   */
  pinnedCellsUseFreePages: boolean;
  /**
   * _pack_instance_onto_cores tests `pinning is None`: a mixed guest cell
   * with no dedicated vCPUs of its own fits (Zed: `not pinning`, it fails).
   * Seen in Nova 31.0.0; the release that changed it is not identified.
   */
  mixedCellsWithoutDedicatedFit: boolean;
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

/**
 * Traits each os-traits release added, and the os-traits each Nova release
 * runs with (openstack/requirements upper-constraints.txt of the release:
 * Zed 2.9.0, 2023.1 2.10.0, 2023.2 and 2024.1 3.0.0, 2024.2 3.1.0,
 * 2025.1 3.3.0, 2025.2 3.5.0, 2026.1 3.6.0). Placement knows the traits of
 * the os-traits it runs with; a host reporting a newer one is refused.
 */
const OS_TRAITS_ADDED: Array<[NovaRelease, string[]]> = [
  // os-traits 2.10.0
  ["2023.1", ["COMPUTE_ADDRESS_SPACE_EMULATED", "COMPUTE_ADDRESS_SPACE_PASSTHROUGH", "COMPUTE_SHARE_LOCAL_FS"]],
  // 3.0.0
  ["2023.2", ["COMPUTE_NET_VIRTIO_PACKED"]],
  // 3.1.0
  [
    "2024.2",
    [
      "COMPUTE_SECURITY_STATELESS_FIRMWARE",
      "COMPUTE_SECURITY_TPM_CRB",
      "COMPUTE_SECURITY_TPM_TIS",
      "HW_CPU_X86_AMD_SEV_ES",
    ],
  ],
  // 3.2.0, 3.3.0
  [
    "2025.1",
    [
      "COMPUTE_NET_VIF_MODEL_IGB",
      "COMPUTE_SECURITY_TPM_SECRET_SECURITY_DEPLOYMENT",
      "COMPUTE_SECURITY_TPM_SECRET_SECURITY_HOST",
      "COMPUTE_SECURITY_TPM_SECRET_SECURITY_USER",
      "HW_PCI_LIVE_MIGRATABLE",
    ],
  ],
  // 3.4.0, 3.5.0
  [
    "2025.2",
    [
      "HW_PCI_ONE_TIME_USE",
      "COMPUTE_SOUND_MODEL_AC97",
      "COMPUTE_SOUND_MODEL_ES1370",
      "COMPUTE_SOUND_MODEL_ICH6",
      "COMPUTE_SOUND_MODEL_ICH9",
      "COMPUTE_SOUND_MODEL_PCSPK",
      "COMPUTE_SOUND_MODEL_SB16",
      "COMPUTE_SOUND_MODEL_USB",
      "COMPUTE_SOUND_MODEL_VIRTIO",
      "COMPUTE_USB_MODEL_NEC_XHCI",
      "COMPUTE_USB_MODEL_QEMU_XHCI",
    ],
  ],
  // 3.6.0
  ["2026.1", ["HW_CPU_X86_AMXBF16", "HW_CPU_X86_AMXINT8", "HW_CPU_X86_AMXTILE"]],
];

/**
 * How each release's answers are known: checked against a real Nova (a
 * reference running Debian's python3-nova of that release, see
 * conformance/README.md) or read from Nova's source at its tag.
 */
export const RELEASE_CHECKED_AGAINST: Record<NovaRelease, string | null> = {
  zed: "Nova 26.2.2",
  "2023.1": null,
  "2023.2": null,
  "2024.1": null,
  "2024.2": null,
  "2025.1": "Nova 31.0.0",
  "2025.2": null,
  "2026.1": "Nova 33.0.2",
};

/**
 * How each release's conductor (live-migrate's loop, forced moves, evacuate,
 * unshelve) is known: Zed's runs in ../shared/nova-reference/conductor.py;
 * the 2025.1 and 2026.1 references' harness patches predate it, so the later
 * conductors are read from their tags' nova/conductor and nova/compute/api.py.
 */
export const CONDUCTOR_CHECKED_AGAINST: Record<NovaRelease, string | null> = {
  zed: "Nova 26.2.2's conductor",
  "2023.1": null,
  "2023.2": null,
  "2024.1": null,
  "2024.2": null,
  "2025.1": null,
  "2025.2": null,
  "2026.1": null,
};

/** "checked against Nova 26.2.2's conductor" or "read from Nova's source". */
export function conductorProvenance(release: NovaRelease): string {
  const nova = CONDUCTOR_CHECKED_AGAINST[release];
  return nova ? `checked against ${nova}` : "read from Nova's source";
}

/** "checked against Nova 31.0.0" or "read from Nova's source". */
export function releaseProvenance(release: NovaRelease): string {
  const nova = RELEASE_CHECKED_AGAINST[release];
  return nova ? `checked against ${nova}` : "read from Nova's source";
}

const at = (r: NovaRelease, since: NovaRelease) => NOVA_RELEASES.indexOf(r) >= NOVA_RELEASES.indexOf(since);

/**
 * The differences, each read in Nova's source at the release's tag (26.0.0
 * ... 33.0.0) and its release notes:
 * - 2023.2 (28.0.0) e38d6a356b "add hypervisor version weigher"
 *   (hypervisor-version-weigher-d0bba77e720edafe.yaml, multiplier 1.0) and
 *   ca3fbb4d15 "Add a new NumInstancesWeigher" (multiplier 0.0): new modules
 *   in nova/scheduler/weights/, so all_weighers returns them.
 * - 2023.2 5edd805fe2 "Remove deprecated AZ filter."
 *   (az-filter-removal-587f7337040b6216.yaml): AvailabilityZoneFilter gone,
 *   query_placement_for_availability_zone removed, the AZ request filter always on.
 * - 2024.1 (29.0.0) eb8519d811 "Packed virtqueue support was added."
 *   (packed_virtqueue_filter) and 1038a63387 "libvirt: Support maxphysaddr."
 *   (_translate_maxphysaddr_request; ComputeCapabilitiesFilter and
 *   ImagePropertiesFilter check the bits).
 * - 2024.2 (30.0.0) 3cd26b0a08 "scheduler: AggregateMultitenancyIsolation to
 *   support unlimited tenant" (remove-filter-tenant-id-limitation-7aae698b02ec3bc2.yaml);
 *   3169e7cebd "libvirt: Launch instances with stateless firmware" and the
 *   vTPM model trait (_translate_vtpm_request).
 * - 2025.1 (31.0.0) acd6c733c6 "Add a new ImagePropertiesWeigher"
 *   (bp-image-metadata-props-weigher-b09125e1837428f5.yaml, multiplier 0.0).
 * - 2025.2 (32.0.0) dab248718d "Implement sound model extra spec for libvirt."
 *   (virtio_sound_filter).
 * - 2026.1 (33.0.0) ad1dd5e594 / 245a321e43 / 880019baaf "TPM: support
 *   instances with user/host/deployment secret security" (tpm_secret_security_filter).
 * The order "all" lists weighers in is os.walk's (file system order); the new
 * ones go last here.
 */
export function releaseBehaviour(release: NovaRelease): ReleaseBehaviour {
  const bobcat = at(release, "2023.2");
  const bobcatAll = bobcat
    ? [...ZED_ALL_WEIGHERS, "HypervisorVersionWeigher", "NumInstancesWeigher"]
    : ZED_ALL_WEIGHERS;
  const traits = new Set<string>();
  for (const [since, names] of OS_TRAITS_ADDED) if (at(release, since)) for (const t of names) traits.add(t);
  return {
    release,
    label: LABELS[release],
    allWeighers: at(release, "2025.1") ? [...bobcatAll, "ImagePropertiesWeigher"] : bobcatAll,
    removedFilters: new Set(bobcat ? ["AvailabilityZoneFilter"] : []),
    laterWeighers: new Set(
      ["HypervisorVersionWeigher", "NumInstancesWeigher", "ImagePropertiesWeigher"].filter(
        (w) => !(at(release, "2025.1") ? [...bobcatAll, "ImagePropertiesWeigher"] : bobcatAll).includes(w),
      ),
    ),
    azRequestFilterAlwaysOn: bobcat,
    packedRingAndMaxphysaddrTraits: at(release, "2024.1"),
    maxphysaddrBitsChecks: at(release, "2024.1"),
    tenantIdKeyPrefixes: at(release, "2024.2"),
    tpmModelAndStatelessFirmwareTraits: at(release, "2024.2"),
    virtioSoundFilter: at(release, "2025.2"),
    memEncryptionModelTrait: at(release, "2025.2"),
    pciAliasRequiresIds: at(release, "2025.2"),
    liveMigratablePciCheck: at(release, "2025.1"),
    tpmSecretSecurityFilter: at(release, "2026.1"),
    pep440VersionPredicates: at(release, "2025.1"),
    pinnedCellsUseFreePages: at(release, "2024.2"),
    mixedCellsWithoutDedicatedFit: at(release, "2025.1"),
    addedStandardTraits: traits,
  };
}

export function isNovaRelease(v: unknown): v is NovaRelease {
  return typeof v === "string" && (NOVA_RELEASES as readonly string[]).includes(v);
}
