/**
 * uuid5 in the namespace the Nova reference uses (uuid.NAMESPACE_URL) for names it has to invent.
 * SHA-1 is written out here rather than taken from node:crypto so that the
 * scheduler (and the filter and weigher descriptors that reach this through
 * host state) also runs in the browser.
 */

const NS = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
const NS_BYTES = Uint8Array.from(NS.replace(/-/g, "").match(/../g)!, (b) => Number.parseInt(b, 16));
const utf8 = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
/** The message schedule, reused: sha1 is called once per host state built. */
const w = new Uint32Array(80);

/** FIPS 180-4 SHA-1 of `data`, 20 bytes. */
export function sha1(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  const padded = new Uint8Array((((data.length + 8) >> 6) + 1) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16];
      w[t] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let t = 0; t < 80; t++) {
      const f =
        t < 20
          ? ((b & c) | (~b & d)) + 0x5a827999
          : t < 40
            ? (b ^ c ^ d) + 0x6ed9eba1
            : t < 60
              ? ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc
              : (b ^ c ^ d) + 0xca62c1d6;
      const temp = (((a << 5) | (a >>> 27)) + f + e + w[t]) >>> 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    h0 = (h0 + a) >>> 0;
    h1 = (h1 + b) >>> 0;
    h2 = (h2 + c) >>> 0;
    h3 = (h3 + d) >>> 0;
    h4 = (h4 + e) >>> 0;
  }
  const out = new Uint8Array(20);
  const outView = new DataView(out.buffer);
  for (const [i, h] of [h0, h1, h2, h3, h4].entries()) outView.setUint32(i * 4, h);
  return out;
}

function hex(bytes: Uint8Array, from: number, to: number): string {
  let out = "";
  for (let i = from; i < to; i++) out += HEX[bytes[i]];
  return out;
}

export function stableUuid(name: string): string {
  const nameBytes = utf8.encode(name);
  const input = new Uint8Array(NS_BYTES.length + nameBytes.length);
  input.set(NS_BYTES);
  input.set(nameBytes, NS_BYTES.length);
  const h = sha1(input);
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  return `${hex(h, 0, 4)}-${hex(h, 4, 6)}-${hex(h, 6, 8)}-${hex(h, 8, 10)}-${hex(h, 10, 16)}`;
}
