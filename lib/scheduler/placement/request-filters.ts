/**
 * nova.scheduler.request_filter.process_reqspec (Zed, in its order): each
 * request filter rewrites the request (required or forbidden aggregates,
 * root traits) before Placement is asked; none removes a host by itself.
 * The aggregate look-ups answer with the semantics of Nova's SQL on SQLite:
 * "=" is exact, LIKE 'trait:%' ignores ASCII case.
 */
import type { SchedulerConfig } from "../config";
import type { Aggregate } from "../host-state";
import { stableUuid } from "../nova-uuid";
import { NovaError } from "../python";
import type { RequestSpec } from "../request-spec";
import { allRequiredTraits, buildResourceRequest, type RequestFilterOutput } from "./resource-request";
import { STANDARD_TRAITS } from "./standard-names";

export interface RequestFilterTrace {
  /** Nova's function name, e.g. "map_az_to_placement_aggregate". */
  name: string;
  /** What it added to the request, in words; null when it was a no-op. */
  effect: string | null;
}

export interface RequestFilterResult extends RequestFilterOutput {
  trace: RequestFilterTrace[];
  /** RequestFilterFailed: NoValidHost before Placement is asked. */
  failed: string | null;
}

export interface AggregateRow {
  uuid: string;
  name: string;
  metadata: Map<string, string>;
}

export function aggregateRows(aggs: Aggregate[]): AggregateRow[] {
  return aggs.map((a) => ({ uuid: stableUuid(`agg-${a.name}`), name: a.name, metadata: a.metadata }));
}

/** oslo strutils.bool_from_string (not strict). */
function boolFromString(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  return ["1", "t", "true", "on", "y", "yes"].includes(String(v).trim().toLowerCase());
}

const IMAGE_TRAIT_PREFIXES: Array<[string, string]> = [
  ["hw_cdrom_bus", "COMPUTE_STORAGE_BUS"],
  ["hw_disk_bus", "COMPUTE_STORAGE_BUS"],
  ["hw_video_model", "COMPUTE_GRAPHICS_MODEL"],
  ["hw_vif_model", "COMPUTE_NET_VIF_MODEL"],
  ["hw_architecture", "HW_ARCH"],
  ["hw_emulation_architecture", "COMPUTE_ARCH"],
  ["hw_viommu_model", "COMPUTE_VIOMMU"],
];

export interface RequestFilterOptions {
  diskFormat: string;
  isBfv: boolean;
}

