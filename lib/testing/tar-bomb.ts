/**
 * Hostile archives for the tests: a .tar.gz of entries of zero bytes,
 * gzipped as it is made (about 1 MB per GB), never held whole in memory.
 */
import zlib from "node:zlib";

/** A ustar header of a regular file `name` of `size` bytes. */
export function tarFileHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, "utf8");
  h.write("0000644\0", 100);
  h.write("0000000\0", 108);
  h.write("0000000\0", 116);
  h.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
  h.write("00000000000\0", 136);
  h.write("        ", 148);
  h.write("0", 156);
  h.write("ustar\u000000", 257);
  h.write(
    `${h
      .reduce((a, b) => a + b, 0)
      .toString(8)
      .padStart(6, "0")}\0 `,
    148,
  );
  return h;
}

/**
 * A .tar.gz of `entries`, each `size` zero bytes, with the end-of-archive
 * marker: gzip members one after another (gunzip reads them as one stream),
 * the 16 MB of zeros compressed once and repeated, so making a 1 GB bomb
 * costs one small compression.
 */
export function gzipBomb(entries: { name: string; size: number }[]): Buffer {
  const CHUNK = 16 * 1024 * 1024;
  const zeros = zlib.gzipSync(Buffer.alloc(CHUNK), { level: 9 });
  const members: Buffer[] = [];
  for (const { name, size } of entries) {
    members.push(zlib.gzipSync(tarFileHeader(name, size)));
    const whole = Math.floor(size / CHUNK);
    for (let i = 0; i < whole; i++) members.push(zeros);
    const rest = size - whole * CHUNK + ((512 - (size % 512)) % 512);
    if (rest) members.push(zlib.gzipSync(Buffer.alloc(rest)));
  }
  members.push(zlib.gzipSync(Buffer.alloc(1024)));
  return Buffer.concat(members);
}
