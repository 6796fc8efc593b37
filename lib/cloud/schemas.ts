/**
 * Zod schemas for the scenario format (../shared/nova-reference/SCENARIO.md)
 * plus Schedscope's extensions. ONE place, shared by the import, the server
 * actions, the CLIs and the engine's CLI.
 *
 * Keep this module free of Prisma, Next.js and Node-only imports: it must be
 * cheap to import anywhere (also in client components for form validation).
 *
 * Two levels of checking:
 *   1. shape: `ScenarioSchema` / `CloudSchema` (types, ranges, required keys);
 *   2. cross references: `checkCloudReferences` (unknown host in an aggregate,
 *      duplicate names, a server group member that is no instance, an instance
 *      on two hosts, ...).
 * `validateScenario` / `validateCloud` run both and return messages of the form
 * `hosts[3].memory_mb: must be a non-negative integer (got -5)`.
 *
 * Unknown keys are kept (loose objects), as the Nova reference ignores them;
 * `checkCloudReferences` reports them as warnings where the database cannot
 * store them.
 */
import { z } from "zod";
import { FILTER_NAMES, PREFILTER_NAMES, WEIGHER_NAMES } from "@/lib/scheduler/names";

// ---------------------------------------------------------------------------
// Messages

function shown(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** Error callback: "is required" when missing, else `rule (got X)`. */
function rule(text: string) {
  return (iss: { input?: unknown }) => (iss.input === undefined ? "is required" : `${text} (got ${shown(iss.input)})`);
}

// ---------------------------------------------------------------------------
// Scalars

const NON_NEG_INT = "must be a non-negative integer";
const INT = "must be an integer";
const NON_NEG_NUM = "must be a non-negative number";
const POS_INT = "must be an integer >= 1";

export const nonNegInt = () =>
  z
    .number({ error: rule(NON_NEG_INT) })
    .int({ error: rule(NON_NEG_INT) })
    .min(0, { error: rule(NON_NEG_INT) });
export const anyInt = () => z.number({ error: rule(INT) }).int({ error: rule(INT) });
export const posInt = () =>
  z
    .number({ error: rule(POS_INT) })
    .int({ error: rule(POS_INT) })
    .min(1, { error: rule(POS_INT) });
export const nonNegNumber = () => z.number({ error: rule(NON_NEG_NUM) }).min(0, { error: rule(NON_NEG_NUM) });
export const finiteNumber = () => z.number({ error: rule("must be a number") });
export const nonEmptyString = () =>
  z.string({ error: rule("must be a non-empty string") }).min(1, { error: rule("must be a non-empty string") });
const str = () => z.string({ error: rule("must be a string") });
const bool = () => z.boolean({ error: rule("must be true or false") });
const stringList = (what = "a list of strings") =>
  z.array(z.string({ error: rule("must be a string") }), { error: rule(`must be ${what}`) });
const nonEmptyStringList = (what = "a list of non-empty strings") =>
  z.array(nonEmptyString(), { error: rule(`must be ${what}`) });

/** Python's str() of a scalar, as the reference applies to metadata/extra specs. */
export function pythonStr(v: string | number | boolean | null): string {
  if (typeof v === "string") return v;
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (Number.isInteger(v) && Math.abs(v) < 1e16) return String(v);
  return String(v);
}

/**
 * A string-valued map (aggregate metadata, flavor extra specs). Nova stores
 * strings; numbers and booleans are accepted and turned into Python's str()
 * form (true -> "True"), as the reference does (a float written as 1.0 in
 * JSON arrives as 1 and becomes "1").
 */
const stringMap = (what: string) =>
  z.record(
    z.string(),
    z
      .union([z.string(), z.number(), z.boolean(), z.null()], {
        error: rule("must be a string"),
      })
      .transform((v) => pythonStr(v)),
    { error: rule(`must be an object of ${what}`) },
  );

const ipAddress = () => z.union([z.ipv4(), z.ipv6()], { error: rule("must be an IPv4 or IPv6 address") });

/** Placement trait names: A-Z, 0-9 and _ (standard os-traits or CUSTOM_*). */
export const TRAIT_NAME = /^[A-Z0-9_]{1,255}$/;
const traitName = () =>
  z
    .string({ error: rule("must be a trait name") })
    .regex(TRAIT_NAME, { error: rule("must be a trait name (A-Z, 0-9, _; e.g. HW_GPU_API_VULKAN)") });

// ---------------------------------------------------------------------------
// Hosts

export const ServiceSchema = z.looseObject(
  {
    disabled: bool().optional(),
    disabled_reason: str().nullable().optional(),
    up: bool().optional(),
    forced_down: bool().optional(),
  },
  { error: rule("must be an object") },
);

export const MetricSchema = z.looseObject(
  {
    name: nonEmptyString(),
    value: finiteNumber(),
  },
  { error: rule("must be an object {name, value}") },
);

export const SupportedInstanceSchema = z.tuple([str(), str(), str()], {
  error: rule("must be [arch, hypervisor_type, vm_mode]"),
});

export const HostSchema = z.looseObject(
  {
    name: nonEmptyString(),
    node: nonEmptyString().optional(),
    uuid: nonEmptyString().optional(),
    cell: nonEmptyString().optional(),
    vcpus: nonNegInt(),
    vcpus_used: nonNegInt().optional(),
    memory_mb: nonNegInt(),
    memory_mb_used: nonNegInt().optional(),
    free_ram_mb: anyInt().optional(),
    local_gb: nonNegInt(),
    local_gb_used: nonNegInt().optional(),
    free_disk_gb: anyInt().optional(),
    disk_available_least: anyInt().nullable().optional(),
    hypervisor_type: nonEmptyString().optional(),
    hypervisor_version: nonNegInt().optional(),
    host_ip: ipAddress().optional(),
    supported_instances: z
      .array(SupportedInstanceSchema, { error: rule("must be a list of [arch, hypervisor_type, vm_mode]") })
      .optional(),
    cpu_info: z.record(z.string(), z.unknown(), { error: rule("must be an object") }).optional(),
    num_instances: nonNegInt().optional(),
    num_io_ops: nonNegInt().optional(),
    failed_builds: nonNegInt().optional(),
    cpu_allocation_ratio: nonNegNumber().optional(),
    ram_allocation_ratio: nonNegNumber().optional(),
    disk_allocation_ratio: nonNegNumber().optional(),
    service: ServiceSchema.optional(),
    metrics: z.array(MetricSchema, { error: rule("must be a list of {name, value}") }).optional(),
    instances: nonEmptyStringList("a list of instance uuids").optional(),
    // Schedscope extensions (Placement)
    traits: z.array(traitName(), { error: rule("must be a list of trait names") }).optional(),
    reserved_vcpus: nonNegInt().optional(),
    reserved_memory_mb: nonNegInt().optional(),
    reserved_disk_gb: nonNegInt().optional(),
  },
  { error: rule("must be an object") },
);

/** Values the Nova reference assumes for host keys left out. */
export const HOST_DEFAULTS = {
  cell: "cell1",
  vcpus_used: 0,
  memory_mb_used: 0,
  local_gb_used: 0,
  hypervisor_type: "QEMU",
  hypervisor_version: 6002000,
  host_ip: "10.0.0.1",
  num_instances: 0,
  num_io_ops: 0,
  failed_builds: 0,
  cpu_allocation_ratio: 4.0,
  ram_allocation_ratio: 1.0,
  disk_allocation_ratio: 1.0,
  reserved_vcpus: 0,
  reserved_memory_mb: 0,
  reserved_disk_gb: 0,
} as const;

// ---------------------------------------------------------------------------
// Aggregates, server groups

export const AggregateSchema = z.looseObject(
  {
    name: nonEmptyString(),
    id: anyInt().optional(),
    uuid: nonEmptyString().optional(),
    availability_zone: nonEmptyString().nullable().optional(),
    hosts: nonEmptyStringList("a list of host names").optional(),
    metadata: stringMap("string values").optional(),
  },
  { error: rule("must be an object") },
);

export const SERVER_GROUP_POLICIES = ["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"] as const;

export const ServerGroupSchema = z.looseObject(
  {
    uuid: nonEmptyString().optional(),
    name: nonEmptyString(),
    policy: z.enum(SERVER_GROUP_POLICIES, {
      error: rule(`must be one of ${SERVER_GROUP_POLICIES.join(", ")}`),
    }),
    rules: z
      .record(z.string(), z.union([z.string(), z.number()], { error: rule("must be a string or a number") }), {
        error: rule("must be an object"),
      })
      .superRefine((r, ctx) => {
        const v = r.max_server_per_host;
        if (v !== undefined && !(/^\s*\d+\s*$/.test(String(v)) && Number(v) >= 1)) {
          ctx.addIssue({ code: "custom", path: ["max_server_per_host"], message: `${POS_INT} (got ${shown(v)})` });
        }
      })
      .optional(),
    members: nonEmptyStringList("a list of instance uuids").optional(),
    project_id: nonEmptyString().optional(),
  },
  { error: rule("must be an object") },
);

// ---------------------------------------------------------------------------
// Flavors, images, instances

export const FlavorSchema = z.looseObject(
  {
    name: nonEmptyString(),
    id: z
      .union([nonEmptyString(), anyInt()], { error: rule("must be a string") })
      .transform(String)
      .optional(),
    vcpus: nonNegInt(),
    memory_mb: nonNegInt(),
    root_gb: nonNegInt().optional(),
    ephemeral_gb: nonNegInt().optional(),
    swap: nonNegInt().optional(),
    is_public: bool().optional(),
    description: str().nullable().optional(),
    extra_specs: stringMap("string values").optional(),
  },
  { error: rule("must be an object") },
);

const imagePropertyValue = z.union([z.string(), z.number(), z.boolean()], {
  error: rule("must be a string, number or boolean"),
});

export const ImageSchema = z.looseObject(
  {
    id: nonEmptyString().optional(),
    name: str().optional(),
    properties: z.record(z.string(), imagePropertyValue, { error: rule("must be an object") }).optional(),
  },
  { error: rule("must be an object") },
);

/**
 * Schedscope extension (export of a whole cloud): attributes of instances
 * beyond placement. Where an instance runs is `hosts[].instances`, its group
 * is `server_groups[].members`; an instance listed here and on no host is not
 * on any host (e.g. its host was deleted).
 */
export const InstanceSchema = z.looseObject(
  {
    uuid: nonEmptyString(),
    name: str().nullable().optional(),
    flavor: nonEmptyString().nullable().optional(),
    image: nonEmptyString().nullable().optional(),
    project_id: nonEmptyString().nullable().optional(),
  },
  { error: rule("must be an object") },
);

// ---------------------------------------------------------------------------
// Config

/** Names from the engine (lib/scheduler/names.ts, dependency-free): one list, no drift. */
export const PLACEMENT_PREFILTERS = PREFILTER_NAMES;
/** Nova Zed's filter classes (nova.scheduler.filters.all_filters()). */
export const NOVA_FILTERS = FILTER_NAMES;
/** Zed's ten weighers plus HypervisorVersionWeigher and NumInstancesWeigher (2024.1). */
export const NOVA_WEIGHERS = WEIGHER_NAMES;

const multiplier = () => finiteNumber().optional();
const nonNegMultiplier = () => nonNegNumber().optional();

export const ConfigSchema = z.looseObject(
  {
    enabled_filters: nonEmptyStringList("a list of filter class names").optional(),
    weighers: z
      .union([z.literal("all"), nonEmptyStringList("a list of weigher class names")], {
        error: rule('must be "all" or a list of weigher class names'),
      })
      .optional(),
    ram_weight_multiplier: multiplier(),
    cpu_weight_multiplier: multiplier(),
    disk_weight_multiplier: multiplier(),
    io_ops_weight_multiplier: multiplier(),
    pci_weight_multiplier: nonNegMultiplier(),
    soft_affinity_weight_multiplier: nonNegMultiplier(),
    soft_anti_affinity_weight_multiplier: nonNegMultiplier(),
    build_failure_weight_multiplier: multiplier(),
    cross_cell_move_weight_multiplier: multiplier(),
    hypervisor_version_weight_multiplier: multiplier(),
    num_instances_weight_multiplier: multiplier(),
    metrics_weight_setting: z
      .union([z.string(), z.array(z.string())], { error: rule('must be "name=ratio, ..." or a list of them') })
      .optional(),
    metrics_weight_multiplier: multiplier(),
    metrics_required: bool().optional(),
    metrics_weight_of_unavailable: multiplier(),
    host_subset_size: posInt().optional(),
    shuffle_best_same_weighed_hosts: bool().optional(),
    max_attempts: posInt().optional(),
    max_instances_per_host: nonNegInt().optional(),
    max_io_ops_per_host: nonNegInt().optional(),
    isolated_hosts: stringList().optional(),
    isolated_images: stringList().optional(),
    restrict_isolated_hosts_to_isolated_images: bool().optional(),
    aggregate_image_properties_isolation_namespace: str().nullable().optional(),
    aggregate_image_properties_isolation_separator: str().optional(),
    default_availability_zone: str().optional(),
    image_properties_default_architecture: str().nullable().optional(),
    placement_prefilters: nonEmptyStringList("a list of prefilter names").optional(),
  },
  { error: rule("must be an object") },
);

// ---------------------------------------------------------------------------
// Request

const hostList = () => stringList("a list of host names").nullable().optional();

export const RequestSchema = z.looseObject(
  {
    flavor: FlavorSchema,
    image: ImageSchema.nullable().optional(),
    num_instances: posInt().optional(),
    availability_zone: str().nullable().optional(),
    project_id: str().optional(),
    server_group: nonEmptyString().nullable().optional(),
    scheduler_hints: z
      .record(
        z.string(),
        z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))], {
          error: rule("must be a string, a number or a list of them"),
        }),
        { error: rule("must be an object") },
      )
      .optional(),
    ignore_hosts: hostList(),
    force_hosts: hostList(),
    force_nodes: hostList(),
    is_bfv: bool().optional(),
  },
  { error: rule("must be an object") },
);

