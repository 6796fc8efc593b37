/** Just enough of netaddr for SimpleCIDRAffinityFilter: parse and contain. */
import { NovaError } from "./python";

export interface ParsedIp {
  version: 4 | 6;
  value: bigint;
}

function parseV4(s: string): bigint | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseV6(s: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return null;
  let head = s;
  let tailV4: bigint | null = null;
  const lastColon = s.lastIndexOf(":");
  if (s.includes(".")) {
    tailV4 = parseV4(s.slice(lastColon + 1));
    if (tailV4 === null) return null;
    head = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const dbl = head.split("::");
  if (dbl.length > 2) return null;
  const left = dbl[0] ? dbl[0].split(":") : [];
  const right = dbl.length === 2 && dbl[1] ? dbl[1].split(":") : [];
  const missing = 8 - left.length - right.length;
  if (dbl.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array(dbl.length === 2 ? missing : 0).fill("0"), ...right];
  let v = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    v = (v << 16n) | BigInt(parseInt(g, 16));
  }
  if (tailV4 !== null) v = (v & ~0xffffffffn) | tailV4;
  return v;
}

const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const C_SPACE = " \t\n\v\f\r";

/**
 * glibc inet_aton, what netaddr.IPAddress() uses for IPv4 text: 1 to 4
 * parts, each decimal, octal (0…) or hex (0x…), the last filling the
 * remaining bytes ("10.1" is 10.0.0.1, "10" is 0.0.0.10); parsing stops
 * at the first white space.
 */
function inetAton(s: string): bigint | null {
  const parts: number[] = [];
  let i = 0;
  let val = 0;
  let digit = false;
  for (;;) {
    if (!(s[i] >= "0" && s[i] <= "9")) return null;
    val = 0;
    let base = 10;
    digit = false;
    if (s[i] === "0") {
      i++;
      if (s[i] === "x" || s[i] === "X") {
        base = 16;
        i++;
      } else {
        base = 8;
        digit = true;
      }
    }
    for (;;) {
      const c = s[i];
      if (c >= "0" && c <= "9") {
        if (base === 8 && (c === "8" || c === "9")) return null;
        val = val * base + (c.charCodeAt(0) - 48);
      } else if (base === 16 && /^[0-9a-fA-F]$/.test(c ?? "")) {
        val = val * 16 + parseInt(c, 16);
      } else break;
      if (val > 0xffffffff) return null;
      i++;
      digit = true;
    }
    if (s[i] !== ".") break;
    if (parts.length >= 3 || val > 0xff) return null;
    parts.push(val);
    i++;
  }
  if (i < s.length && !C_SPACE.includes(s[i])) return null;
  if (!digit) return null;
  const max = [0xffffffff, 0xffffff, 0xffff, 0xff][parts.length];
  if (val > max) return null;
  let v = 0n;
  for (const p of parts) v = (v << 8n) | BigInt(p);
  return (v << BigInt(8 * (4 - parts.length))) | BigInt(val);
}

/** Cheap validity check for the common case. */
export function isValidIp(text: string): boolean {
  if (V4.test(text)) return true;
  try {
    parseIp(text);
    return true;
  } catch {
    return false;
  }
}

/** netaddr.IPAddress(text): inet_aton for IPv4, else inet_pton for IPv6. */
export function parseIp(text: string): ParsedIp {
  const v4 = V4.test(text) ? parseV4(text) : inetAton(text);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 =
    /^[0-9a-fA-F:.]+$/.test(text) &&
    text
      .split(".")
      .slice(1)
      .every((p) => p === "0" || !p.startsWith("0"))
      ? parseV6(text)
      : null;
  if (v6 !== null) return { version: 6, value: v6 };
  throw new NovaError("AddrFormatError", `failed to detect a valid IP address from '${text}'`);
}

/** str(netaddr.IPAddress): dotted quad, or glibc inet_ntop's IPv6 text. */
export function formatIp(ip: ParsedIp): string {
  const quad = (v: bigint) => [24n, 16n, 8n, 0n].map((sh) => String((v >> sh) & 0xffn)).join(".");
  if (ip.version === 4) return quad(ip.value);
  const words: number[] = [];
  for (let k = 7; k >= 0; k--) words.push(Number((ip.value >> BigInt(16 * k)) & 0xffffn));
  let best = { base: -1, len: 0 };
  let cur = { base: -1, len: 0 };
  for (let k = 0; k < 8; k++) {
    if (words[k] === 0) {
      cur = cur.base === -1 ? { base: k, len: 1 } : { base: cur.base, len: cur.len + 1 };
      if (cur.len > best.len) best = { ...cur };
    } else cur = { base: -1, len: 0 };
  }
  if (best.len < 2) best = { base: -1, len: 0 };
  if (best.base === 0 && (best.len === 6 || (best.len === 5 && words[5] === 0xffff))) {
    return (best.len === 5 ? "::ffff:" : "::") + quad(ip.value & 0xffffffffn);
  }
  let out = "";
  for (let k = 0; k < 8; k++) {
    if (best.base !== -1 && k >= best.base && k < best.base + best.len) {
      if (k === best.base) out += ":";
      continue;
    }
    if (k > 0) out += ":";
    out += words[k].toString(16);
  }
  if (best.base !== -1 && best.base + best.len === 8) out += ":";
  return out;
}

