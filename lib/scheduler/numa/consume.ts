/**
 * The NUMA and PCI half of HostState._locked_consume_from_request: re-fit
 * the guest on the chosen host, replace the request's topology with the
 * fitted one (later instances are filtered with it), update the host cells
 * and take the PCI devices. Nova swallows any failure here (it only logs),
 * keeping what was done before it; so do we, and say whether it failed.
 */
import type { HostState } from "../host-state";
import { NovaError } from "../python";
import type { RequestSpec } from "../request-spec";
import type { PciPool } from "../pci/stats";
import { numaFitInstanceToHost } from "./fit";
import { describeTopology, type FittedCell } from "./objects";
import { numaUsageFromInstance } from "./usage";

/** Devices taken from one pool (nova_reference's `pci` block). */
export interface PciTaken {
  vendor_id: string | null;
  product_id: string | null;
  numa_node: number | null;
  dev_type: string | null;
  count: number;
}

/** What one instance took on its host; a key is present when the request asked for it. */
export interface Placement {
  numa?: FittedCell[] | null;
  pci?: PciTaken[];
}

function poolKey(p: PciPool): string {
  return JSON.stringify([...p.props].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function poolCounts(pools: PciPool[]): Map<string, { pool: PciPool; count: number }> {
  const out = new Map<string, { pool: PciPool; count: number }>();
  for (const p of pools) {
    const k = poolKey(p);
    const e = out.get(k);
    if (e) e.count += p.count;
    else out.set(k, { pool: p, count: p.count });
  }
  return out;
}

function taken(before: Map<string, { pool: PciPool; count: number }>, pools: PciPool[]): PciTaken[] {
  const after = poolCounts(pools);
  const out: PciTaken[] = [];
  for (const [k, { pool, count }] of before) {
    const n = count - (after.get(k)?.count ?? 0);
    if (n <= 0) continue;
    const get = (key: string) => pool.props.get(key) ?? null;
    out.push({
      vendor_id: get("vendor_id") as string | null,
      product_id: get("product_id") as string | null,
      numa_node: get("numa_node") as number | null,
      dev_type: get("dev_type") as string | null,
      count: n,
    });
  }
  return out;
}

/** Returns what was placed and whether Nova's consume would have finished (ok) or logged an error. */
export function consumeNumaAndPci(
  host: HostState,
  spec: RequestSpec,
  pack: boolean,
  asked: { numa: boolean; pci: boolean },
  rules: { freeSmallPages?: boolean; emptyPinningFits?: boolean } = {},
): { placement: Placement; ok: boolean } {
  const before = asked.pci ? poolCounts(host.pciStats.pools) : null;
  const fits = !!(host.numaCells?.length && spec.numaTopology?.cells.length);
  let ok = true;
  try {
    if (host.numaCells?.length && spec.numaTopology?.cells.length) {
      spec.numaTopology = numaFitInstanceToHost(host.numaCells, spec.numaTopology, {
        limits: host.numaLimitsOf(spec),
        pciRequests: spec.pciRequests,
        pciStats: host.pciStats,
        pack,
        ...rules,
      });
      if (spec.numaTopology)
        host.numaCells = numaUsageFromInstance(host.numaCells, spec.numaTopology, rules.emptyPinningFits);
    }
    if (spec.pciRequests.length) {
      const cells = spec.numaTopology?.cells.length ? spec.numaTopology.cells : null;
      // A host's pools may be shared with other requests (a frozen snapshot
      // host's, built once): taking devices works on this host's own copy.
      host.pciStats = host.pciStats.clone();
      if (!host.pciStats.applyRequests(spec.pciRequests, cells))
        throw new NovaError("PciDeviceRequestFailed", `${host.host} cannot serve the PCI requests`);
    }
  } catch (e) {
    if (!(e instanceof NovaError)) throw e;
    ok = false;
  }
  const placement: Placement = {};
  if (asked.numa) placement.numa = fits ? describeTopology(spec.numaTopology) : null;
  if (before) placement.pci = taken(before, host.pciStats.pools);
  return { placement, ok };
}
