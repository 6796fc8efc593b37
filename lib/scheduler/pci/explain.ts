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

/**
 * Why the guest's NUMA cells found no PCI devices with the affinity its
 * policy asks, e.g. "no pool of 10de:20b5 with 2 free devices on NUMA node
 * 1 (policy required); free by node: 0: 4".
 */
export function explainPciAffinity(stats: PciDeviceStats, requests: PciRequest[], guestNodes: number[]): string {
  const r = requests[0];
  const byNode = new Map<string, number>();
  for (const p of stats.pools) {
    if (!propMatch(p, r.spec)) continue;
    const node = String(p.numaNode ?? "none");
    byNode.set(node, (byNode.get(node) ?? 0) + p.count);
  }
  const free = [...byNode].map(([n, c]) => `${n}: ${c}`).join(", ") || "none";
  return (
    `no pool of ${device(r)} with ${r.count} free device(s) on NUMA node ${guestNodes.join(" or ")} ` +
    `(policy ${r.numaPolicy || "legacy"}); free by node: ${free}`
  );
}