// ---------------------------------------------------------------------------
// Documents

const cloudShape = {
  config: ConfigSchema.optional(),
  hosts: z.array(HostSchema, { error: rule("must be a list of hosts") }),
  aggregates: z.array(AggregateSchema, { error: rule("must be a list of aggregates") }).optional(),
  server_groups: z.array(ServerGroupSchema, { error: rule("must be a list of server groups") }).optional(),
  // Schedscope extensions: the rest of a whole cloud
  flavors: z.array(FlavorSchema, { error: rule("must be a list of flavors") }).optional(),
  images: z.array(ImageSchema, { error: rule("must be a list of images") }).optional(),
  instances: z.array(InstanceSchema, { error: rule("must be a list of instances") }).optional(),
};

/** A scenario: the cloud, the config and one request (what the engine reads). */
export const ScenarioSchema = z.looseObject(
  { ...cloudShape, request: RequestSchema },
  { error: rule("must be a JSON object") },
);

/** A whole cloud (import/export): a scenario whose request is optional. */
export const CloudSchema = z.looseObject(
  { ...cloudShape, request: RequestSchema.optional() },
  { error: rule("must be a JSON object") },
);

export type ScenarioHostInput = z.output<typeof HostSchema>;
export type ScenarioAggregateInput = z.output<typeof AggregateSchema>;
export type ScenarioServerGroupInput = z.output<typeof ServerGroupSchema>;
export type ScenarioFlavorInput = z.output<typeof FlavorSchema>;
export type ScenarioImageInput = z.output<typeof ImageSchema>;
export type ScenarioInstanceInput = z.output<typeof InstanceSchema>;
export type ScenarioConfigInput = z.output<typeof ConfigSchema>;
export type ScenarioRequestInput = z.output<typeof RequestSchema>;
export type ScenarioDocument = z.output<typeof ScenarioSchema>;
export type CloudDocument = z.output<typeof CloudSchema>;