/** Run every request filter of the config's release over the request. */
export function processRequestSpec(
  config: SchedulerConfig,
  spec: RequestSpec,
  aggregates: AggregateRow[],
  opts: RequestFilterOptions,
): RequestFilterResult {
  const out: RequestFilterResult = {
    requiredAggregates: [],
    forbiddenAggregates: new Set(),
    rootRequired: new Set(),
    rootForbidden: new Set(),
    trace: [],
    failed: null,
  };
  const note = (name: string, effect: string | null) => out.trace.push({ name, effect });
  // hasattr(os_traits, name): the os-traits the release runs with.
  const known = (trait: string) => STANDARD_TRAITS.has(trait) || config.release.addedStandardTraits.has(trait);

  // require_tenant_aggregate: aggregates with any metadata value equal to the
  // project, one of whose matching keys starts with filter_tenant_id.
  if (config.limitTenantsToPlacementAggregate) {
    const project = spec.projectId;
    const uuids: string[] = [];
    for (const a of aggregates) {
      for (const [k, v] of a.metadata) {
        if (v === project && k.startsWith("filter_tenant_id")) {
          if (!uuids.includes(a.uuid)) uuids.push(a.uuid);
          break;
        }
      }
    }
    if (uuids.length) {
      out.requiredAggregates.push(uuids);
      note("require_tenant_aggregate", `member_of aggregates of project ${project}`);
    } else if (config.placementAggregateRequiredForTenants) {
      note("require_tenant_aggregate", `no aggregate for project ${project}`);
      out.failed = `No hosts available for tenant ${project}`;
      return out;
    } else note("require_tenant_aggregate", null);
  }

  // map_az_to_placement_aggregate
  if (config.queryPlacementForAvailabilityZone && spec.availabilityZone) {
    const az = spec.availabilityZone;
    const uuids = aggregates.filter((a) => a.metadata.get("availability_zone") === az).map((a) => a.uuid);
    if (uuids.length) {
      out.requiredAggregates.push(uuids);
      note("map_az_to_placement_aggregate", `member_of aggregates of availability zone ${az}`);
    } else note("map_az_to_placement_aggregate", null);
  }

  // require_image_type_support
  if (config.queryPlacementForImageTypeSupport && !opts.isBfv) {
    const trait = `COMPUTE_IMAGE_TYPE_${opts.diskFormat.toUpperCase()}`;
    if (known(trait)) {
      out.rootRequired.add(trait);
      note("require_image_type_support", `requires ${trait}`);
    }
  }

  // compute_status_filter: always.
  out.rootForbidden.add("COMPUTE_STATUS_DISABLED");
  note("compute_status_filter", "forbids COMPUTE_STATUS_DISABLED");

  // isolate_aggregates
  if (config.enableIsolatedAggregateFiltering) {
    const rr = buildResourceRequest(spec, emptyOutput(), {
      maxPlacementResults: config.maxPlacementResults,
      enablePinningTranslate: true,
      isBfv: opts.isBfv,
      forcedNodes: null,
      translateMaxphysaddr: config.release.packedRingAndMaxphysaddrTraits,
      translateTpmModelAndStatelessFirmware: config.release.tpmModelAndStatelessFirmwareTraits,
      memEncryptionModelTrait: config.release.memEncryptionModelTrait,
    });
    const ignored = new Set([...allRequiredTraits(rr)].map((t) => `trait:${t}`));
    const isolated: string[] = [];
    for (const a of aggregates) {
      for (const [k, v] of a.metadata) {
        if (v === "required" && k.slice(0, 6).toLowerCase() === "trait:" && !ignored.has(k)) {
          isolated.push(a.uuid);
          break;
        }
      }
    }
    if (isolated.length) {
      for (const u of isolated) out.forbiddenAggregates.add(u);
      note("isolate_aggregates", "avoids aggregates that require traits the request lacks");
    } else note("isolate_aggregates", null);
  }

  // transform_image_metadata: one unknown trait name and none is added.
  if (config.imageMetadataPrefilter) {
    const traits: string[] = [];
    let ok = true;
    for (const [key, prefix] of IMAGE_TRAIT_PREFIXES) {
      const v = spec.imageProps.get(key);
      if (v === undefined) continue;
      const trait = `${prefix}_${String(v).replace(/-/g, "_").toUpperCase()}`;
      if (!known(trait)) {
        ok = false;
        break;
      }
      traits.push(trait);
    }
    if (ok) for (const t of traits) out.rootRequired.add(t);
    note("transform_image_metadata", ok && traits.length ? `requires ${traits.join(", ")}` : null);
  }

  // accelerators_filter
  if (spec.flavor.extraSpecs.some((e) => e.key === "accel:device_profile" && e.value)) {
    out.rootRequired.add("COMPUTE_ACCELERATORS");
    note("accelerators_filter", "requires COMPUTE_ACCELERATORS");
  }

  // packed_virtqueue_filter (2024.1, eb8519d811 "Packed virtqueue support was added.")
  if (config.release.packedRingAndMaxphysaddrTraits && packedVirtqueueRequested(spec)) {
    out.rootRequired.add("COMPUTE_NET_VIRTIO_PACKED");
    note("packed_virtqueue_filter", "requires COMPUTE_NET_VIRTIO_PACKED");
  }

  // ephemeral_encryption_filter
  const flavorEph = spec.flavor.extraSpecs.find((e) => e.key === "hw:ephemeral_encryption")?.value;
  const imageEph = spec.imageProps.get("hw_ephemeral_encryption");
  if ((flavorEph !== undefined && boolFromString(flavorEph)) || imageEph === true) {
    out.rootRequired.add("COMPUTE_EPHEMERAL_ENCRYPTION");
    const fmt =
      spec.flavor.extraSpecs.find((e) => e.key === "hw:ephemeral_encryption_format")?.value ??
      spec.imageProps.get("hw_ephemeral_encryption_format");
    if (typeof fmt === "string" && fmt) out.rootRequired.add(`COMPUTE_EPHEMERAL_ENCRYPTION_${fmt.toUpperCase()}`);
    note("ephemeral_encryption_filter", "requires COMPUTE_EPHEMERAL_ENCRYPTION");
  }

  // virtio_sound_filter (2025.2, dab248718d "Implement sound model extra spec for libvirt.")
  if (config.release.virtioSoundFilter && soundModel(spec) === "virtio") {
    out.rootRequired.add("COMPUTE_SOUND_MODEL_VIRTIO");
    note("virtio_sound_filter", "requires COMPUTE_SOUND_MODEL_VIRTIO");
  }

  // tpm_secret_security_filter (2026.1, "TPM: support instances with user/host/deployment secret security")
  if (config.release.tpmSecretSecurityFilter && vtpmRequested(spec)) {
    const security = spec.flavor.extraSpecs.find((e) => e.key === "hw:tpm_secret_security")?.value || "user";
    const trait = TPM_SECRET_SECURITY_TRAITS[security];
    if (!trait) {
      note("tpm_secret_security_filter", `TPM secret security '${security}' is not supported`);
      out.failed = `TPM secret security '${security}' is not supported.`;
      return out;
    }
    out.rootRequired.add(trait);
    note("tpm_secret_security_filter", `requires ${trait}`);
  }
  return out;
}

