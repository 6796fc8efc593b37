/**
 * nova.scheduler.utils.ResourceRequest.from_request_spec and
 * resources_from_request_spec (Zed): the flavor, its extra specs and the
 * image become request groups, and to_querystring() is the query Nova sends
 * to GET /allocation_candidates, byte for byte.
 */
import type { ImageProps } from "../image-meta";
import { NovaError, pyInt, pyRepr } from "../python";
import type { RequestSpec } from "../request-spec";
import { STANDARD_RESOURCE_CLASSES } from "./standard-names";

export interface RequestGroup {
  /** "" for the unsuffixed group, else the suffix of resourcesN:/traitN:. */
  suffix: string;
  resources: Map<string, number>;
  required: Set<string>;
  forbidden: Set<string>;
  /** member_of=in:a,b per entry (AND of ORs). */
  aggregates: string[][];
  forbiddenAggregates: Set<string>;
  inTree: string | null;
}

export interface ResourceRequest {
  /** Groups in creation order, keyed by suffix. */
  groups: Map<string, RequestGroup>;
  groupPolicy: string | null;
  limit: number | null;
  rootRequired: Set<string>;
  rootForbidden: Set<string>;
  /** hw:cpu_policy=dedicated turned VCPU into PCPU (the fallback query applies). */
  cpuPinningRequested: boolean;
}

/** What the request filters added to the RequestSpec (Destination and root traits). */
export interface RequestFilterOutput {
  requiredAggregates: string[][];
  forbiddenAggregates: Set<string>;
  rootRequired: Set<string>;
  rootForbidden: Set<string>;
}

const XS_KEYPAT = /^(resources|trait)([a-zA-Z0-9_-]{1,64})?:(.*)$/;
const STANDARD_RC = new Set(STANDARD_RESOURCE_CLASSES);

function newGroup(suffix: string): RequestGroup {
  return {
    suffix,
    resources: new Map(),
    required: new Set(),
    forbidden: new Set(),
    aggregates: [],
    forbiddenAggregates: new Set(),
    inTree: null,
  };
}

function group(rr: ResourceRequest, suffix: string): RequestGroup {
  let g = rr.groups.get(suffix);
  if (!g) rr.groups.set(suffix, (g = newGroup(suffix)));
  return g;
}

/** RequestGroup.add_resource: unknown classes and bad amounts are logged and ignored. */
function addResource(rr: ResourceRequest, rc: string, amount: string | number, suffix = ""): void {
  const g = group(rr, suffix);
  if (!(rc.startsWith("CUSTOM_") || STANDARD_RC.has(rc))) return;
  let n: number;
  try {
    n = typeof amount === "number" ? amount : pyInt(amount);
  } catch {
    return;
  }
  if (n < 0) return;
  g.resources.set(rc, n);
}

function addTrait(rr: ResourceRequest, trait: string, kind: string, suffix = ""): void {
  const g = group(rr, suffix);
  if (kind === "required") g.required.add(trait);
  else if (kind === "forbidden") g.forbidden.add(trait);
}

function mergedResources(rr: ResourceRequest): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of rr.groups.values()) for (const [rc, n] of g.resources) out.set(rc, (out.get(rc) ?? 0) + n);
  return out;
}

function extraSpec(spec: RequestSpec, key: string): string | undefined {
  for (const e of spec.flavor.extraSpecs) if (e.key === key) return e.value;
  return undefined;
}

function imageString(props: ImageProps, key: string): string | undefined {
  const v = props.get(key);
  return typeof v === "string" ? v : undefined;
}

/** hardware.get_cpu_policy_constraint (the combinations numa_get_constraints already accepted). */
function cpuPolicy(spec: RequestSpec): string | null {
  const f = extraSpec(spec, "hw:cpu_policy");
  if (f === "dedicated" || f === "mixed" || f === "shared") return f;
  const i = imageString(spec.imageProps, "hw_cpu_policy");
  return i === "dedicated" || i === "mixed" || i === "shared" ? i : null;
}

function cpuThreadPolicy(spec: RequestSpec): string | null {
  const f = extraSpec(spec, "hw:cpu_thread_policy");
  if (f === "prefer" || f === "isolate" || f === "require") return f;
  return imageString(spec.imageProps, "hw_cpu_thread_policy") ?? null;
}

