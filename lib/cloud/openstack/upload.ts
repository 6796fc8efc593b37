/**
 * The /import upload: the bundle's .tar.gz as the request body (streamed,
 * refused past 200 MB before it is all read), then the same steps as the
 * CLI. `preview` answers what would change and the upload's sha256;
 * `apply` (with that sha256, so the cloud replaced is the one previewed)
 * writes through the mutation wrapper, in one transaction.
 */
import "server-only";
import { createHash } from "node:crypto";
import { mutate } from "@/lib/actions/mutation";
import type { Db } from "@/lib/db-client";
import { CloudValidationError, type ImportSummary } from "@/lib/cloud/import-export";
import { CloudSchema } from "@/lib/cloud/schemas";
import { applyImport, type ImportPreview, prepareImport, previewImport } from "./import";
import { BundleReadError, MAX_BUNDLE_BYTES, readBundleTar, tooLargeMessage } from "./read-bundle";

export type UploadAnswer =
  | { ok: true; mode: "preview"; sha256: string; bytes: number; preview: Omit<ImportPreview, "doc"> }
  | { ok: true; mode: "apply"; summary: Omit<ImportSummary, "warnings"> & { warnings: number } }
  | { ok: false; errors: string[]; warnings: string[] };

/** The request body, or the reason it is refused (too large: before reading it all). */
async function readBody(req: Request): Promise<Buffer | string> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > MAX_BUNDLE_BYTES) return tooLargeMessage("the upload", declared);
  if (!req.body) return "the upload: is empty (choose the bundle's .tar.gz)";
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BUNDLE_BYTES) {
      await reader.cancel();
      return tooLargeMessage("the upload", total);
    }
    chunks.push(Buffer.from(value));
  }
  if (total === 0) return "the upload: is empty (choose the bundle's .tar.gz)";
  return Buffer.concat(chunks, total);
}

export async function bundleUpload(
  db: Db,
  req: Request,
  mode: "preview" | "apply",
  expectedSha?: string | null,
): Promise<{ status: number; body: UploadAnswer }> {
  const fail = (status: number, errors: string[], warnings: string[] = []) => ({
    status,
    body: { ok: false as const, errors, warnings },
  });
  const data = await readBody(req);
  if (typeof data === "string") return fail(data.includes("at most") ? 413 : 400, [data]);
  const sha256 = createHash("sha256").update(data).digest("hex");
  if (mode === "apply" && expectedSha !== sha256) {
    return fail(409, ["the upload: is not the file that was previewed (preview it again before replacing the cloud)"]);
  }
  try {
    const prepared = prepareImport(await readBundleTar(data, "the upload"));
    if (mode === "preview") {
      const { doc: _doc, ...preview } = await previewImport(db, prepared);
      return { status: 200, body: { ok: true, mode, sha256, bytes: data.length, preview } };
    }
    const result = await mutate(
      "cloud.import-openstack",
      CloudSchema,
      prepared.doc,
      (tx) => applyImport(db, prepared, { tx }),
      { revalidate: ["/", "/hosts", "/aggregates", "/flavors", "/images", "/server-groups", "/instances", "/config"] },
    );
    if (!result.ok) {
      const errors = [
        ...(result.formError ? [result.formError] : []),
        ...Object.entries(result.fieldErrors).flatMap(([k, v]) => v.map((m) => `${k}: ${m}`)),
      ];
      return fail(422, errors);
    }
    const { warnings, ...summary } = result.data;
    return { status: 200, body: { ok: true, mode, summary: { ...summary, warnings: warnings.length } } };
  } catch (e) {
    if (e instanceof BundleReadError) return fail(400, e.errors);
    if (e instanceof CloudValidationError) return fail(422, e.errors, e.warnings);
    throw e;
  }
}
