/**
 * The connection form's input (shared zod schema): a pasted clouds.yaml
 * (a whole file with the cloud's name, or one entry) or the fields one by
 * one. Blank secrets on a change keep the stored ones.
 */
import { z } from "zod";
import { CloudsYamlError, settingsFromCloudsYaml } from "@/lib/openstack-api/clouds-yaml";
import type { CloudSettings } from "@/lib/openstack-api/keystone";

const text = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `${field}: at most ${max} characters` })
    .optional()
    .transform((v) => (v ? v : undefined));

export const ConnectionSchema = z
  .object({
    id: z.coerce.number().int().positive().optional(),
    name: z
      .string({ error: "name: is required" })
      .trim()
      .min(1, { error: "name: is required" })
      .max(100, { error: "name: at most 100 characters" })
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: "name: letters, digits, . _ - only" }),
    source: z.enum(["yaml", "fields"], { error: 'source: must be "yaml" or "fields"' }),
    clouds_yaml: text("clouds_yaml", 64 * 1024),
    cloud: text("cloud", 200),
    auth_url: text("auth_url", 500),
    auth_type: z.enum(["password", "v3applicationcredential"]).optional(),
    username: text("username", 255),
    password: z.string().max(1024, { error: "password: at most 1024 characters" }).optional(),
    user_domain_name: text("user_domain_name", 255),
    project_name: text("project_name", 255),
    project_domain_name: text("project_domain_name", 255),
    application_credential_id: text("application_credential_id", 255),
    application_credential_secret: z.string().max(1024).optional(),
    region_name: text("region_name", 255),
    interface: z.enum(["public", "internal", "admin"], { error: "interface: public, internal or admin" }).optional(),
    cacert: text("cacert", 256 * 1024),
  })
  .transform((d, ctx) => {
    let settings: CloudSettings;
    if (d.source === "yaml") {
      if (!d.clouds_yaml) {
        ctx.addIssue({ code: "custom", path: ["clouds_yaml"], message: "clouds_yaml: paste a clouds.yaml entry" });
        return z.NEVER;
      }
      try {
        settings = settingsFromCloudsYaml(d.clouds_yaml, d.cloud);
      } catch (e) {
        if (!(e instanceof CloudsYamlError)) throw e;
        ctx.addIssue({ code: "custom", path: ["clouds_yaml"], message: `clouds_yaml: ${e.message}` });
        return z.NEVER;
      }
    } else {
      if (!d.auth_url) {
        ctx.addIssue({ code: "custom", path: ["auth_url"], message: "auth_url: is required" });
        return z.NEVER;
      }
      settings = {
        auth_url: d.auth_url,
        auth_type: d.auth_type,
        username: d.username,
        password: d.password || undefined,
        user_domain_name: d.user_domain_name,
        project_name: d.project_name,
        project_domain_name: d.project_domain_name,
        application_credential_id: d.application_credential_id,
        application_credential_secret: d.application_credential_secret || undefined,
        region_name: d.region_name,
        interface: d.interface,
        cacert: d.cacert,
      };
      for (const k of Object.keys(settings) as (keyof CloudSettings)[])
        if (settings[k] === undefined) delete settings[k];
    }
    if (!/^https?:\/\/[^\s/]+/.test(settings.auth_url)) {
      ctx.addIssue({
        code: "custom",
        path: [d.source === "yaml" ? "clouds_yaml" : "auth_url"],
        message: "auth_url: must be an http:// or https:// URL",
      });
      return z.NEVER;
    }
    return { id: d.id, name: d.name, settings };
  });

export const ConnectionIdSchema = z.object({
  id: z.coerce
    .number({ error: "id: must be a connection id" })
    .int()
    .positive({ error: "id: must be a connection id" }),
});

export const ScheduleSchema = z.object({
  id: z.coerce.number().int().positive({ error: "connection: choose a connection" }),
  minutes: z.coerce
    .number({ error: "minutes: must be a whole number" })
    .int({ error: "minutes: must be a whole number" })
    .min(0, { error: "minutes: 0 (off) or 5 to 10080" })
    .max(10080, { error: "minutes: at most 10080 (a week)" })
    .refine((m) => m === 0 || m >= 5, { error: "minutes: 0 (off) or at least 5" }),
});