/** hardware.parse_cpu_spec: "0-3,^2,5" → {0,1,3,5}. */
export function parseCpuSpec(text: string): Set<number> {
  const include = new Set<number>();
  const exclude = new Set<number>();
  for (const raw of text.split(",")) {
    const rule = raw.trim();
    if (!rule) continue;
    const neg = rule.startsWith("^");
    const body = neg ? rule.slice(1) : rule;
    const m = /^(\d+)\s*(?:-\s*(\d+))?$/.exec(body.trim());
    if (!m) continue;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    for (let c = lo; c <= hi; c++) (neg ? exclude : include).add(c);
  }
  for (const c of exclude) include.delete(c);
  return include;
}

/** The dedicated CPUs of a mixed instance: hw:cpu_dedicated_mask, else the realtime mask. */
function mixedDedicatedCount(spec: RequestSpec): number {
  const all = Array.from({ length: spec.flavor.vcpus }, (_, i) => i);
  const mask = extraSpec(spec, "hw:cpu_dedicated_mask") ?? extraSpec(spec, "hw:cpu_realtime_mask");
  if (!mask) return 0;
  const parsed = parseCpuSpec(mask);
  // A mask of only exclusions ("^0") means every vCPU but those.
  if (mask.trim().startsWith("^") && !/(^|,)\s*\d/.test(mask)) {
    const excluded = parseCpuSpec(mask.replace(/\^/g, ""));
    return all.filter((c) => !excluded.has(c)).length;
  }
  return parsed.size;
}

/** ResourceRequest._translate_pinning_policies. */
function translatePinning(rr: ResourceRequest, spec: RequestSpec): void {
  const policy = cpuPolicy(spec);
  let pcpus = 0;
  if (policy === "dedicated") {
    rr.cpuPinningRequested = true;
    pcpus = spec.flavor.vcpus;
  }
  if (policy === "mixed") {
    pcpus = mixedDedicatedCount(spec);
    addResource(rr, "VCPU", spec.flavor.vcpus - pcpus);
  }
  if (policy === "dedicated" || policy === "mixed") {
    if (extraSpec(spec, "hw:emulator_threads_policy") === "isolate") pcpus += 1;
    addResource(rr, "PCPU", pcpus);
  }
  const thread = cpuThreadPolicy(spec);
  if (thread === "isolate") addTrait(rr, "HW_CPU_HYPERTHREADING", "forbidden");
  else if (thread === "require") addTrait(rr, "HW_CPU_HYPERTHREADING", "required");
}

/**
 * hardware._get_unique_flavor_image_meta: flavor hw:KEY or image hw_KEY
 * (both set and different is FlavorImageConflict), `flavor or image`.
 */
function uniqueFlavorImageMeta(spec: RequestSpec, key: string, image: string | undefined): string | undefined {
  const flavor = extraSpec(spec, `hw:${key}`);
  if (flavor && image && flavor !== image)
    throw new NovaError(
      "FlavorImageConflict",
      `Flavor ${spec.flavor.name} has hw:${key} extra spec explicitly set to ${flavor}, conflicting with image ${spec.imageName} which has hw_${key} explicitly set to ${image}.`,
    );
  return flavor || image;
}

/** hardware.get_vtpm_constraint: the vTPM's version and model (tpm-tis unless asked), or null; Invalid values raise. */
function vtpmConstraint(spec: RequestSpec): { version: string; model: string } | null {
  const version = uniqueFlavorImageMeta(spec, "tpm_version", imageString(spec.imageProps, "hw_tpm_version"));
  if (version === undefined) return null;
  if (version !== "1.2" && version !== "2.0")
    throw new NovaError("Invalid", `Invalid TPM version ${pyRepr(version)}. Allowed values: 1.2, 2.0.`);
  const model = uniqueFlavorImageMeta(spec, "tpm_model", imageString(spec.imageProps, "hw_tpm_model"));
  if (model === undefined) return { version, model: "tpm-tis" };
  if (model !== "tpm-tis" && model !== "tpm-crb")
    throw new NovaError("Invalid", `Invalid TPM model ${pyRepr(model)}. Allowed values: tpm-tis, tpm-crb.`);
  if (model === "tpm-crb" && version !== "2.0")
    throw new NovaError("Invalid", "TPM model CRB is only valid with TPM version 2.0.");
  return { version, model };
}

/**
 * The _translate_* steps that only add a trait: vTPM, PCI socket affinity,
 * secure boot. From 2024.2 the vTPM also requires its model (tpm-tis unless
 * tpm-crb).
 */
