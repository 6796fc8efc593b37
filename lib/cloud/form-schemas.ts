/**
 * Zod schemas of the edit forms: what a server action accepts from
 * a form (strings from FormData, see formToObject in lib/actions/mutation.ts).
 * Every message names the field and the rule ("vcpus: must be a whole number
 * >= 1, got "x""), and mutate() returns them as field errors.
 *
 * Pure and browser-safe (no Prisma, no Next.js, no engine registry): the
 * scheduler profile schema takes the known filter/weigher names as an
 * argument (the server passes FILTERS/WEIGHERS from the engine).
 */
import { readUserJson } from "@/lib/core/input-limits";
import { recordId } from "@/lib/core/record-id";
import { z } from "zod";
import { OPTION_DOCS } from "@/lib/scheduler/config";
import { pyFloat } from "@/lib/scheduler/python";
import type { ScenarioConfig } from "@/lib/scheduler/scenario";
import { metadataKeyError, metadataValueError } from "../catalog/metadata-keys";
import { extraSpecKeyError, extraSpecValueError } from "../catalog/extra-specs";
import { describeHwImageProperty } from "../catalog/hw-specs";
import { PCI_ALIAS_FIELDS, PLACEMENT_OPTION_DOCS } from "../catalog/placement-options";
import { ConfigSchema, checkProfileConfig, NOVA_RELEASES } from "../scenario/schema";

// ---------------------------------------------------------------------------
// Field helpers (inputs are strings; a missing field is undefined)

const quoted = (v: string) => (v.length > 40 ? `"${v.slice(0, 37)}..."` : `"${v}"`);

export function requiredText(field: string, max = 255) {
  return z
    .string({ error: `${field}: is required` })
    .trim()
    .min(1, { error: `${field}: is required` })
    .max(max, { error: `${field}: must be at most ${max} characters` });
}

/** Empty or missing → null. */
export function optionalText(field: string, max = 255) {
  return z
    .string({ error: `${field}: must be text` })
    .trim()
    .max(max, { error: `${field}: must be at most ${max} characters` })
    .optional()
    .transform((v) => (v ? v : null));
}

/** A whole number (decimal digits) >= min. Empty → `dflt` when given, else "is required". */
export function intText(field: string, min: number, dflt?: number) {
  return z
    .string({ error: `${field}: is required` })
    .optional()
    .transform((raw, ctx) => {
      const v = (raw ?? "").trim();
      if (!v) {
        if (dflt !== undefined) return dflt;
        ctx.addIssue({ code: "custom", message: `${field}: is required` });
        return z.NEVER;
      }
      if (!/^[+-]?\d+$/.test(v)) {
        ctx.addIssue({ code: "custom", message: `${field}: must be a whole number >= ${min}, got ${quoted(v)}` });
        return z.NEVER;
      }
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < min) {
        ctx.addIssue({ code: "custom", message: `${field}: must be a whole number >= ${min}, got ${v}` });
        return z.NEVER;
      }
      return n;
    });
}

/** Checkbox: "on"/"true" → true, missing → false. */
export const checkbox = () =>
  z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "true");

/** Repeated inputs: undefined | string | string[] → string[]. */
export const stringArray = (field: string) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.string({ error: `${field}: must be a list of names` })),
  );

/** One row of a key/value editor (aggregate metadata, extra spec, image property); original_key = the row's key before the edit. */
const kvRowFields = {
  id: recordId(),
  original_key: z.string().optional(),
  key: z.string({ error: "key: is required" }).trim(),
  value: z.string({ error: "value: is required" }),
};

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const optionalUuid = (field: string) =>
  optionalText(field, 36).refine((v) => v === null || UUID.test(v), {
    error: `${field}: must be a UUID like 1b671a64-40d5-491e-99b0-da01ff1f3341 (or empty to generate one)`,
  });

// ---------------------------------------------------------------------------
// Hosts

export const HostServiceSchema = z
  .object({
    host: requiredText("host"),
    disabled: z.enum(["true", "false"], { error: "disabled: must be true or false" }).transform((v) => v === "true"),
    reason: optionalText("reason"),
  })
  .superRefine((d, ctx) => {
    if (d.disabled && !d.reason) {
      ctx.addIssue({
        code: "custom",
        path: ["reason"],
        message: "reason: is required when disabling the service (say why the host is out of rotation)",
      });
    }
  });

// ---------------------------------------------------------------------------
// Aggregates

