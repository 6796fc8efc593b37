/**
 * What a result says beyond the funnel and the weights (SCENARIO.md "NUMA
 * and PCI", "Placement"): per selection, the guest NUMA cells Nova fitted on
 * the chosen host (guest cell -> host cell, vCPU -> host CPU, page size) and
 * the PCI devices taken per pool; for the Placement path, the query sent,
 * the candidates matched and returned, the hosts never considered because of
 * max_placement_results, and the claims. Pure: the page and tests share it.
 */
import { formatCpuList, formatKib } from "@/lib/catalog/hw-specs";
import type { FittedCell } from "@/lib/scheduler/numa/objects";
import {
  conductorProvenance,
  isNovaRelease,
  NOVA_RELEASES,
  releaseBehaviour,
  releaseProvenance,
} from "@/lib/scheduler/releases";
import { fmtCount } from "./format";

/** One cell of `selections[i].numa` as the result document has it. */
export type NumaCellResult = FittedCell;

export interface PciTakenResult {
  vendor_id: string | null;
  product_id: string | null;
  numa_node: number | null;
  dev_type: string | null;
  count: number;
}

export interface PlacementResult {
  query: string | null;
  fallback_query?: string | null;
  order_dependent?: true;
  matched?: number;
  candidates?: number;
  claims?: { index: number; tried: string[]; claimed: string | null }[];
  /** Nova's request filters and what each added to the query (Schedscope's engine). */
  request_filters?: { name: string; effect: string | null }[];
}

export interface NumaCellFit {
  guestCell: number;
  hostCell: number;
  sharedVcpus: number[];
  pinning: { vcpu: number; pcpu: number }[];
  emulatorCpus: number[] | null;
  pageSize: string | null;
  memoryMb: number;
  /** One sentence: "guest cell 0 → host cell 1: vCPUs 0-3 pinned to host CPUs 4, 36, 5, 37; 1 GiB pages; 8192 MiB". */
  text: string;
}

export interface PciTaken {
  device: string;
  deviceType: string | null;
  numaNode: number | null;
  count: number;
  text: string;
}

export interface SelectionFit {
  index: number;
  host: string;
  /** undefined: the request asked for no NUMA topology; null: nothing fitted on that host. */
  numa: NumaCellFit[] | null | undefined;
  pci: PciTaken[] | undefined;
}

export interface PlacementView {
  query: string | null;
  /** the query's parameters, decoded, for reading */
  params: { key: string; value: string }[];
  fallbackQuery: string | null;
  /** Real Placement may answer this query differently between runs (result.ts order_dependent). */
  orderDependent: boolean;
  matched: number | null;
  candidates: number | null;
  limit: number | null;
  hostsIn: number | null;
  hostsReturned: number | null;
  /** hosts Placement matched but never returned because of max_placement_results */
  cutByLimit: number;
  claims: { index: number; tried: string[]; claimed: string | null }[];
  requestFilters: { name: string; effect: string | null }[];
  explanation: string;
}

export function numaCellFit(c: NumaCellResult): NumaCellFit {
  const pinning = Object.entries(c.cpu_pinning ?? {})
    .map(([v, p]) => ({ vcpu: Number(v), pcpu: p }))
    .sort((a, b) => a.vcpu - b.vcpu);
  const parts: string[] = [];
  if (c.cpuset.length) parts.push(`vCPUs ${formatCpuList(c.cpuset)} on the host's shared CPUs`);
  if (pinning.length) {
    parts.push(
      `vCPU${pinning.length === 1 ? "" : "s"} ${pinning.map((p) => `${p.vcpu}→CPU ${p.pcpu}`).join(", ")} pinned`,
    );
  } else if (c.pcpuset.length) parts.push(`vCPUs ${formatCpuList(c.pcpuset)} pinned`);
  if (c.cpuset_reserved?.length) parts.push(`emulator threads on CPU ${formatCpuList(c.cpuset_reserved)}`);
  const pageSize = c.pagesize ? formatKib(c.pagesize) : null;
  parts.push(pageSize ? `${pageSize} pages` : "no page size asked");
  parts.push(`${c.memory} MiB`);
  return {
    guestCell: c.id,
    hostCell: c.host_cell,
    sharedVcpus: c.cpuset,
    pinning,
    emulatorCpus: c.cpuset_reserved?.length ? c.cpuset_reserved : null,
    pageSize,
    memoryMb: c.memory,
    text: `guest cell ${c.id} → host cell ${c.host_cell}: ${parts.join("; ")}`,
  };
}

export function pciTaken(p: PciTakenResult): PciTaken {
  const device = `${p.vendor_id ?? "any vendor"}:${p.product_id ?? "any product"}`;
  return {
    device,
    deviceType: p.dev_type,
    numaNode: p.numa_node,
    count: p.count,
    text: `${p.count} × ${device}${p.dev_type ? ` (${p.dev_type})` : ""} from the pool on ${p.numa_node === null ? "no NUMA node" : `NUMA node ${p.numa_node}`}`,
  };
}

