const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const one = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

export const fmtInt = (n: number) => int.format(n);
export const fmt1 = (n: number) => one.format(n);
/** MB → "12.5 GiB" / "1.2 TiB". */
export function fmtMb(mb: number): string {
  if (Math.abs(mb) >= 1024 * 1024) return `${one.format(mb / 1024 / 1024)} TiB`;
  if (Math.abs(mb) >= 1024) return `${one.format(mb / 1024)} GiB`;
  return `${int.format(mb)} MiB`;
}
/** GB → "960 GB" / "7.7 TB". */
export function fmtGb(gb: number): string {
  if (Math.abs(gb) >= 1000) return `${one.format(gb / 1000)} TB`;
  return `${int.format(gb)} GB`;
}
export function pct(used: number, total: number): string {
  if (total <= 0) return used > 0 ? "—" : "0%";
  return `${Math.round((used / total) * 100)}%`;
}
export function fmtDate(d: Date): string {
  return `${d.toISOString().replace("T", " ").slice(0, 19)} UTC`;
}
/** A dynamic route segment as the name it encodes (Next passes it URL-encoded). */
export function decodeParam(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