const availabilityZone = () =>
  optionalText("availability_zone").superRefine((v, ctx) => {
    if (v === null) return;
    const err = metadataValueError("availability_zone", v);
    if (err) ctx.addIssue({ code: "custom", message: err.replace(/^value: /, "availability_zone: ") });
  });

export const AggregateCreateSchema = z.object({
  name: requiredText("name"),
  availability_zone: availabilityZone(),
});

export const AggregateRenameSchema = z.object({ id: recordId(), name: requiredText("name") });
export const AggregateZoneSchema = z.object({ id: recordId(), availability_zone: availabilityZone() });
export const AggregateIdSchema = z.object({ id: recordId() });

export const AggregateMetadataSchema = z.object(kvRowFields).superRefine((d, ctx) => {
  const keyErr = metadataKeyError(d.key);
  if (keyErr) ctx.addIssue({ code: "custom", path: ["key"], message: keyErr });
  if (!d.value.trim()) {
    ctx.addIssue({ code: "custom", path: ["value"], message: "value: is required (remove the key to clear it)" });
    return;
  }
  if (!keyErr) {
    const valErr = metadataValueError(d.key, d.value);
    if (valErr) ctx.addIssue({ code: "custom", path: ["value"], message: valErr });
  }
});

export const AggregateMetadataRemoveSchema = z.object({ id: recordId(), key: requiredText("key") });

export const AggregateHostsAddSchema = z.object({
  id: recordId(),
  hosts: stringArray("hosts").pipe(
    z
      .array(z.string())
      .min(1, { error: "hosts: choose at least one host to add" })
      .max(1000, { error: "hosts: at most 1000 at a time" }),
  ),
});

export const AggregateHostRemoveSchema = z.object({ id: recordId(), host: requiredText("host") });

// ---------------------------------------------------------------------------
// Flavors

const FLAVORID = /^[\w.\- ]{1,255}$/;

export const FlavorSchema = z.object({
  id: recordId().optional(),
  name: requiredText("name"),
  flavorid: optionalText("flavorid").refine((v) => v === null || FLAVORID.test(v), {
    error: "flavorid: may only contain letters, digits, '_', '-', '.' and spaces",
  }),
  vcpus: intText("vcpus", 1),
  memory_mb: intText("memory_mb", 1),
  root_gb: intText("root_gb", 0, 0),
  ephemeral_gb: intText("ephemeral_gb", 0, 0),
  swap: intText("swap", 0, 0),
  is_public: checkbox(),
  description: optionalText("description", 65535),
});

export const FlavorIdSchema = z.object({ id: recordId() });

export const FlavorExtraSpecSchema = z.object(kvRowFields).superRefine((d, ctx) => {
  const keyErr = extraSpecKeyError(d.key);
  if (keyErr) ctx.addIssue({ code: "custom", path: ["key"], message: keyErr });
  const valErr = extraSpecValueError(d.key, d.value);
  if (valErr) ctx.addIssue({ code: "custom", path: ["value"], message: valErr });
});

export const FlavorExtraSpecRemoveSchema = z.object({ id: recordId(), key: requiredText("key") });

// ---------------------------------------------------------------------------
// Images

export const IMAGE_PROPERTY_KEY = /^[\w.:-]{1,255}$/;

export const ImageSchema = z.object({
  id: recordId().optional(),
  uuid: optionalUuid("uuid"),
  name: optionalText("name"),
});

export const ImageIdSchema = z.object({ id: recordId() });

export const ImagePropertySchema = z.object({ ...kvRowFields, json: checkbox() }).superRefine((d, ctx) => {
  if (!d.key) ctx.addIssue({ code: "custom", path: ["key"], message: "key: is required" });
  else if (!IMAGE_PROPERTY_KEY.test(d.key)) {
    ctx.addIssue({
      code: "custom",
      path: ["key"],
      message: "key: may only contain letters, digits, '_', '-', '.' and ':'",
    });
  }
  if (d.json) {
    const read = readUserJson(d.value, "value", { maxBytes: 65535 });
    if (!read.ok) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: read.message.includes("not valid JSON")
          ? `value: with JSON checked, must be valid JSON, got ${quoted(d.value.slice(0, 200))}`
          : read.message,
      });
      return;
    }
    const v = read.value;
    if (!(typeof v === "number" || typeof v === "boolean" || Array.isArray(v))) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: "value: with JSON checked, must be a number, true/false or a list",
      });
    }
  } else if (d.value.length > 65535) {
    ctx.addIssue({ code: "custom", path: ["value"], message: "value: must be at most 65535 characters" });
  }
  // the NUMA/CPU/page/PCI properties Nova reads when it builds the request
  const hw = d.key ? describeHwImageProperty(d.key, d.value) : null;
  if (hw?.error) ctx.addIssue({ code: "custom", path: ["value"], message: hw.error });
});

