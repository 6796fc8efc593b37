/**
 * The trial-scheduling form (/schedule): one zod schema shared by the client
 * (field errors before submitting) and the server action (through mutate()).
 * Pure: no Prisma, no Next.js, no Node-only imports.
 *
 * The form speaks strings (what inputs hold); the schema turns them into the
 * parts of a scenario `request` (SCENARIO.md) the server completes from the
 * database (the flavor and image objects). The numeric and hint rules reuse
 * lib/scenario/schema.ts (posInt, RequestSchema's scheduler_hints).
 */
import { KNOWLEDGE } from "@/lib/scheduler/knowledge";
import { readUserJson } from "@/lib/core/input-limits";
import { z } from "zod";
import { type FieldErrors, zodFieldErrors } from "@/lib/core/errors";
import { RequestSchema, posInt } from "@/lib/scenario/schema";
import type { ScenarioRequest } from "@/lib/scheduler/scenario";

/** Largest num_instances the form accepts. */
export const MAX_INSTANCES = 100;
/**
 * Largest hosts × instances a run may explain: the stored result lists every
 * host for every instance (~1 kB each), so 50,000 keeps a run under ~50 MB.
 */
export const MAX_HOST_INSTANCES = 50_000;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const JSON_FILTER_OPS = ["=", "<", ">", "in", "<=", ">=", "not", "or", "and"];

/** "a, b\nc" -> ["a", "b", "c"] */
export function splitList(text: string | undefined | null): string[] {
  return (text ?? "")
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const optionalText = () =>
  z
    .string({ error: "must be text" })
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined));

function isIp(v: string): boolean {
  return z.union([z.ipv4(), z.ipv6()]).safeParse(v).success;
}

/** A list of instance uuids typed into a textarea. */
const uuidList = (hint: string) =>
  optionalText().superRefine((v, ctx) => {
    for (const u of splitList(v)) {
      if (!UUID.test(u)) {
        ctx.addIssue({ code: "custom", message: `"${u}" is not an instance uuid (${hint} takes instance uuids)` });
        return;
      }
    }
  });

const numInstances = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const t = v.trim();
    if (t === "") return undefined;
    return Number.isFinite(Number(t)) ? Number(t) : t; // a non-number stays text: "(got "abc")"
  },
  posInt().max(MAX_INSTANCES, { error: `must be at most ${MAX_INSTANCES}` }),
);

export const ScheduleFormSchema = z
  .object({
    /** flavor name */
    flavor: z.string({ error: "choose a flavor" }).trim().min(1, { error: "choose a flavor" }),
    /** image uuid; empty = no image */
    image: optionalText(),
    num_instances: numInstances,
    availability_zone: optionalText(),
    project_id: optionalText().refine((v) => v === undefined || /^[\w.-]{1,255}$/.test(v), {
      error: "must be a project id (letters, digits, '-', '_' or '.')",
    }),
    /** server group uuid or name */
    server_group: optionalText(),
    same_host: uuidList("same_host"),
    different_host: uuidList("different_host"),
    /** JsonFilter query, JSON text */
    query: optionalText().superRefine((v, ctx) => {
      if (v === undefined) return;
      const read = readUserJson(v, "query");
      if (!read.ok) {
        ctx.addIssue({ code: "custom", message: read.message.replace(/^query: (is )?/, "") });
        return;
      }
      const parsed = read.value;
      if (!Array.isArray(parsed) || typeof parsed[0] !== "string" || !JSON_FILTER_OPS.includes(parsed[0])) {
        ctx.addIssue({
          code: "custom",
          message: `must be a JsonFilter expression: a list starting with one of ${JSON_FILTER_OPS.join(" ")}, e.g. [">=", "$free_ram_mb", 1024]`,
        });
      }
    }),
    build_near_host_ip: optionalText().refine((v) => v === undefined || isIp(v), {
      error: "must be an IPv4 or IPv6 address",
    }),
    cidr: optionalText().refine((v) => v === undefined || /^\/\d{1,3}$/.test(v), {
      error: 'must be a prefix length such as "/24"',
    }),
    /** scheduler profile name; empty = the active one */
    profile: optionalText(),
    /** a history snapshot's id: schedule on the cloud as it was then; empty = today's cloud */
    as_of: z.preprocess(
      (v) => (v === "" || v === null ? undefined : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v),
      z
        .number({ error: "must be a snapshot of the history (its number)" })
        .int({ error: "must be a snapshot of the history (its number)" })
        .positive({ error: "must be a snapshot of the history (its number)" })
        .optional(),
    ),
  })
  .superRefine((d, ctx) => {
    if (d.cidr !== undefined) {
      const bits = Number(d.cidr.slice(1));
      const v6 = d.build_near_host_ip?.includes(":");
      if (bits > (v6 ? 128 : 32)) {
        ctx.addIssue({ code: "custom", path: ["cidr"], message: `must be /0 to /${v6 ? 128 : 32}` });
      }
      if (d.build_near_host_ip === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["cidr"],
          message: "needs build_near_host_ip (the cidr is around that address)",
        });
      }
    }
  });

