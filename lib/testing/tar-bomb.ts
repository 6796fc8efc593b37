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

/** A .tar.gz of `entries`, each `size` zero bytes, with the end-of-archive marker. */
export async function gzipBomb(entries: { name: string; size: number }[]): Promise<Buffer> {
  const gz = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on("data", (c: Buffer) => out.push(c));
  const done = new Promise((r) => gz.on("end", r));
  const zeros = Buffer.alloc(16 * 1024 * 1024);
  for (const { name, size } of entries) {
    gz.write(tarFileHeader(name, size));
    for (let left = size; left > 0; left -= zeros.length) {
      if (!gz.write(left >= zeros.length ? zeros : zeros.subarray(0, left)))
        await new Promise((r) => gz.once("drain", r));
    }
    const pad = (512 - (size % 512)) % 512;
    if (pad) gz.write(Buffer.alloc(pad));
  }
  gz.end(Buffer.alloc(1024));
  await done;
  return Buffer.concat(out);
}