export const ImagePropertyRemoveSchema = z.object({ id: recordId(), key: requiredText("key") });

// ---------------------------------------------------------------------------
// Server groups and instances

export const SERVER_GROUP_POLICIES = ["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"] as const;

export const ServerGroupFormSchema = z
  .object({
    id: recordId().optional(),
    uuid: optionalUuid("uuid"),
    name: requiredText("name"),
    policy: z.enum(SERVER_GROUP_POLICIES, { error: `policy: must be one of ${SERVER_GROUP_POLICIES.join(", ")}` }),
    max_server_per_host: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        const v = (raw ?? "").trim();
        if (!v) return null;
        if (!/^\d+$/.test(v) || Number(v) < 1) {
          ctx.addIssue({
            code: "custom",
            message: `max_server_per_host: must be a whole number >= 1, got ${quoted(v)}`,
          });
          return z.NEVER;
        }
        return Number(v);
      }),
    project_id: optionalText("project_id"),
  })
  .superRefine((d, ctx) => {
    if (d.max_server_per_host !== null && d.policy !== "anti-affinity") {
      ctx.addIssue({
        code: "custom",
        path: ["max_server_per_host"],
        message: `max_server_per_host: only the anti-affinity policy has this rule (policy is ${d.policy})`,
      });
    }
  });

export const ServerGroupIdSchema = z.object({ id: recordId() });

export const InstanceFormSchema = z.object({
  id: recordId().optional(),
  uuid: optionalUuid("uuid"),
  name: optionalText("name"),
  host: optionalText("host"),
  flavor: optionalText("flavor"),
  image: optionalText("image"),
  project_id: optionalText("project_id"),
  server_group: optionalText("server_group"),
});

export const InstanceIdSchema = z.object({ id: recordId() });

// ---------------------------------------------------------------------------
// Scheduler profiles (/config)

export const ProfileCreateSchema = z.object({
  name: requiredText("name", 100),
  description: optionalText("description", 1000),
  copy_from: optionalText("copy_from"),
});

export const ProfileIdSchema = z.object({ id: recordId() });

/** Options edited as whole numbers (the rest of OPTION_DOCS' numbers are floats). */
export const INT_OPTIONS = new Set([
  "host_subset_size",
  "max_attempts",
  "max_instances_per_host",
  "max_io_ops_per_host",
  "migrate_max_retries",
]);
export const BOOL_OPTIONS = new Set([
  "shuffle_best_same_weighed_hosts",
  "metrics_required",
  "restrict_isolated_hosts_to_isolated_images",
]);
export const LIST_OPTIONS = new Set(["isolated_hosts", "isolated_images"]);

export interface KnownNames {
  filters: readonly string[];
  weighers: readonly string[];
}

/**
 * The names of an ordered list: each known, or marked "not simulated" in the
 * form (an out-of-tree class a real nova.conf enables: it passes every host /
 * weighs 0, as an imported profile keeps it), and none twice. A name neither
 * known nor marked is a typo until the user says otherwise.
 */
function checkNames(
  list: string[],
  known: readonly string[],
  notSimulated: ReadonlySet<string>,
  field: string,
  what: string,
  ctx: z.RefinementCtx,
) {
  const seen = new Set<string>();
  for (const name of list) {
    if (!known.includes(name) && !notSimulated.has(name)) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `${field}: unknown ${what} "${name}": add it as not simulated if it is an out-of-tree class (known: ${known.join(", ")})`,
      });
    } else if (seen.has(name)) {
      ctx.addIssue({ code: "custom", path: [field], message: `${field}: ${what} "${name}" is listed twice` });
    }
    seen.add(name);
  }
}

/**
 * The profile editor's form → { id, description, config } where config is in
 * the scenario `config` format. Empty option fields are left out (Nova's
 * default applies). `known` = the engine's FILTERS / WEIGHERS; a name outside
 * them is accepted when the form marks it in `not_simulated` (repeated). PCI aliases
 * come as repeated pci_alias_<field> inputs, one per row (blank rows skipped).
 * A field named like an option that no section knows is refused: a typo must
 * not silently leave Nova's default in force.
 */