export type ScheduleFormInput = z.input<typeof ScheduleFormSchema>;
export type ScheduleForm = z.output<typeof ScheduleFormSchema>;

/** The form's field names, in the order the page shows them. */
export const SCHEDULE_FIELDS = [
  "flavor",
  "image",
  "num_instances",
  "availability_zone",
  "project_id",
  "server_group",
  "same_host",
  "different_host",
  "query",
  "build_near_host_ip",
  "cidr",
  "profile",
  "as_of",
] as const;
export type ScheduleField = (typeof SCHEDULE_FIELDS)[number];

/** Which filter reads each hint field, from the descriptors (a hint is ignored when its filter is not enabled). */
export const HINT_FILTERS: Partial<Record<ScheduleField, string>> = Object.fromEntries(
  SCHEDULE_FIELDS.flatMap((f) => {
    const readers = KNOWLEDGE.hintReaders.get(f);
    return readers ? [[f, readers[0]]] : [];
  }),
);

/** The request minus the flavor and image objects (the server fills those in from the database). */
export type RequestParts = Omit<ScenarioRequest, "flavor" | "image">;

export function formToRequestParts(f: ScheduleForm): RequestParts {
  const hints: Record<string, string | string[]> = {};
  const same = splitList(f.same_host);
  const different = splitList(f.different_host);
  if (same.length) hints.same_host = same;
  if (different.length) hints.different_host = different;
  if (f.query !== undefined) hints.query = f.query;
  if (f.build_near_host_ip !== undefined) hints.build_near_host_ip = f.build_near_host_ip;
  if (f.cidr !== undefined) hints.cidr = f.cidr;
  const out: RequestParts = { num_instances: f.num_instances };
  if (f.availability_zone !== undefined) out.availability_zone = f.availability_zone;
  if (f.project_id !== undefined) out.project_id = f.project_id;
  if (f.server_group !== undefined) out.server_group = f.server_group;
  if (Object.keys(hints).length) out.scheduler_hints = hints;
  return out;
}

/** The whole request checked against the scenario format's RequestSchema: `field: message` list. */
export function checkRequest(request: ScenarioRequest): string[] {
  const r = RequestSchema.safeParse(request);
  if (r.success) return [];
  return r.error.issues.map((i) => `${i.path.map(String).join(".") || "request"}: ${i.message}`);
}

/** Field errors of a form value (client side), keyed like mutate()'s. */
export function validateScheduleForm(
  input: unknown,
): { ok: true; data: ScheduleForm } | { ok: false; fieldErrors: FieldErrors } {
  const r = ScheduleFormSchema.safeParse(input);
  if (r.success) return { ok: true, data: r.data };
  return { ok: false, fieldErrors: zodFieldErrors(r.error.issues) };
}