function translateTraits(rr: ResourceRequest, spec: RequestSpec, dalmatian: boolean): void {
  const vtpm = vtpmConstraint(spec);
  if (vtpm && dalmatian)
    addTrait(rr, vtpm.model === "tpm-crb" ? "COMPUTE_SECURITY_TPM_CRB" : "COMPUTE_SECURITY_TPM_TIS", "required");
  if (vtpm) addTrait(rr, vtpm.version === "1.2" ? "COMPUTE_SECURITY_TPM_1_2" : "COMPUTE_SECURITY_TPM_2_0", "required");
  const pci =
    extraSpec(spec, "hw:pci_numa_affinity_policy") ?? imageString(spec.imageProps, "hw_pci_numa_affinity_policy");
  if (pci === "socket") addTrait(rr, "COMPUTE_SOCKET_PCI_NUMA_AFFINITY", "required");
  const sb = extraSpec(spec, "os:secure_boot") ?? imageString(spec.imageProps, "os_secure_boot");
  if (sb === "required") addTrait(rr, "COMPUTE_SECURITY_UEFI_SECURE_BOOT", "required");
}

/** _translate_stateless_firmware_request (2024.2): after _translate_maxphysaddr_request, as Nova runs them. */
function translateStatelessFirmware(rr: ResourceRequest, spec: RequestSpec): void {
  if (!boolFromString(spec.newerImageProps.get("hw_firmware_stateless") ?? "false")) return;
  if (imageString(spec.imageProps, "hw_firmware_type") !== "uefi")
    throw new NovaError("Invalid", "Stateless firmware is supported only when UEFI firmware type is used.");
  addTrait(rr, "COMPUTE_SECURITY_STATELESS_FIRMWARE", "required");
}

const MEM_ENCRYPTION_MODELS = ["amd-sev", "amd-sev-es"];

/**
 * ResourceRequest._translate_memory_encryption (Zed to 2025.1) and
 * _translate_mem_encryption_request (2025.2+) through
 * hardware.get_mem_encryption_constraint: hw:mem_encryption or
 * hw_mem_encryption asks MEM_ENCRYPTION_CONTEXT=1, refused when the two
 * conflict, without a UEFI image, or with an image machine type outside
 * the q35 family; from 32.0.0 the model (hw:mem_encryption_model or
 * hw_mem_encryption_model, amd-sev by default) also requires its trait.
 */
function translateMemEncryption(rr: ResourceRequest, spec: RequestSpec, models: boolean): void {
  const flavorText = extraSpec(spec, "hw:mem_encryption");
  const flavorEnc = flavorText === undefined ? null : boolFromString(flavorText);
  const image = spec.imageProps.get("hw_mem_encryption");
  const imageEnc = image === undefined || image === null ? null : Boolean(image);
  if (!flavorEnc && !imageEnc) return;
  const flavorName = spec.flavor.name;
  if (flavorEnc !== null && imageEnc !== null && flavorEnc !== imageEnc)
    throw new NovaError(
      "FlavorImageConflict",
      `Flavor ${flavorName} has hw:mem_encryption extra spec explicitly set to ${flavorText}, conflicting with image ${spec.imageName} which has hw_mem_encryption property explicitly set to ${imageEnc ? "True" : "False"}`,
    );
  const requesters: string[] = [];
  if (flavorEnc) requesters.push(`hw:mem_encryption extra spec in ${flavorName} flavor`);
  if (imageEnc) requesters.push(`hw_mem_encryption property of image ${spec.imageId}`);
  if (imageString(spec.imageProps, "hw_firmware_type") !== "uefi")
    throw new NovaError(
      "FlavorImageConflict",
      `Memory encryption requested by ${requesters.join(" and ")} but image ${spec.imageName} doesn't have 'hw_firmware_type' property set to 'uefi'`,
    );
  const machine = imageString(spec.imageProps, "hw_machine_type");
  if (machine !== undefined && !machine.includes("q35"))
    throw new NovaError(
      "InvalidMachineType",
      `Machine type ${machine} is not compatible with image ${spec.imageName} (${spec.imageId}): q35 type is required for SEV to work`,
    );
  addResource(rr, "MEM_ENCRYPTION_CONTEXT", 1);
  if (!models) return;
  const flavorModel = extraSpec(spec, "hw:mem_encryption_model");
  const imageModel = imageString(spec.imageProps, "hw_mem_encryption_model");
  if (flavorModel !== undefined && imageModel !== undefined && flavorModel !== imageModel)
    throw new NovaError(
      "FlavorImageConflict",
      `Flavor ${flavorName} has hw:mem_encryption_model extra spec explicitly set to ${flavorModel}, conflicting with image ${spec.imageName} which has hw_mem_encryption_model property explicitly set to ${imageModel}`,
    );
  const model = imageModel || flavorModel || "amd-sev";
  if (!MEM_ENCRYPTION_MODELS.includes(model))
    throw new NovaError(
      "Invalid",
      `Invalid memory encryption model ${pyRepr(model)}. Allowed values: ${MEM_ENCRYPTION_MODELS.join(", ")}.`,
    );
  addTrait(rr, model === "amd-sev-es" ? "HW_CPU_X86_AMD_SEV_ES" : "HW_CPU_X86_AMD_SEV", "required");
}

