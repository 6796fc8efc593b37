/**
 * The profile options of Nova's Placement path, NUMA packing and release
 * (beyond [filter_scheduler]'s OPTION_DOCS): key, nova.conf section, Nova
 * Zed's default and what it does. One list for the profile editor, its
 * server-side schema and the docs. Pure and browser-safe.
 */
import { NOVA_RELEASES, type NovaRelease } from "@/lib/scheduler/releases";

export interface ProfileOptionDoc {
  key: string;
  section: string;
  kind: "bool" | "int";
  default: boolean | number;
  min?: number;
  help: string;
}

/** How the UI names a profile without Placement, and every result computed on one. */
export const FILTERS_ONLY = "filters only: no Placement, nothing checks RAM, CPU or disk";

export const PLACEMENT_OPTION_DOCS: ProfileOptionDoc[] = [
  {
    key: "placement",
    section: "Schedscope",
    kind: "bool",
    default: false,
    help: "Run Nova's real Placement path: request filters, GET /allocation_candidates, then the filters on the hosts Placement returned, and a claim per instance.",
  },
  {
    key: "query_placement_for_availability_zone",
    section: "[scheduler]",
    kind: "bool",
    default: true,
    help: "Ask Placement for hosts in the requested AZ's aggregates (member_of). Deprecated in Zed, still on by default.",
  },
  {
    key: "limit_tenants_to_placement_aggregate",
    section: "[scheduler]",
    kind: "bool",
    default: false,
    help: "Restrict a project to the aggregates whose filter_tenant_id* metadata equals its id (exact match, not a comma list).",
  },
  {
    key: "placement_aggregate_required_for_tenants",
    section: "[scheduler]",
    kind: "bool",
    default: false,
    help: "With limit_tenants_to_placement_aggregate: a project with no such aggregate gets NoValidHost instead of every host.",
  },
  {
    key: "query_placement_for_image_type_support",
    section: "[scheduler]",
    kind: "bool",
    default: false,
    help: "Require the COMPUTE_IMAGE_TYPE_<disk_format> trait of the image's disk format.",
  },
  {
    key: "enable_isolated_aggregate_filtering",
    section: "[scheduler]",
    kind: "bool",
    default: false,
    help: "Keep requests away from aggregates with trait:X=required metadata unless the flavor or image requires X.",
  },
  {
    key: "image_metadata_prefilter",
    section: "[scheduler]",
    kind: "bool",
    default: false,
    help: "Turn image properties (hw_architecture, hw_disk_bus, hw_vif_model, ...) into required traits.",
  },
  {
    key: "max_placement_results",
    section: "[scheduler]",
    kind: "int",
    default: 1000,
    min: 1,
    help: "Most allocation candidates Placement returns (limit=); hosts beyond it are never considered. Dropped for server groups and same_host/different_host hints.",
  },
  {
    key: "disable_fallback_pcpu_query",
    section: "[workarounds]",
    kind: "bool",
    default: false,
    help: "Do not ask Placement a second time with VCPU instead of PCPU for pinned-CPU flavors (hosts not yet reporting PCPU).",
  },
  {
    key: "packing_host_numa_cells_allocation_strategy",
    section: "[compute]",
    kind: "bool",
    default: false,
    help: "Fill the busiest NUMA cells first (pack) instead of the emptiest (spread). Zed 26.2's default is false.",
  },
];

export const NOVA_RELEASE_HELP: Record<NovaRelease, string> = {
  zed: "Nova 26 (Zed), the release the engine reproduces by default",
  "2023.1": "Nova 27 (Antelope)",
  "2023.2":
    'Nova 28 (Bobcat): HypervisorVersionWeigher and NumInstancesWeigher join "all"; AvailabilityZoneFilter removed, the AZ request filter always on',
  "2024.1": "Nova 29 (Caracal)",
  "2024.2": "Nova 30 (Dalmatian)",
  "2025.1": "Nova 31 (Epoxy)",
  "2025.2": "Nova 32 (Flamingo)",
  "2026.1": "Nova 33 (Gazpacho)",
};

export { NOVA_RELEASES };

export const PCI_ALIAS_FIELDS = ["name", "vendor_id", "product_id", "device_type", "numa_policy"] as const;