export function profileSaveSchema(known: KnownNames) {
  const fieldNames = new Set<string>([
    "id",
    "description",
    "enabled_filters",
    "weighers_mode",
    "weighers",
    "not_simulated",
    "nova_release",
    ...OPTION_DOCS.map((o) => o.key as string),
    ...PLACEMENT_OPTION_DOCS.map((o) => o.key),
    ...PCI_ALIAS_FIELDS.map((f) => `pci_alias_${f}`),
  ]);
  return z
    .looseObject({
      id: recordId(),
      description: optionalText("description", 1000),
      enabled_filters: stringArray("enabled_filters"),
      weighers_mode: z.enum(["all", "list"], { error: 'weighers_mode: must be "all" or "list"' }),
      weighers: stringArray("weighers"),
      not_simulated: stringArray("not_simulated"),
    })
    .transform((d, ctx) => {
      const marked = new Set(d.not_simulated);
      checkNames(d.enabled_filters, known.filters, marked, "enabled_filters", "filter", ctx);
      if (d.weighers_mode === "list") checkNames(d.weighers, known.weighers, marked, "weighers", "weigher", ctx);
      const config: ScenarioConfig = {
        enabled_filters: d.enabled_filters,
        weighers: d.weighers_mode === "all" ? "all" : d.weighers,
      };
      // the names as an import or the CLI reads them (one schema for all three)
      const lists = ConfigSchema.pick({ enabled_filters: true, weighers: true }).safeParse(config);
      for (const issue of lists.success ? [] : lists.error.issues) {
        const field = String(issue.path[0] ?? "enabled_filters");
        ctx.addIssue({ code: "custom", path: [field], message: `${issue.path.join(".")}: ${issue.message}` });
      }
      const raw = d as Record<string, unknown>;
      const cfg = config as Record<string, unknown>;
      for (const k of Object.keys(raw)) {
        // framework fields start with "$" or "_"; option names are snake_case words
        if (/^[a-z][a-z0-9_]*$/.test(k) && !fieldNames.has(k)) {
          ctx.addIssue({
            code: "custom",
            path: [k],
            message: `${k}: unknown option (not a [filter_scheduler], [scheduler], [pci], [compute] or [workarounds] option Schedscope knows)`,
          });
        }
      }
      for (const opt of PLACEMENT_OPTION_DOCS) {
        const input = raw[opt.key];
        const v = typeof input === "string" ? input.trim() : "";
        if (!v) continue; // Nova's default
        if (opt.kind === "bool") {
          if (v !== "true" && v !== "false") {
            ctx.addIssue({ code: "custom", path: [opt.key], message: `${opt.key}: must be true or false` });
          } else cfg[opt.key] = v === "true";
        } else if (!/^[+-]?\d+$/.test(v) || Number(v) < (opt.min ?? 0)) {
          ctx.addIssue({
            code: "custom",
            path: [opt.key],
            message: `${opt.key}: must be a whole number >= ${opt.min ?? 0}, got ${quoted(v)}`,
          });
        } else cfg[opt.key] = Number(v);
      }
      const release = typeof raw.nova_release === "string" ? raw.nova_release.trim() : "";
      if (release) {
        if (!(NOVA_RELEASES as readonly string[]).includes(release)) {
          ctx.addIssue({
            code: "custom",
            path: ["nova_release"],
            message: `nova_release: must be a known Nova release (${NOVA_RELEASES.join(", ")}), got ${quoted(release)}`,
          });
        } else cfg.nova_release = release;
      }
      const column = (f: string): string[] => {
        const v = raw[`pci_alias_${f}`];
        return v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)];
      };
      const cols = Object.fromEntries(PCI_ALIAS_FIELDS.map((f) => [f, column(f)]));
      const rows = Math.max(...PCI_ALIAS_FIELDS.map((f) => cols[f].length));
      const aliases: Record<string, string>[] = [];
      for (let i = 0; i < rows; i++) {
        const entry: Record<string, string> = {};
        for (const f of PCI_ALIAS_FIELDS) {
          const v = (cols[f][i] ?? "").trim();
          if (v) entry[f] = v;
        }
        if (Object.keys(entry).length) aliases.push(entry);
      }
      if (aliases.length) {
        cfg.pci_alias = aliases;
        for (const m of checkProfileConfig({ pci_alias: aliases }, "")) {
          ctx.addIssue({ code: "custom", path: ["pci_alias"], message: m });
        }
      }
      const placementKeys = new Set(PLACEMENT_OPTION_DOCS.map((o) => o.key));
      for (const opt of OPTION_DOCS) {
        const key = opt.key as string;
        if (placementKeys.has(key)) continue; // read above, with the Placement section's rules
        const input = raw[key];
        const v = typeof input === "string" ? input.trim() : "";
        if (!v) continue; // Nova's default
        if (BOOL_OPTIONS.has(key)) {
          if (v !== "true" && v !== "false") {
            ctx.addIssue({ code: "custom", path: [key], message: `${key}: must be true or false` });
          } else cfg[key] = v === "true";
        } else if (LIST_OPTIONS.has(key)) {
          cfg[key] = v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean);
        } else if (typeof opt.default === "number") {
          let n: number;
          if (INT_OPTIONS.has(key)) {
            if (!/^[+-]?\d+$/.test(v)) {
              ctx.addIssue({
                code: "custom",
                path: [key],
                message: `${key}: must be a whole number${opt.min !== undefined ? ` >= ${opt.min}` : ""}, got ${quoted(v)}`,
              });
              continue;
            }
            n = Number(v);
          } else {
            try {
              n = pyFloat(v);
            } catch {
              ctx.addIssue({
                code: "custom",
                path: [key],
                message: `${key}: must be a number (e.g. -1.0), got ${quoted(v)}`,
              });
              continue;
            }
            if (!Number.isFinite(n)) {
              ctx.addIssue({
                code: "custom",
                path: [key],
                message: `${key}: must be a finite number, got ${quoted(v)}`,
              });
              continue;
            }
          }
          if (opt.min !== undefined && n < opt.min) {
            ctx.addIssue({ code: "custom", path: [key], message: `${key}: must be >= ${opt.min}, got ${v}` });
            continue;
          }
          cfg[key] = n;
        } else {
          cfg[key] = v;
        }
      }
      return { id: d.id, description: d.description, config };
    });
}