/** oslo strutils.bool_from_string (not strict), as ImageMetaProps reads a boolean. */
function boolFromString(v: string): boolean {
  return ["1", "t", "true", "on", "y", "yes"].includes(v.trim().toLowerCase());
}

/**
 * hardware.get_maxphysaddr_mode (flavor hw:maxphysaddr_mode, image
 * hw_maxphysaddr_mode; both set and different is FlavorImageConflict) and the
 * trait _translate_maxphysaddr_request requires for it. hw:maxphysaddr_bits
 * adds no trait: the bits are checked with ComputeCapabilitiesFilter
 * (capabilities:cpu_info:maxphysaddr:bits, added by the filter from 2024.1).
 * 2024.1, 1038a63387 "libvirt: Support maxphysaddr.".
 */
export function maxphysaddrTrait(spec: RequestSpec): string | null {
  const mode = uniqueFlavorImageMeta(spec, "maxphysaddr_mode", spec.newerImageProps.get("hw_maxphysaddr_mode"));
  if (!mode) return null;
  if (mode === "passthrough") return "COMPUTE_ADDRESS_SPACE_PASSTHROUGH";
  if (mode === "emulate") return "COMPUTE_ADDRESS_SPACE_EMULATED";
  throw new NovaError("Invalid", `Invalid Maxphyaddr mode ${pyRepr(mode)}. Allowed values: passthrough, emulate.`);
}

export interface ResourceRequestOptions {
  maxPlacementResults: number;
  /** False for the fallback query: PCPU is asked as VCPU. */
  enablePinningTranslate: boolean;
  isBfv: boolean;
  /** Uuids of the compute nodes of the first forced host/node; null when none is forced. */
  forcedNodes: string[] | null;
  /** The release has ResourceRequest._translate_maxphysaddr_request. */
  translateMaxphysaddr?: boolean;
  /** The release's _translate_vtpm_request adds the model trait, and it has _translate_stateless_firmware_request. */
  translateTpmModelAndStatelessFirmware?: boolean;
  /** The release's _translate_mem_encryption_request requires the model's trait (2025.2+). */
  memEncryptionModelTrait?: boolean;
}

/** ResourceRequest.from_request_spec followed by resources_from_request_spec. */
export function buildResourceRequest(
  spec: RequestSpec,
  filters: RequestFilterOutput,
  opts: ResourceRequestOptions,
): ResourceRequest {
  const rr: ResourceRequest = {
    groups: new Map(),
    groupPolicy: null,
    limit: opts.maxPlacementResults,
    rootRequired: filters.rootRequired,
    rootForbidden: filters.rootForbidden,
    cpuPinningRequested: false,
  };
  for (const { key, value } of spec.flavor.extraSpecs) {
    if (key === "group_policy") {
      if (value === "none" || value === "isolate") rr.groupPolicy = value;
      continue;
    }
    const m = XS_KEYPAT.exec(key);
    if (!m) continue;
    const [, prefix, suffix = "", name] = m;
    if (prefix === "resources") addResource(rr, name, value, suffix);
    else addTrait(rr, name, value, suffix);
  }
  const imageTraits = spec.imageProps.get("traits_required");
  if (Array.isArray(imageTraits)) for (const t of imageTraits) addTrait(rr, String(t), "required");
  if (opts.enablePinningTranslate) translatePinning(rr, spec);
  const merged = mergedResources(rr);
  const f = spec.flavor;
  if (!merged.has("VCPU") && !merged.has("PCPU")) addResource(rr, "VCPU", f.vcpus);
  if (!merged.has("MEMORY_MB")) addResource(rr, "MEMORY_MB", f.memoryMb);
  if (!merged.has("DISK_GB")) {
    let disk = f.ephemeralGb + Math.ceil(f.swap / 1024);
    if (!opts.isBfv) disk += f.rootGb;
    if (disk) addResource(rr, "DISK_GB", disk);
  }
  translateMemEncryption(rr, spec, opts.memEncryptionModelTrait ?? false);
  translateTraits(rr, spec, opts.translateTpmModelAndStatelessFirmware ?? false);
  if (opts.translateMaxphysaddr) {
    const trait = maxphysaddrTrait(spec);
    if (trait) addTrait(rr, trait, "required");
  }
  if (opts.translateTpmModelAndStatelessFirmware) translateStatelessFirmware(rr, spec);
  // strip_zeros: zero amounts vanish, then empty groups.
  for (const g of rr.groups.values()) for (const [rc, n] of g.resources) if (n === 0) g.resources.delete(rc);
  for (const [k, g] of rr.groups) {
    const empty =
      !g.resources.size && !g.required.size && !g.forbidden.size && !g.aggregates.length && !g.forbiddenAggregates.size;
    if (empty) rr.groups.delete(k);
  }
  // resources_from_request_spec: the Destination the request filters built.
  if (filters.requiredAggregates.length) group(rr, "").aggregates = filters.requiredAggregates.map((a) => [...a]);
  if (filters.forbiddenAggregates.size) {
    const g = group(rr, "");
    for (const a of filters.forbiddenAggregates) g.forbiddenAggregates.add(a);
  }
  if (opts.forcedNodes) {
    if (opts.forcedNodes.length === 1) group(rr, "").inTree = opts.forcedNodes[0];
    else rr.limit = null;
  }
  for (const key of ["group", "same_host", "different_host"]) if (spec.hints.has(key)) rr.limit = null;
  return rr;
}