// ---------------------------------------------------------------------------
// Error formatting

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (typeof p === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out || "(document)";
}

/** `path: message` for each issue, e.g. `hosts[3].memory_mb: must be a non-negative integer (got -5)`. */
export function formatZodError(err: z.ZodError | { issues: z.core.$ZodIssue[] }): string[] {
  const out: string[] = [];
  for (const issue of err.issues) {
    if (issue.code === "unrecognized_keys") {
      out.push(`${formatPath(issue.path)}: unknown key(s) ${issue.keys.join(", ")}`);
    } else {
      out.push(`${formatPath(issue.path)}: ${issue.message}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Cross references

export interface CheckResult {
  errors: string[];
  warnings: string[];
}

type CloudLike = CloudDocument;

function knownKeys(schema: { shape: Record<string, unknown> }): Set<string> {
  return new Set(Object.keys(schema.shape));
}
const HOST_KEYS = knownKeys(HostSchema);
const AGG_KEYS = knownKeys(AggregateSchema);
const SG_KEYS = knownKeys(ServerGroupSchema);
const FLAVOR_KEYS = knownKeys(FlavorSchema);
const IMAGE_KEYS = knownKeys(ImageSchema);
const INSTANCE_KEYS = knownKeys(InstanceSchema);
const SERVICE_KEYS = knownKeys(ServiceSchema);
const TOP_KEYS = new Set([...Object.keys(cloudShape), "request"]);

function unknownKeys(obj: object, known: Set<string>, where: string, warnings: string[], what: string) {
  const extra = Object.keys(obj).filter((k) => !known.has(k));
  if (extra.length) warnings.push(`${where}: unknown key(s) ${extra.join(", ")} (${what})`);
}

/**
 * Checks that need the whole document: names are unique, every reference
 * resolves, every instance is in one place. `opts.forImport` adds warnings
 * for what the database cannot keep (unknown keys).
 */
export function checkCloudReferences(doc: CloudLike, opts: { forImport?: boolean } = {}): CheckResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const ignored = "ignored: not stored in the database";

  if (opts.forImport) unknownKeys(doc, TOP_KEYS, "(document)", warnings, ignored);

  // hosts
  const hostIndex = new Map<string, number>();
  const uuidIndex = new Map<string, number>();
  const instanceHost = new Map<string, string>(); // instance uuid -> "hosts[i]"
  doc.hosts.forEach((h, i) => {
    const where = `hosts[${i}]`;
    const first = hostIndex.get(h.name);
    if (first !== undefined) errors.push(`${where}.name: duplicate host name "${h.name}" (also hosts[${first}])`);
    else hostIndex.set(h.name, i);
    if (h.uuid !== undefined) {
      const u = uuidIndex.get(h.uuid);
      if (u !== undefined) errors.push(`${where}.uuid: duplicate host uuid "${h.uuid}" (also hosts[${u}])`);
      else uuidIndex.set(h.uuid, i);
    }
    const metricNames = new Set<string>();
    (h.metrics ?? []).forEach((m, j) => {
      if (metricNames.has(m.name))
        errors.push(`${where}.metrics[${j}].name: duplicate metric "${m.name}" on this host`);
      metricNames.add(m.name);
    });
    const traits = new Set<string>();
    (h.traits ?? []).forEach((t, j) => {
      if (traits.has(t)) errors.push(`${where}.traits[${j}]: duplicate trait "${t}" on this host`);
      traits.add(t);
    });
    (h.instances ?? []).forEach((u, j) => {
      const other = instanceHost.get(u);
      if (other !== undefined) {
        errors.push(`${where}.instances[${j}]: instance "${u}" is also on ${other} (an instance runs on one host)`);
      } else instanceHost.set(u, `${where} (${h.name})`);
    });
    if (opts.forImport) {
      unknownKeys(h, HOST_KEYS, where, warnings, ignored);
      if (h.service) unknownKeys(h.service, SERVICE_KEYS, `${where}.service`, warnings, ignored);
    }
  });

  // aggregates
  const aggIndex = new Map<string, number>();
  const aggUuids = new Map<string, number>();
  (doc.aggregates ?? []).forEach((a, i) => {
    const where = `aggregates[${i}]`;
    const first = aggIndex.get(a.name);
    if (first !== undefined)
      errors.push(`${where}.name: duplicate aggregate name "${a.name}" (also aggregates[${first}])`);
    else aggIndex.set(a.name, i);
    if (a.uuid !== undefined) {
      const u = aggUuids.get(a.uuid);
      if (u !== undefined) errors.push(`${where}.uuid: duplicate aggregate uuid "${a.uuid}" (also aggregates[${u}])`);
      else aggUuids.set(a.uuid, i);
    }
    const seen = new Set<string>();
    (a.hosts ?? []).forEach((hn, j) => {
      if (!hostIndex.has(hn)) errors.push(`${where}.hosts[${j}]: unknown host "${hn}" (not in hosts)`);
      if (seen.has(hn)) errors.push(`${where}.hosts[${j}]: host "${hn}" listed twice in this aggregate`);
      seen.add(hn);
    });
    const mdAz = a.metadata?.availability_zone;
    if (mdAz !== undefined && a.availability_zone != null && mdAz !== a.availability_zone) {
      errors.push(
        `${where}.metadata.availability_zone: "${mdAz}" contradicts availability_zone "${a.availability_zone}"`,
      );
    }
    if (opts.forImport) unknownKeys(a, AGG_KEYS, where, warnings, ignored);
  });

  // flavors, images
  const flavorIndex = new Map<string, number>();
  const flavorIds = new Map<string, number>();
  (doc.flavors ?? []).forEach((f, i) => {
    const first = flavorIndex.get(f.name);
    if (first !== undefined)
      errors.push(`flavors[${i}].name: duplicate flavor name "${f.name}" (also flavors[${first}])`);
    else flavorIndex.set(f.name, i);
    if (f.id !== undefined) {
      const u = flavorIds.get(f.id);
      if (u !== undefined) errors.push(`flavors[${i}].id: duplicate flavor id "${f.id}" (also flavors[${u}])`);
      else flavorIds.set(f.id, i);
    }
    if (opts.forImport) unknownKeys(f, FLAVOR_KEYS, `flavors[${i}]`, warnings, ignored);
  });
  const imageIndex = new Map<string, number>();
  (doc.images ?? []).forEach((im, i) => {
    if (im.id === undefined) {
      errors.push(`images[${i}].id: is required (an image in the images list needs its uuid)`);
      return;
    }
    const first = imageIndex.get(im.id);
    if (first !== undefined) errors.push(`images[${i}].id: duplicate image id "${im.id}" (also images[${first}])`);
    else imageIndex.set(im.id, i);
    if (opts.forImport) unknownKeys(im, IMAGE_KEYS, `images[${i}]`, warnings, ignored);
  });

  // instances (extension list)
  const instanceIndex = new Map<string, number>();
  (doc.instances ?? []).forEach((inst, i) => {
    const where = `instances[${i}]`;
    const first = instanceIndex.get(inst.uuid);
    if (first !== undefined) errors.push(`${where}.uuid: duplicate instance "${inst.uuid}" (also instances[${first}])`);
    else instanceIndex.set(inst.uuid, i);
    const reqFlavor = doc.request?.flavor?.name;
    if (inst.flavor != null && !flavorIndex.has(inst.flavor) && inst.flavor !== reqFlavor) {
      errors.push(`${where}.flavor: unknown flavor "${inst.flavor}" (not in flavors)`);
    }
    const reqImage = doc.request?.image?.id;
    if (inst.image != null && !imageIndex.has(inst.image) && inst.image !== reqImage) {
      errors.push(`${where}.image: unknown image "${inst.image}" (not in images)`);
    }
    if (opts.forImport) unknownKeys(inst, INSTANCE_KEYS, where, warnings, ignored);
  });

  // server groups
  const sgUuids = new Map<string, number>();
  const sgNames = new Map<string, number>();
  const memberOf = new Map<string, number>();
  (doc.server_groups ?? []).forEach((g, i) => {
    const where = `server_groups[${i}]`;
    if (g.uuid !== undefined) {
      const u = sgUuids.get(g.uuid);
      if (u !== undefined)
        errors.push(`${where}.uuid: duplicate server group uuid "${g.uuid}" (also server_groups[${u}])`);
      else sgUuids.set(g.uuid, i);
    }
    const n = sgNames.get(g.name);
    if (n !== undefined) {
      warnings.push(
        `${where}.name: server group name "${g.name}" also used by server_groups[${n}] (refer to it by uuid)`,
      );
    } else sgNames.set(g.name, i);
    if (g.rules?.max_server_per_host !== undefined && g.policy !== "anti-affinity") {
      warnings.push(`${where}.rules.max_server_per_host: only the anti-affinity policy uses it`);
    }
    (g.members ?? []).forEach((u, j) => {
      if (!instanceHost.has(u) && !instanceIndex.has(u)) {
        errors.push(
          `${where}.members[${j}]: "${u}" is not an instance (not in any host's instances nor in the instances list)`,
        );
      }
      const other = memberOf.get(u);
      if (other === i) errors.push(`${where}.members[${j}]: instance "${u}" listed twice`);
      else if (other !== undefined) {
        errors.push(
          `${where}.members[${j}]: instance "${u}" is also a member of server_groups[${other}] (one group per instance)`,
        );
      } else memberOf.set(u, i);
    });
    if (opts.forImport) unknownKeys(g, SG_KEYS, where, warnings, ignored);
  });

  // config
  const cfg = doc.config;
  if (cfg) {
    const filters = new Set<string>(NOVA_FILTERS);
    (cfg.enabled_filters ?? []).forEach((f, i) => {
      if (!filters.has(f)) warnings.push(`config.enabled_filters[${i}]: "${f}" is not a Nova Zed filter`);
    });
    if (Array.isArray(cfg.weighers)) {
      const weighers = new Set<string>(NOVA_WEIGHERS);
      cfg.weighers.forEach((w, i) => {
        if (!weighers.has(w)) warnings.push(`config.weighers[${i}]: "${w}" is not a Nova weigher`);
      });
    }
    const prefilters = new Set<string>(PLACEMENT_PREFILTERS);
    (cfg.placement_prefilters ?? []).forEach((p, i) => {
      if (!prefilters.has(p)) warnings.push(`config.placement_prefilters[${i}]: "${p}" is not a known prefilter`);
    });
  }

  // request
  const req = doc.request;
  if (req) {
    if (req.server_group != null && !sgUuids.has(req.server_group) && !sgNames.has(req.server_group)) {
      errors.push(`request.server_group: unknown server group "${req.server_group}" (no uuid or name matches)`);
    }
    const f = req.flavor;
    const fi = flavorIndex.get(f.name);
    if (fi !== undefined && !sameFlavor(f, doc.flavors![fi])) {
      warnings.push(
        `request.flavor: differs from flavors[${fi}] "${f.name}"; the flavors entry is what the database keeps`,
      );
    }
  }

  return { errors, warnings };
}