// ---------------------------------------------------------------------------
// Moves of an instance (its page: trial, then commit)

/**
 * The moves an instance's page offers. Unshelve is left out: an instance
 * row records no vm_state, so no instance is known to be shelved-offloaded.
 */
export const MOVE_OPERATIONS = ["resize", "migrate", "live-migrate", "evacuate"] as const;
export type PageMoveOperation = (typeof MOVE_OPERATIONS)[number];

const moveFields = {
  uuid: requiredText("uuid"),
  operation: z.enum(MOVE_OPERATIONS, {
    error: `operation: must be one of ${MOVE_OPERATIONS.join(", ")}`,
  }),
  flavor: optionalText("flavor"),
  target_host: optionalText("target_host"),
};

/** Nova's API shape: a resize names a new flavor and no host; the other moves keep the flavor and may name a host. */
function checkMove(
  d: { operation: PageMoveOperation; flavor: string | null; target_host: string | null },
  ctx: z.RefinementCtx,
) {
  if (d.operation === "resize" && !d.flavor)
    ctx.addIssue({ code: "custom", path: ["flavor"], message: "flavor: is required for a resize (the new flavor)" });
  if (d.operation !== "resize" && d.flavor)
    ctx.addIssue({
      code: "custom",
      path: ["flavor"],
      message: `flavor: only a resize changes the flavor; ${d.operation} keeps the instance's`,
    });
  if (d.operation === "resize" && d.target_host)
    ctx.addIssue({
      code: "custom",
      path: ["target_host"],
      message: "target_host: a resize takes no host (Nova's scheduler picks it); migrate to a host instead",
    });
}

export const MoveTrialSchema = z.object(moveFields).superRefine(checkMove);
export type MoveTrialInput = z.input<typeof MoveTrialSchema>;

/**
 * A committed move: the trial's fields again (the move is scheduled anew on
 * today's cloud), the instance's row id (its version goes beside it) and
 * the destination the trial showed, which the new answer must match.
 */
export const MoveCommitSchema = z
  .object({ ...moveFields, id: recordId(), destination: requiredText("destination") })
  .superRefine(checkMove);
export type MoveCommitInput = z.input<typeof MoveCommitSchema>;
