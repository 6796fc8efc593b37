/**
 * Importing an OpenStack bundle: read -> convert (convert.ts) -> validate
 * with the scenario schemas -> preview against the database -> replace the
 * cloud in one transaction (importCloud). Used by the CLI and by the
 * /import upload; both show the same preview and the same messages.
 */
import type { PrismaClient } from "@/lib/db/client";
import {
  type CloudImportAudit,
  CloudValidationError,
  exportCloud,
  importCloud,
  type ImportSummary,
  type Tx,
} from "@/lib/cloud/scenario-io";
import { type NovaRelease, validateCloud } from "@/lib/scenario/schema";
import { type Bundle, type Conversion, bundleToCloud } from "./convert";
import { diffClouds, type KindChange } from "./preview";
import { parseBundleFiles } from "./read-bundle";
import type { OptionReport } from "./nova-conf";
import { importWithSnapshot } from "@/lib/history/record";
import type { SnapshotMeta, SnapshotRow } from "@/lib/history/store";

/** The profile a bundle's nova.conf becomes (named for what it is, not for the file). */
export const NOVA_CONF_PROFILE = "imported-nova-conf";

export type Stage = "reading" | "converting" | "validating" | "comparing" | "writing" | "done";
export type Progress = (stage: Stage, detail?: string) => void;

export interface PreparedImport {
  doc: Conversion["doc"];
  warnings: string[];
  neutral: string[];
  /** Options of nova.conf the profile does not take (unknown or not modelled), and other sections. */
  novaConf?: { unknown: string[]; notModelled: string[]; otherSections: string[]; report: OptionReport[] };
  counts: {
    hosts: number;
    aggregates: number;
    flavors: number;
    images: number;
    serverGroups: number;
    instances: number;
  };
}

export interface ImportPreview extends PreparedImport {
  changes: KindChange[];
  /** The profile nova.conf becomes, and whether it exists already (null: no nova.conf). */
  profile: { name: string; exists: boolean; changed: boolean } | null;
}

/** Files -> a validated cloud document; throws CloudValidationError with every problem (nothing is written). */
/**
 * `release`: the Nova release the operator chose for a bundle whose nova.conf
 * names none (see importNovaConf); a refusal that choosing one would lift
 * carries the releases to choose from (CloudValidationError.releaseChoice).
 */
export function prepareImport(
  files: Map<string, Buffer>,
  progress: Progress = () => {},
  opts: { release?: NovaRelease } = {},
): PreparedImport {
  progress("reading", `${files.size} files`);
  const parsed = parseBundleFiles(files);
  return prepareBundle(parsed.bundle, progress, opts, {
    errors: parsed.errors,
    warnings: parsed.ignored.map((f) => `${f}: not a bundle file (ignored)`),
  });
}

/**
 * A parsed bundle (from files, or read from the cloud's APIs by a sync) -> a
 * validated cloud document: the one path that decides what a cloud is.
 */
export function prepareBundle(
  bundle: Bundle,
  progress: Progress = () => {},
  opts: { release?: NovaRelease } = {},
  read: { errors: string[]; warnings: string[] } = { errors: [], warnings: [] },
): PreparedImport {
  progress("converting");
  const conv = bundleToCloud(bundle, opts);
  const warnings = [...read.warnings, ...conv.warnings];
  const errors = [...read.errors, ...conv.errors];
  if (errors.length) throw new CloudValidationError(errors, warnings, conv.novaConf?.releaseChoice);
  progress("validating", `${conv.doc.hosts.length} hosts`);
  const v = validateCloud(conv.doc, { forImport: true });
  if (!v.ok) throw new CloudValidationError(v.errors, [...warnings, ...v.warnings]);
  const d = conv.doc as Record<string, unknown[] | undefined>;
  return {
    doc: conv.doc,
    warnings: [...warnings, ...v.warnings],
    neutral: conv.neutral,
    novaConf: conv.novaConf && {
      unknown: conv.novaConf.unknown,
      notModelled: conv.novaConf.notModelled,
      otherSections: conv.novaConf.otherSections,
      report: conv.novaConf.report,
    },
    counts: {
      hosts: conv.doc.hosts.length,
      aggregates: d.aggregates?.length ?? 0,
      flavors: d.flavors?.length ?? 0,
      images: d.images?.length ?? 0,
      serverGroups: d.server_groups?.length ?? 0,
      instances: d.instances?.length ?? 0,
    },
  };
}

/** What importing `prepared` would change in the database. */
export async function previewImport(
  prisma: PrismaClient,
  prepared: PreparedImport,
  progress: Progress = () => {},
): Promise<ImportPreview> {
  progress("comparing");
  const current = await exportCloud(prisma, {});
  const changes = diffClouds(current as never, prepared.doc as never);
  let profile: ImportPreview["profile"] = null;
  if (prepared.doc.config !== undefined) {
    const row = await prisma.schedulerProfile.findUnique({ where: { name: NOVA_CONF_PROFILE } });
    profile = {
      name: NOVA_CONF_PROFILE,
      exists: row !== null,
      changed: row === null || row.config !== JSON.stringify(prepared.doc.config),
    };
  }
  return { ...prepared, changes, profile };
}

/**
 * Replace the cloud with the prepared document in one transaction (the
 * caller's, when given). A bundle's nova.conf becomes the active profile
 * "nova.conf"; without one the profiles are left alone.
 *
 * `snapshot`: the history entry the import records in the same transaction
 * (lib/history/record.ts). With an `at` older than the newest snapshot the
 * bundle only enters history: the current cloud stays.
 */
export async function applyImport(
  prisma: PrismaClient,
  prepared: PreparedImport,
  opts: { tx?: Tx; audit?: CloudImportAudit; snapshot?: SnapshotMeta } = {},
  progress: Progress = () => {},
): Promise<ImportSummary & { snapshot?: SnapshotRow; historyOnly?: boolean }> {
  progress("writing", `${prepared.counts.hosts} hosts`);
  const hasConfig = prepared.doc.config !== undefined;
  const importOpts = { profileName: NOVA_CONF_PROFILE, keepProfiles: !hasConfig, audit: opts.audit };
  const meta = opts.snapshot;
  if (!meta) {
    const summary = await importCloud(prisma, prepared.doc, { ...importOpts, tx: opts.tx });
    progress("done");
    return summary;
  }
  const result = await importWithSnapshot(prisma, prepared.doc, importOpts, meta, opts.tx);
  progress("done");
  return result;
}
