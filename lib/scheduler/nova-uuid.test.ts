// stableUuid must give Python's uuid.uuid5(uuid.NAMESPACE_URL, name) (what the
// Nova reference writes), and its SHA-1 must agree with Node's on inputs of
// every padding length and on non-ASCII names.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha1, stableUuid } from "./nova-uuid";

const nodeSha1 = (bytes: Uint8Array) => new Uint8Array(createHash("sha1").update(bytes).digest());

describe("sha1 agrees with node:crypto", () => {
  // every length across three 64-byte blocks crosses each padding boundary (55, 56, 63, 64 ...)
  const lengths = Array.from({ length: 200 }, (_, n) => n).concat([1000, 4096, 65537]);
  it.each(lengths)("on %i bytes", (n) => {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n * 7) & 0xff);
    expect(sha1(bytes)).toEqual(nodeSha1(bytes));
  });
});

describe("stableUuid is uuid5 in the URL namespace", () => {
  it.each([
    // python3 -c "import uuid; print(uuid.uuid5(uuid.NAMESPACE_URL, NAME))"
    ["", "1b4db7eb-4057-5ddf-91e0-36dec72071f5"],
    ["cmp-001", "9007eeaf-ad7b-566b-aec7-6234ea954ba5"],
    ["hôte-ü-🙂", "0d808f36-6fd9-572b-b755-3cca5fecd5c5"],
    ["inst-0-0", "24b9946c-9710-5ec5-9b47-ac96845a6b1b"],
  ])("%j gives %s", (name, uuid) => {
    expect(stableUuid(name)).toBe(uuid);
  });
});