type SelectionResult = { host: string; numa?: NumaCellResult[] | null; pci?: PciTakenResult[] };

export function selectionFits(selections: SelectionResult[]): SelectionFit[] {
  return selections.map((s, index) => ({
    index,
    host: s.host,
    numa: s.numa === undefined ? undefined : s.numa === null ? null : s.numa.map(numaCellFit),
    pci: s.pci?.map(pciTaken),
  }));
}

function decodeQuery(q: string): { key: string; value: string }[] {
  return q
    .split("&")
    .filter(Boolean)
    .map((kv) => {
      const i = kv.indexOf("=");
      const dec = (s: string) => {
        try {
          return decodeURIComponent(s.replace(/\+/g, " "));
        } catch {
          return s;
        }
      };
      return i < 0 ? { key: dec(kv), value: "" } : { key: dec(kv.slice(0, i)), value: dec(kv.slice(i + 1)) };
    });
}

/** The Placement block and stage of a result; null when the run did not take the Placement path. */
export function placementView(result: {
  placement?: PlacementResult | null;
  requests: { funnel: { filter: string; in: number; out: number }[] }[];
}): PlacementView | null {
  const p = result.placement;
  if (!p) return null;
  const stage = result.requests[0]?.funnel.find((f) => f.filter === "Placement") ?? null;
  const params = p.query ? decodeQuery(p.query) : [];
  const limitParam = params.find((x) => x.key === "limit");
  const limit = limitParam ? Number(limitParam.value) : null;
  const matched = p.matched ?? null;
  const candidates = p.candidates ?? null;
  const cutByLimit = matched !== null && candidates !== null ? Math.max(0, matched - candidates) : 0;
  let explanation: string;
  if (p.query === null) {
    explanation = "Nova failed before asking Placement (e.g. a tenant with no aggregate, or an unknown forced host).";
  } else if (cutByLimit > 0) {
    const returned = stage?.out ?? candidates!;
    const unmatched = stage && matched !== null ? Math.max(0, stage.in - matched) : 0;
    const many = cutByLimit !== 1;
    explanation =
      `Placement returned ${fmtCount(returned)}${stage ? ` of ${fmtCount(stage.in)}` : ""} hosts ` +
      `(max_placement_results = ${limit}): ${fmtCount(cutByLimit)} ${many ? "hosts" : "host"} that matched the request ` +
      `${many ? "were" : "was"} never considered by the filters and weighers, because ${many ? "they were" : "it was"} ` +
      `not among the first ${fmtCount(limit!)} allocation candidates.` +
      (unmatched > 0
        ? ` ${fmtCount(unmatched)} other ${unmatched === 1 ? "host" : "hosts"} did not match the request (reasons in the funnel's Placement stage).`
        : "");
  } else if (limit === null && p.query) {
    explanation = `No limit was sent (a server group, a same_host/different_host hint or a multi-node forced host drops max_placement_results): every matching host was returned${matched !== null ? ` (${fmtCount(matched)})` : ""}.`;
  } else {
    explanation = `Placement returned every host it matched${matched !== null ? ` (${fmtCount(matched)})` : ""}; max_placement_results = ${limit} cut none.`;
  }
  return {
    query: p.query,
    params,
    fallbackQuery: p.fallback_query ?? null,
    orderDependent: p.order_dependent === true,
    matched,
    candidates,
    limit,
    hostsIn: stage?.in ?? null,
    hostsReturned: stage?.out ?? null,
    cutByLimit,
    claims: p.claims ?? [],
    requestFilters: p.request_filters ?? [],
    explanation,
  };
}

/**
 * The Nova release a run answered as, in the result documents' words ("26
 * (Zed)"): the profile's when it names one (a run that failed on its config
 * still answered as that release), else the result's own, else Zed.
 */
export function releaseOf(result: { nova_release?: string }, config?: { nova_release?: string } | null): string {
  const named = config?.nova_release;
  if (named !== undefined && isNovaRelease(named)) return releaseBehaviour(named).label;
  return result.nova_release ?? releaseBehaviour("zed").label;
}

/** "checked against Nova 31.0.0" or "read from Nova's source" for a release label ("31 (2025.1 Epoxy)"); null when unknown. */
export function releaseProvenanceOf(label: string): string | null {
  const release = NOVA_RELEASES.find((r) => releaseBehaviour(r).label === label);
  return release ? releaseProvenance(release) : null;
}

/** The same for the release's conductor (a live-migrate, evacuate or unshelve); null when unknown. */
export function conductorProvenanceOf(label: string): string | null {
  const release = NOVA_RELEASES.find((r) => releaseBehaviour(r).label === label);
  return release ? conductorProvenance(release) : null;
}