function sameFlavor(a: ScenarioFlavorInput, b: ScenarioFlavorInput): boolean {
  const norm = (f: ScenarioFlavorInput) =>
    JSON.stringify([
      f.vcpus,
      f.memory_mb,
      f.root_gb ?? 0,
      f.ephemeral_gb ?? 0,
      f.swap ?? 0,
      Object.entries(f.extra_specs ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
    ]);
  return norm(a) === norm(b);
}

// ---------------------------------------------------------------------------
// One-call validation

export type Validated<T> =
  | { ok: true; value: T; errors: []; warnings: string[] }
  | { ok: false; value?: undefined; errors: string[]; warnings: string[] };

function validateWith<T extends CloudLike>(
  schema: z.ZodType<T>,
  input: unknown,
  opts: { forImport?: boolean },
): Validated<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: formatZodError(parsed.error), warnings: [] };
  const refs = checkCloudReferences(parsed.data, opts);
  if (refs.errors.length) return { ok: false, errors: refs.errors, warnings: refs.warnings };
  return { ok: true, value: parsed.data, errors: [], warnings: refs.warnings };
}

/** Shape + cross references of a scenario (request required). */
export function validateScenario(input: unknown, opts: { forImport?: boolean } = {}): Validated<ScenarioDocument> {
  return validateWith(ScenarioSchema as z.ZodType<ScenarioDocument>, input, opts);
}

/** Shape + cross references of a whole cloud (request optional). */
export function validateCloud(input: unknown, opts: { forImport?: boolean } = {}): Validated<CloudDocument> {
  return validateWith(CloudSchema as z.ZodType<CloudDocument>, input, opts);
}

/** Parse JSON text, reporting a syntax error as a validation error. */
export function parseJsonText(
  text: string,
  source = "input",
): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: `${source}: not valid JSON (${(e as Error).message})` };
  }
}
