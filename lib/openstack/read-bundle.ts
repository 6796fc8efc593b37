/**
 * Reading a bundle from a directory or a .tar.gz (Node only). Limits are
 * checked before anything large is read: the archive's size, the size once
 * decompressed, each file's size (from its tar header) and each JSON
 * file's nesting depth (before it is parsed).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { readUserJson, wholeNumber } from "@/lib/core/input-limits";
import { BUNDLE_FILES, type Bundle, type BundleFileName } from "./convert";

/** The largest bundle accepted (compressed, or a directory's files together). */
export const MAX_BUNDLE_BYTES = 200 * 1024 * 1024;
/** The largest bundle once decompressed (a 10,000-host bundle is about 150 MB). */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
/** The largest file of a bundle once decompressed. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;
/** Files that are not the bundle's (collect-openstack.sh writes none): skipped, but only this much. */
export const MAX_OTHER_BYTES = 16 * 1024 * 1024;
/**
 * Past 16 MB unpacked, an archive that unpacks to more than this many times
 * its size is a bomb (JSON of real clouds compresses about 10 to 30 times).
 */
export const MAX_RATIO = 200;
const RATIO_FROM_BYTES = 16 * 1024 * 1024;

export class BundleReadError extends Error {
  constructor(
    readonly errors: string[],
    /** refused for its size as sent (an upload answers 413) */
    readonly tooLarge = false,
  ) {
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
    // depth checked before parsing: nothing downstream (preview, validation, the database) recurses past it
    const read = readUserJson(text, name, { maxBytes: MAX_FILE_BYTES });
    if (read.ok) bundle.json[name as BundleFileName] = read.value as never;
    else {
      errors.push(read.message);
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

/** The bundle files of a .tar.gz (or plain .tar) held in memory. */
export async function readBundleTar(data: Buffer, source = "bundle"): Promise<Map<string, Buffer>> {
  if (data.length > MAX_BUNDLE_BYTES) throw new BundleReadError([tooLargeMessage(source, data.length)], true);
  return (await readBundleStream([data], source)).files;
}

export interface StreamedBundle {
  files: Map<string, Buffer>;
  /** sha256 of the bytes as sent (the archive) */
  sha256: string;
  bytes: number;
}

/**
 * A .tar.gz (or plain .tar) read as it streams: hashed and counted as
 * sent (past MAX_BUNDLE_BYTES: refused, `tooLarge`), gunzipped on zlib's
 * thread pool (the server keeps answering), and each entry judged from its
 * header before its data is read: larger than MAX_FILE_BYTES, outside the
 * bundle's directory or a second copy of a path is refused, naming the
 * entry; past MAX_UNPACKED_BYTES altogether likewise. Only the bundle's own
 * files are kept. Reading stops at the archive's end marker.
 */
export async function readBundleStream(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  source = "bundle",
): Promise<StreamedBundle> {
  const hash = createHash("sha256");
  let bytes = 0;
  const tar = new TarReader(source);
  let gunzip: zlib.Gunzip | null = null;
  let plain: boolean | null = null;
  let failure: unknown = null;
  let unpacking: Promise<void> | null = null;
  try {
    for await (const chunk of body) {
      bytes += chunk.byteLength;
      if (bytes > MAX_BUNDLE_BYTES) throw new BundleReadError([tooLargeMessage(source, bytes)], true);
      hash.update(chunk);
      if (failure) throw failure;
      if (tar.done) continue; // the rest still counts toward the size and the hash
      if (plain === null) {
        plain = !(chunk.byteLength >= 2 && chunk[0] === 0x1f && chunk[1] === 0x8b);
        if (!plain) {
          gunzip = zlib.createGunzip({ chunkSize: 256 * 1024 });
          // its errors reach consume(); a late one after the end marker is of no interest
          gunzip.on("error", () => {});
          // the ratio is of what gunzip has consumed, not of what was sent (the body arrives faster)
          const z = gunzip;
          unpacking = consume(gunzip, tar, source, () => z.bytesWritten).catch((e) => {
            failure = e;
          });
        }
      }
      if (gunzip) {
        // wait for the thread pool when it is behind: memory stays bounded
        if (!gunzip.write(chunk))
          await new Promise((r) => {
            gunzip!.once("drain", r);
            gunzip!.once("close", r);
          });
      } else tar.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
    if (gunzip && !tar.done) {
      gunzip.end();
      await unpacking;
    }
    if (failure) throw failure;
  } finally {
    gunzip?.destroy();
  }
  if (bytes === 0) throw new BundleReadError([`${source}: is empty (choose the bundle's .tar.gz)`]);
  return { files: tar.finish(), sha256: hash.digest("hex"), bytes };
}

/** Feed the gunzipped bytes to the tar reader, until its end marker or an error. */
async function consume(gunzip: zlib.Gunzip, tar: TarReader, source: string, sent: () => number): Promise<void> {
  try {
    for await (const out of gunzip) {
      tar.push(out as Buffer);
      if (tar.done) break;
      if (tar.unpacked > RATIO_FROM_BYTES && tar.unpacked > MAX_RATIO * sent()) {
        throw new BundleReadError([
          `${source}: unpacks to more than ${MAX_RATIO} times its size (${mb(tar.unpacked)} from ${(sent() / 1024).toFixed(0)} KB so far): not a bundle of JSON files`,
        ]);
      }
    }
  } catch (e) {
    if (e instanceof BundleReadError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw new BundleReadError([
      `${source}: is not a complete .tar.gz (truncated or corrupt: ${err.message}); make the archive again`,
    ]);
  }
}

const BLOCK = 512;

/**
 * A tar reader (ustar, pax and GNU long names) that never recurses and
 * holds at most one bundle file at a time: headers are checked (checksum,
 * size, path) before any of an entry's data is taken.
 */
class TarReader {
  done = false;
  private buf: Buffer = Buffer.alloc(0);
  unpacked = 0;
  private other = 0;
  /** the entry being read: its data left to read (then padding), kept or skipped */
  private entry: { path: string; type: string; left: number; pad: number; chunks: Buffer[] | null } | null = null;
  private longName: string | null = null;
  private paxPath: string | null = null;
  private paxSize: number | null = null;
  private seen = new Set<string>();
  /** bundle files by their path in the archive */
  private found = new Map<string, Buffer>();
  private fileDirs = new Set<string>();
  private offset = 0;

  constructor(private readonly source: string) {}

  private fail(message: string): never {
    throw new BundleReadError([`${this.source}: ${message}`]);
  }

  push(chunk: Buffer): void {
    if (this.done) return;
    this.unpacked += chunk.length;
    if (this.unpacked > MAX_UNPACKED_BYTES) this.fail(`unpacks to more than ${mb(MAX_UNPACKED_BYTES)}`);
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    let at = 0;
    while (!this.done) {
      if (this.entry) {
        const take = Math.min(this.entry.left, this.buf.length - at);
        if (take > 0) {
          // copied: the caller may reuse its buffer
          this.entry.chunks?.push(Buffer.from(this.buf.subarray(at, at + take)));
          this.entry.left -= take;
          at += take;
        }
        if (this.entry.left > 0) break;
        const skip = Math.min(this.entry.pad, this.buf.length - at);
        this.entry.pad -= skip;
        at += skip;
        if (this.entry.pad > 0) break;
        this.endEntry();
        continue;
      }
      if (this.buf.length - at < BLOCK) break;
      this.header(this.buf.subarray(at, at + BLOCK));
      at += BLOCK;
      this.offset += BLOCK;
    }
    this.buf = Buffer.from(this.buf.subarray(at));
  }

  /** The files found, once the whole archive was read. */
  finish(): Map<string, Buffer> {
    if (this.entry) this.fail(`is not a valid tar archive (it ends inside ${this.entry.path}); make the archive again`);
    if (!this.done && this.buf.length > 0)
      this.fail("is not a valid tar archive (it ends inside a header); make the archive again");
    // the bundle's directory: the top level when a file sits there, else the one top directory all files share
    const root = this.fileDirs.has("") || this.fileDirs.size !== 1 ? "" : [...this.fileDirs][0];
    const files = new Map<string, Buffer>();
    for (const [p, data] of this.found) {
      const inRoot =
        root === "" ? !p.includes("/") : p.startsWith(`${root}/`) && !p.slice(root.length + 1).includes("/");
      // a bundle file's name elsewhere is not the bundle's file: named (ignored) by parseBundleFiles
      files.set(inRoot ? path.posix.basename(p) : p, data);
    }
    if (![...files.keys()].some((f) => KNOWN.has(f))) {
      throw new BundleReadError([
        `${this.source}: contains none of the bundle's files (is it a bundle written by scripts/collect-openstack.sh?)`,
      ]);
    }
    return files;
  }

  private header(h: Buffer): void {
    if (h.every((b) => b === 0)) {
      // the end-of-archive marker: nothing after it is read
      this.done = true;
      return;
    }
    const sum = h.reduce((a, b, i) => a + (i >= 148 && i < 156 ? 32 : b), 0);
    const stored = Number.parseInt(h.toString("latin1", 148, 156).replace(/\0.*$/s, "").trim(), 8);
    if (stored !== sum)
      this.fail(`is not a valid tar archive (bad header at byte ${this.offset}); make the archive again`);
    const type = String.fromCharCode(h[156] || 48);
    const size = this.size(h.subarray(124, 136));
    let name = cString(h, 0, 100);
    if (h.toString("latin1", 257, 262) === "ustar") {
      const prefix = cString(h, 345, 155);
      if (prefix) name = `${prefix}/${name}`;
    }
    if (this.longName !== null) name = this.longName;
    if (this.paxPath !== null) name = this.paxPath;
    const entrySize = type === "x" || type === "g" || type === "L" || type === "K" ? size : (this.paxSize ?? size);
    if (!"xgLK".includes(type)) {
      this.longName = null;
      this.paxPath = null;
      this.paxSize = null;
    }
    const p = this.checkedPath(name, type);
    const isFile = type === "0" || type === "7";
    if ("xLK".includes(type) && entrySize > 64 * 1024)
      this.fail(`the entry ${JSON.stringify(p)}: its header is too long`);
    if (entrySize > MAX_FILE_BYTES) {
      this.fail(
        `the entry ${JSON.stringify(p)}: is ${mb(entrySize)} unpacked; a bundle file may be at most ${mb(MAX_FILE_BYTES)}`,
      );
    }
    if (isFile) {
      if (this.seen.has(p)) this.fail(`the entry ${JSON.stringify(p)}: appears twice in the archive; make it again`);
      this.seen.add(p);
      const dir = path.posix.dirname(p);
      this.fileDirs.add(dir === "." ? "" : dir.split("/")[0]);
    }
    const keep = (isFile && KNOWN.has(path.posix.basename(p))) || "xLK".includes(type);
    if (!keep) {
      this.other += entrySize;
      if (this.other > MAX_OTHER_BYTES)
        this.fail(
          `the entry ${JSON.stringify(p)}: brings the files that are not the bundle's to ${mb(this.other)}; at most ${mb(MAX_OTHER_BYTES)} of them are skipped`,
        );
    }
    this.entry = {
      path: p,
      type,
      left: entrySize,
      pad: (BLOCK - (entrySize % BLOCK)) % BLOCK,
      chunks: keep ? [] : null,
    };
    if (entrySize === 0) this.endEntry();
  }

  private endEntry(): void {
    const e = this.entry!;
    this.entry = null;
    if (!e.chunks) return;
    const data = Buffer.concat(e.chunks);
    if (e.type === "L") this.longName = cString(data, 0, data.length);
    else if (e.type === "x") {
      const pax = parsePax(data.toString("utf8"));
      if (pax.path !== undefined) this.paxPath = pax.path;
      if (pax.size !== undefined) {
        const n = wholeNumber(pax.size, 0, Number.MAX_SAFE_INTEGER);
        if (n === null)
          this.fail(`the entry after ${JSON.stringify(e.path)}: has a bad size ${JSON.stringify(pax.size)}`);
        this.paxSize = n;
      }
    } else if (e.type === "0" || e.type === "7") this.found.set(e.path, data);
  }

  /** The entry's size field: octal digits, or GNU's base-256 for large sizes. */
  private size(field: Buffer): number {
    if (field[0] & 0x80) {
      let n = 0;
      for (let i = 1; i < field.length; i++) {
        n = n * 256 + field[i];
        if (n > Number.MAX_SAFE_INTEGER / 256) return Number.MAX_SAFE_INTEGER;
      }
      return n;
    }
    const text = field.toString("latin1").replace(/\0.*$/s, "").trim();
    if (!/^[0-7]*$/.test(text))
      this.fail(`is not a valid tar archive (bad size at byte ${this.offset}); make the archive again`);
    return text ? Number.parseInt(text, 8) : 0;
  }

  /** The entry's path inside the archive, or the refusal of one outside the bundle's directory. */
  private checkedPath(name: string, type: string): string {
    if (type === "x" || type === "g" || type === "L" || type === "K") return name;
    const parts = name.split("/").filter((s) => s !== "" && s !== ".");
    if (name.startsWith("/") || name.includes("\\") || parts.includes("..") || /^[A-Za-z]:/.test(name)) {
      this.fail(`the entry ${JSON.stringify(name)}: lies outside the bundle's directory; make the archive again`);
    }
    return parts.join("/");
  }
}

function cString(b: Buffer, start: number, len: number): string {
  const end = b.indexOf(0, start);
  return b.toString("utf8", start, end >= 0 && end < start + len ? end : start + len);
}

/** pax extended header records: "LEN key=value\n". */
function parsePax(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
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
  if (st.size > MAX_BUNDLE_BYTES) throw new BundleReadError([tooLargeMessage(p, st.size)], true);
  return (await readBundleStream(fs.createReadStream(p, { highWaterMark: 1024 * 1024 }), path.basename(p))).files;
}
