/**
 * The /import upload: the bundle's .tar.gz as the request body, streamed
 * through the archive reader (refused past 200 MB as sent, or past its
 * limits once unpacked, before it is all read), then the same steps as the
 * CLI. `preview` answers what would change and the upload's sha256;
 * `apply` (with that sha256, so the cloud replaced is the one previewed)
 * writes through the mutation wrapper, in one transaction.
 */
import { type ErrorBody, errorBody, summarize } from "@/lib/core/errors";
import "server-only";
import { mutate } from "@/lib/actions/mutation";
import type { Db } from "@/lib/db/client";
import { CloudValidationError, type ImportSummary } from "@/lib/cloud/scenario-io";
import { CloudSchema, NOVA_RELEASES, type NovaRelease } from "@/lib/scenario/schema";
import { applyImport, type ImportPreview, prepareImport, previewImport } from "./import";
import { predictionsOf } from "@/lib/history/queries";
import {
  BundleReadError,
  MAX_BUNDLE_BYTES,
  readBundleStream,
  type StreamedBundle,
  tooLargeMessage,
} from "./read-bundle";

export type UploadAnswer =
  | { ok: true; mode: "preview"; sha256: string; bytes: number; preview: Omit<ImportPreview, "doc"> }
  | { ok: true; mode: "apply"; summary: Omit<ImportSummary, "warnings"> & { warnings: number } }
  | ({ ok: false; warnings: string[]; releaseChoice?: readonly string[] } & ErrorBody);

/** `nova_release` of the query: the release the operator chose (absent: none), or the 400 message. */
export function chosenRelease(raw: string | null): { release?: NovaRelease } | { error: string } {
  if (raw === null || raw === "") return {};
  if ((NOVA_RELEASES as readonly string[]).includes(raw)) return { release: raw as NovaRelease };
  return { error: `nova_release: must be one of ${NOVA_RELEASES.join(", ")}` };
}

export async function bundleUpload(
  db: Db,
  req: Request,
  mode: "preview" | "apply",
  expectedSha?: string | null,
  opts: { release?: NovaRelease } = {},
): Promise<{ status: number; body: UploadAnswer }> {
  // every message is about the uploaded file: the form's `bundle` field
  const fail = (status: number, errors: string[], warnings: string[] = [], releaseChoice?: readonly string[]) => ({
    status,
    body: {
      ok: false as const,
      ...errorBody(summarize({ bundle: errors }), { bundle: errors }),
      warnings,
      ...(releaseChoice ? { releaseChoice } : {}),
    },
  });
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > MAX_BUNDLE_BYTES)
    return fail(413, [tooLargeMessage("the upload", declared)]);
  if (!req.body) return fail(400, ["the upload: is empty (choose the bundle's .tar.gz)"]);
  let read: StreamedBundle;
  try {
    read = await readBundleStream(req.body as unknown as AsyncIterable<Uint8Array>, "the upload");
  } catch (e) {
    if (e instanceof BundleReadError) return fail(e.tooLarge ? 413 : 400, e.errors);
    throw e;
  }
  const { sha256, bytes } = read;
  if (mode === "apply" && expectedSha !== sha256) {
    return fail(409, ["the upload: is not the file that was previewed (preview it again before replacing the cloud)"]);
  }
  try {
    const prepared = prepareImport(read.files, undefined, opts);
    if (mode === "preview") {
      const { doc: _doc, ...preview } = await previewImport(db, prepared);
      return { status: 200, body: { ok: true, mode, sha256, bytes, preview } };
    }
    const result = await mutate(
      "cloud.import-openstack",
      CloudSchema,
      prepared.doc,
      (tx, _d, _p, actor) =>
        applyImport(db, prepared, {
          tx,
          audit: {
            userId: actor.userId,
            userName: actor.name,
            role: actor.role,
            action: "cloud.import-openstack",
            source: "(upload on /import)",
            sha256,
            bytes,
          },
          snapshot: { source: "bundle", startedBy: actor.name, label: "(upload on /import)" },
        }),
      {
        revalidate: [
          "/",
          "/hosts",
          "/aggregates",
          "/flavors",
          "/images",
          "/server-groups",
          "/instances",
          "/config",
          "/history",
        ],
        // replacing a 10,000-host cloud and storing its snapshot takes seconds to a minute under load
        timeoutMs: 600_000,
      },
    );
    if (!result.ok) {
      const errors = [
        ...(result.formError ? [result.formError] : []),
        ...Object.entries(result.fieldErrors).flatMap(([k, v]) => v.map((m) => `${k}: ${m}`)),
      ];
      return fail(422, errors);
    }
    const { warnings, snapshot: snap, ...summary } = result.data;
    // the predictions against the snapshot before: computed now, after the answer is on its way, and kept
    if (snap) void predictionsOf(db, snap.id).catch(() => {});
    return { status: 200, body: { ok: true, mode, summary: { ...summary, warnings: warnings.length } } };
  } catch (e) {
    if (e instanceof BundleReadError) return fail(400, e.errors);
    if (e instanceof CloudValidationError) return fail(422, e.errors, e.warnings, e.releaseChoice);
    throw e;
  }
}