export interface ParsedNetwork {
  version: 4 | 6;
  first: bigint;
  last: bigint;
}

const PY_INT = /^[\s\x1c-\x1f\x85]*[+-]?\d(?:_?\d)*[\s\x1c-\x1f\x85]*$/u;

/** inet_pton: strict dotted quad (no leading zeros) or an IPv6 text. */
function pton(version: 4 | 6, s: string): bigint | null {
  if (version === 4) return s.split(".").every((p) => p === "0" || !p.startsWith("0")) ? parseV4(s) : null;
  return parseV6(s);
}

/** netaddr.strategy.ipv4.expand_partial_address ("10.1" -> "10.1.0.0"). */
function expandPartial(s: string): string | null {
  if (s.includes(":")) return null;
  const parts = s.includes(".") ? s.split(".") : [s];
  if (!parts.every((p) => PY_INT.test(p))) return null;
  const tokens = parts.map((p) => String(Number(p.replace(/_/g, "").trim())));
  if (tokens.length < 1 || tokens.length > 4) return null;
  while (tokens.length < 4) tokens.push("0");
  return tokens.join(".");
}

const notNetwork = (text: string) => new NovaError("AddrFormatError", `invalid IPNetwork ${text}`);

/** netaddr.ip.parse_ip_network for one IP version (netaddr 0.8). */
function parseForVersion(version: 4 | 6, text: string): ParsedNetwork {
  const width = version === 4 ? 32 : 128;
  const slash = text.indexOf("/");
  const val1 = slash < 0 ? text : text.slice(0, slash);
  const val2 = slash < 0 ? undefined : text.slice(slash + 1);
  let value = pton(version, val1);
  if (value === null && version === 4) {
    const expanded = expandPartial(val1);
    value = expanded === null ? null : pton(4, expanded);
  }
  if (value === null) throw notNetwork(text);
  let prefix = width;
  if (val2 !== undefined) {
    if (PY_INT.test(val2)) prefix = Number(val2.replace(/_/g, "").trim());
    else {
      // A netmask or hostmask; IPAddress() refuses any text with a '/'.
      if (val2.includes("/")) {
        throw new NovaError(
          "ValueError",
          "IPAddress() does not support netmasks or subnet prefixes! See documentation for details.",
        );
      }
      const mask = pton(version, val2);
      if (mask === null) throw notNetwork(text);
      const max = (1n << BigInt(width)) - 1n;
      const isPow2 = (x: bigint) => (x & (x - 1n)) === 0n;
      const ones = (x: bigint) => x.toString(2).replace(/0/g, "").length;
      if (isPow2((mask ^ max) + 1n)) prefix = ones(mask);
      else if (isPow2(mask + 1n)) prefix = width - ones(mask);
      else throw notNetwork(text);
    }
  }
  if (!(prefix >= 0 && prefix <= width)) throw notNetwork(text);
  const hostBits = BigInt(width - prefix);
  const first = (value >> hostBits) << hostBits;
  return { version, first, last: first + (1n << hostBits) - 1n };
}

/**
 * netaddr.IPNetwork(text) as SimpleCIDRAffinityFilter builds it from
 * build_near_host_ip + cidr: "addr/prefix", "addr/netmask", "addr/hostmask",
 * a bare or partial IPv4 address ("10.1/16"). IPv4 is tried first, then
 * IPv6; a second '/' raises ValueError, anything else AddrFormatError.
 */
export function parseNetwork(text: string): ParsedNetwork {
  for (const version of [4, 6] as const) {
    try {
      return parseForVersion(version, text);
    } catch (e) {
      if (!(e instanceof NovaError) || e.novaName !== "AddrFormatError") throw e;
    }
  }
  throw notNetwork(text);
}

export function networkContains(net: ParsedNetwork, ip: ParsedIp): boolean {
  return net.version === ip.version && ip.value >= net.first && ip.value <= net.last;
}
