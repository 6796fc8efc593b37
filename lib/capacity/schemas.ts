/**
 * The capacity form: which flavors to boot, in what proportions, how many
 * boots at most, under which scheduler profile. Shared by the route handler
 * and its tests; the rules are the engine's (checkLimit, checkMix), worded
 * for the field they concern.
 */
import { z } from "zod";
import { type FieldErrors, zodFieldErrors } from "@/lib/core/errors";
import { MAX_FILL_LIMIT } from "@/lib/scheduler/fill-limits";

export const DEFAULT_FILL_LIMIT = 10_000;

export const CapacityFormSchema = z
  .object({
    profile: z.string().trim().min(1).optional(),
    /** a history snapshot's id: fill the cloud as it was then (absent: today's) */
    asOf: z
      .number({ error: "asOf: must be a snapshot of the history (its number)" })
      .int({ error: "asOf: must be a snapshot of the history (its number)" })
      .positive({ error: "asOf: must be a snapshot of the history (its number)" })
      .optional(),
    limit: z
      .number({ error: "limit: a whole number of boots is required" })
      .int({ error: "limit: must be a whole number of boots" })
      .min(1, { error: `limit: must be at least 1 boot` })
      .max(MAX_FILL_LIMIT, {
        error: `limit: at most ${MAX_FILL_LIMIT.toLocaleString("en-US")} boots per fill`,
      }),
    mix: z
      .array(
        z.object({
          flavor: z.string().trim().min(1, { error: "flavor: choose a flavor" }),
          share: z
            .number({ error: "share: a proportion is required" })
            .gt(0, { error: "share: must be greater than 0" }),
        }),
      )
      .min(1, { error: "mix: name at least one flavor to boot" }),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.mix.forEach((m, i) => {
      if (seen.has(m.flavor))
        ctx.addIssue({ code: "custom", path: ["mix", i, "flavor"], message: `flavor: ${m.flavor} is listed twice` });
      seen.add(m.flavor);
    });
    const sum = v.mix.reduce((s, m) => s + (Number.isFinite(m.share) ? m.share : 0), 0);
    if (v.mix.length && Math.abs(sum - 1) > 1e-6 && Math.abs(sum - 100) > 1e-4) {
      ctx.addIssue({
        code: "custom",
        path: ["mix"],
        message: `mix: proportions must sum to 100% (or to 1); they sum to ${Number(sum.toPrecision(6))}`,
      });
    }
  });

export type CapacityForm = z.infer<typeof CapacityFormSchema>;

export function validateCapacityForm(
  input: unknown,
): { ok: true; form: CapacityForm } | { ok: false; errors: FieldErrors } {
  const parsed = CapacityFormSchema.safeParse(input);
  if (parsed.success) return { ok: true, form: parsed.data };
  return { ok: false, errors: zodFieldErrors(parsed.error.issues) };
}

/** A/B: the same mix and number of boots under two profiles. */
export const CapacityCompareSchema = z
  .object({
    profile: z.string().trim().min(1, { error: "profile: choose profile A" }),
    profileB: z.string().trim().min(1, { error: "profileB: choose profile B" }),
  })
  .and(CapacityFormSchema)
  .superRefine((v, ctx) => {
    if (v.profile === v.profileB)
      ctx.addIssue({ code: "custom", path: ["profileB"], message: "profileB: choose a profile other than A" });
  });

export type CapacityCompare = z.infer<typeof CapacityCompareSchema>;