/** The number of numbered (suffixed) groups. */
export function suffixedGroups(rr: ResourceRequest): number {
  let n = 0;
  for (const k of rr.groups.keys()) if (k !== "") n++;
  return n;
}

/** Every required trait of every group (ResourceRequest.all_required_traits). */
export function allRequiredTraits(rr: ResourceRequest): Set<string> {
  const out = new Set<string>();
  for (const g of rr.groups.values()) for (const t of g.required) out.add(t);
  return out;
}

const sortedStr = (xs: Iterable<string>) => [...xs].sort(cmp);

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** urllib.parse.quote_plus: only ASCII letters, digits and _.-~ stay as they are. */
export function quotePlus(s: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.~-]/.test(c)) out += c;
    else if (c === " ") out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** ResourceRequest.to_querystring: urlencode(sorted(qparams)). */
export function toQuerystring(rr: ResourceRequest): string {
  const q: Array<[string, string]> = [];
  if (rr.limit !== null) q.push(["limit", String(rr.limit)]);
  if (rr.groupPolicy !== null) q.push(["group_policy", rr.groupPolicy]);
  if (rr.rootRequired.size || rr.rootForbidden.size) {
    const vals = [...sortedStr(rr.rootRequired), ...sortedStr(rr.rootForbidden).map((t) => `!${t}`)];
    q.push(["root_required", vals.join(",")]);
  }
  for (const g of rr.groups.values()) {
    const s = g.suffix;
    q.push([`resources${s}`, sortedStr([...g.resources].map(([rc, n]) => `${rc}:${n}`)).join(",")]);
    const req = [...sortedStr(g.required), ...sortedStr(g.forbidden).map((t) => `!${t}`)].join(",");
    if (req) q.push([`required${s}`, req]);
    const aggs: Array<[string, string]> = g.aggregates.map((l) => [`member_of${s}`, `in:${sortedStr(l).join(",")}`]);
    q.push(...aggs);
    if (g.inTree) q.push([`in_tree${s}`, g.inTree]);
    if (g.forbiddenAggregates.size) q.push([`member_of${s}`, `!in:${sortedStr(g.forbiddenAggregates).join(",")}`]);
  }
  q.sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]));
  return q.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join("&");
}

/**
 * Nova's API validation of resources[N]:CLASS extra specs (the flavor
 * extra-spec validators refuse what the scheduler would silently ignore):
 * one message per bad key, naming it. For forms and imports; the scheduler
 * itself keeps Nova's behaviour (a bad amount is logged and ignored).
 */
export function resourceExtraSpecErrors(extraSpecs: Record<string, unknown>): string[] {
  const errors: string[] = [];
  for (const [key, value] of Object.entries(extraSpecs)) {
    const m = XS_KEYPAT.exec(key);
    if (m?.[1] !== "resources") continue;
    const field = `flavor.extra_specs["${key}"]`;
    if (!(m[3].startsWith("CUSTOM_") || STANDARD_RC.has(m[3])))
      errors.push(`${field}: unknown resource class ${m[3]} (standard or CUSTOM_*)`);
    else if (typeof value === "number" ? !Number.isInteger(value) || value < 0 : !/^\d+$/.test(String(value).trim()))
      errors.push(`${field}: must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return errors;
}
