/** Why a host's PCI pools cannot serve a request, in an operator's words. */
import type { PciRequest } from "./request";
import { type PciDeviceStats, propMatch } from "./stats";

function device(r: PciRequest): string {
  return r.spec
    .map((s) => `${s.vendor_id ?? "*"}:${s.product_id ?? "*"}${s.dev_type ? ` ${s.dev_type}` : ""}`)
    .join(" or ");
}

export function explainPci(stats: PciDeviceStats, requests: PciRequest[], numaNodes?: number[]): string {
  for (const r of requests) {
    const matching = stats.pools.filter((p) => propMatch(p, r.spec));
    const free = matching.reduce((n, p) => n + p.count, 0);
    if (free < r.count) {
      const where = numaNodes ? ` on NUMA node ${numaNodes.join(" or ")}` : "";
      return `no pool of ${device(r)} with ${r.count} free device(s)${where} (alias ${r.aliasName}: ${free} free)`;
    }
  }
  return `PCI requests ${requests.map((r) => `${r.aliasName}:${r.count}`).join(", ")} cannot be served together (or the free devices are PFs, vDPA or remote-managed devices not requested)`;
}
