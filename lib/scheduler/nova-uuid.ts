/** uuid5 in the namespace the Nova reference uses for names it has to invent. */
import { createHash } from "node:crypto";

const NS = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
const NS_BYTES = Buffer.from(NS.replace(/-/g, ""), "hex");

export function stableUuid(name: string): string {
  const h = createHash("sha1").update(NS_BYTES).update(Buffer.from(name, "utf8")).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}
