/**
 * Reading a bundle from a directory or a .tar.gz (Node only). Limits are
 * checked before anything large is read: the archive's size, the size once
 * decompressed, and each file's size.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import tar from "tar-stream";
import { BUNDLE_FILES, type Bundle, type BundleFileName } from "./convert";

/** The largest bundle accepted (compressed, or a directory's files together). */
export const MAX_BUNDLE_BYTES = 200 * 1024 * 1024;
/** The largest bundle once decompressed. */
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;

export class BundleReadError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join("\n"));
    this.name = "BundleReadError";
  }
}

const KNOWN = new Set<string>(BUNDLE_FILES.map((f) => f.file));

function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function tooLargeMessage(source: string, bytes: number): string {
  return `${source}: is ${mb(bytes)}; a bundle may be at most ${mb(MAX_BUNDLE_BYTES)} (${MAX_BUNDLE_BYTES} bytes)`;
}

/** The bundle's files (name -> bytes) -> parsed JSON and nova.conf text; every file that is not JSON is named. */
export function parseBundleFiles(files: Map<string, Buffer>): { bundle: Bundle; errors: string[]; ignored: string[] } {
  const bundle: Bundle = { json: {} };
  const errors: string[] = [];
  const ignored: string[] = [];
  for (const [name, data] of files) {
    if (!KNOWN.has(name)) {
      ignored.push(name);
      continue;
    }
    const text = data.toString("utf8");
    if (name === "nova.conf") {
      bundle.novaConf = text;
      continue;
    }
    try {
      bundle.json[name as BundleFileName] = JSON.parse(text);
    } catch (e) {
      errors.push(`${name}: is not valid JSON (${(e as Error).message})`);
      bundle.unreadable = [...(bundle.unreadable ?? []), name];
    }
  }
  return { bundle, errors, ignored };
}

/** The bundle files of a directory (only the names the bundle defines are read). */
export function readBundleDir(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let total = 0;
  for (const f of BUNDLE_FILES) {
    const p = path.join(dir, f.file);
    if (!fs.existsSync(p)) continue;
    total += fs.statSync(p).size;
    if (total > MAX_BUNDLE_BYTES) throw new BundleReadError([tooLargeMessage(dir, total)]);
    files.set(f.file, fs.readFileSync(p));
  }
  if (files.size === 0) {
    throw new BundleReadError([
      `${dir}: has none of the bundle's files (${BUNDLE_FILES.map((f) => f.file).join(", ")})`,
    ]);
  }
  return files;
}

/** The bundle files of a .tar.gz (or plain .tar) held in memory; entries may sit in one top directory. */
export async function readBundleTar(data: Buffer, source = "bundle"): Promise<Map<string, Buffer>> {
  if (data.length > MAX_BUNDLE_BYTES) throw new BundleReadError([tooLargeMessage(source, data.length)]);
  let tarBytes: Buffer;
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) {
    try {
      tarBytes = zlib.gunzipSync(data, { maxOutputLength: MAX_UNPACKED_BYTES });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === "ERR_BUFFER_TOO_LARGE" || /buffer|larger/i.test(err.message))
        throw new BundleReadError([`${source}: unpacks to more than ${mb(MAX_UNPACKED_BYTES)}`]);
      throw new BundleReadError([
        `${source}: is not a complete .tar.gz (truncated or corrupt: ${err.message}); make the archive again`,
      ]);
    }
  } else tarBytes = data;
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    const extract = tar.extract();
    extract.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (header.type === "file") {
          const base = path.posix.basename(header.name);
          if (KNOWN.has(base)) files.set(base, Buffer.concat(chunks));
        }
        next();
      });
      stream.resume();
    });
    extract.on("finish", resolve);
    extract.on("error", (e: Error) =>
      reject(new BundleReadError([`${source}: is not a valid tar archive (${e.message}); make the archive again`])),
    );
    extract.end(tarBytes);
  });
  if (files.size === 0) {
    throw new BundleReadError([
      `${source}: contains none of the bundle's files (is it a bundle written by scripts/collect-openstack.sh?)`,
    ]);
  }
  return files;
}

/** A path to a bundle directory or a .tar.gz -> its files. */
export async function readBundlePath(p: string): Promise<Map<string, Buffer>> {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch (e) {
    throw new BundleReadError([`${p}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`]);
  }
  if (st.isDirectory()) return readBundleDir(p);
  if (st.size > MAX_BUNDLE_BYTES) throw new BundleReadError([tooLargeMessage(p, st.size)]);
  return readBundleTar(fs.readFileSync(p), path.basename(p));
}