const TPM_SECRET_SECURITY_TRAITS: Record<string, string> = {
  user: "COMPUTE_SECURITY_TPM_SECRET_SECURITY_USER",
  host: "COMPUTE_SECURITY_TPM_SECRET_SECURITY_HOST",
  deployment: "COMPUTE_SECURITY_TPM_SECRET_SECURITY_DEPLOYMENT",
};

/** hardware.get_vtpm_constraint is not None: the flavor or the image names a TPM version. */
function vtpmRequested(spec: RequestSpec): boolean {
  return (
    spec.flavor.extraSpecs.some((e) => e.key === "hw:tpm_version") || spec.imageProps.get("hw_tpm_version") != null
  );
}

const SOUND_MODELS = new Set(["sb16", "es1370", "pcspk", "ac97", "ich6", "ich9", "usb", "virtio"]);

/**
 * hardware.get_sound_model (2025.2): flavor hw:sound_model or image
 * hw_sound_model; both set and different is FlavorImageConflict, a model
 * outside SoundModelType.ALL is Invalid.
 */
export function soundModel(spec: RequestSpec): string | null {
  const flavor = spec.flavor.extraSpecs.find((e) => e.key === "hw:sound_model")?.value;
  const image = spec.newerImageProps.get("hw_sound_model");
  if (flavor !== undefined && image !== undefined && flavor !== image)
    throw new NovaError(
      "FlavorImageConflict",
      `Flavor ${spec.flavor.name} has hw:sound_model extra spec explicitly set to ${flavor}, conflicting with image ${spec.imageName} which has hw_sound_model explicitly set to ${image}.`,
    );
  const model = flavor ?? image ?? null;
  if (model && !SOUND_MODELS.has(model))
    throw new NovaError(
      "Invalid",
      `Invalid sound device model '${model}'. Allowed values: ${[...SOUND_MODELS].join(", ")}.`,
    );
  return model;
}

/**
 * hardware.get_packed_virtqueue_constraint (2024.1): flavor hw:virtio_packed_ring or image hw_virtio_packed_ring (both
 * booleans as oslo reads them); both set and different is FlavorImageConflict.
 */
export function packedVirtqueueRequested(spec: RequestSpec): boolean {
  const flavorText = spec.flavor.extraSpecs.find((e) => e.key === "hw:virtio_packed_ring")?.value;
  const imageText = spec.newerImageProps.get("hw_virtio_packed_ring");
  const flavor = flavorText === undefined ? undefined : boolFromString(flavorText);
  const image = imageText === undefined ? undefined : boolFromString(imageText);
  if (flavor !== undefined && image !== undefined && flavor !== image)
    throw new NovaError(
      "FlavorImageConflict",
      `Flavor has hw:virtio_packed_ring extra spec explicitly set to ${flavor ? "True" : "False"}, conflicting with image which has hw_virtio_packed_ring explicitly set to ${image ? "True" : "False"}.`,
    );
  return Boolean(flavor ?? image);
}

export function emptyOutput(): RequestFilterOutput {
  return { requiredAggregates: [], forbiddenAggregates: new Set(), rootRequired: new Set(), rootForbidden: new Set() };
}
