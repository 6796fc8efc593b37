/** Just enough of netaddr for SimpleCIDRAffinityFilter: parse and contain. */
import { NovaError } from './python';

export interface ParsedIp {
  version: 4 | 6;
  value: bigint;
}

function parseV4(s: string): bigint | null {
  const parts = s.split('.');
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
  const lastColon = s.lastIndexOf(':');
  if (s.includes('.')) {
    tailV4 = parseV4(s.slice(lastColon + 1));
    if (tailV4 === null) return null;
    head = s.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = head.split('::');
  if (dbl.length > 2) return null;
  const left = dbl[0] ? dbl[0].split(':') : [];
  const right = dbl.length === 2 && dbl[1] ? dbl[1].split(':') : [];
  const missing = 8 - left.length - right.length;
  if (dbl.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array(dbl.length === 2 ? missing : 0).fill('0'), ...right];
  let v = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    v = (v << 16n) | BigInt(parseInt(g, 16));
  }
  if (tailV4 !== null) v = (v & ~0xffffffffn) | tailV4;
  return v;
}

const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Cheap validity check for the common case; full parse only for IPv6. */
export function isValidIp(text: string): boolean {
  if (V4.test(text)) return true;
  try {
    parseIp(text);
    return true;
  } catch {
    return false;
  }
}

export function parseIp(text: string): ParsedIp {
  const v4 = parseV4(text);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseV6(text);
  if (v6 !== null) return { version: 6, value: v6 };
  throw new NovaError('AddrFormatError', `failed to detect a valid IP address from '${text}'`);
}

export interface ParsedNetwork {
  version: 4 | 6;
  first: bigint;
  last: bigint;
}

/** netaddr.IPNetwork("addr/prefix"), "addr/netmask" or a bare address. */
export function parseNetwork(text: string): ParsedNetwork {
  const slash = text.indexOf('/');
  const addrText = slash < 0 ? text : text.slice(0, slash);
  let ip: ParsedIp;
  try {
    ip = parseIp(addrText);
  } catch {
    throw new NovaError('AddrFormatError', `invalid IPNetwork ${text}`);
  }
  const bits = ip.version === 4 ? 32 : 128;
  let prefix = bits;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    if (/^\d+$/.test(p) && Number(p) <= bits) prefix = Number(p);
    else {
      const mask = ip.version === 4 ? parseV4(p) : null;
      if (mask === null) throw new NovaError('AddrFormatError', `invalid IPNetwork ${text}`);
      const ones = mask.toString(2).replace(/0+$/, '');
      if (ones.includes('0')) throw new NovaError('AddrFormatError', `invalid IPNetwork ${text}`);
      prefix = mask === 0n ? 0 : ones.length;
    }
  }
  const hostBits = BigInt(bits - prefix);
  const first = (ip.value >> hostBits) << hostBits;
  const last = first + (1n << hostBits) - 1n;
  return { version: ip.version, first, last };
}

export function networkContains(net: ParsedNetwork, ip: ParsedIp): boolean {
  return net.version === ip.version && ip.value >= net.first && ip.value <= net.last;
}
