/**
 * The Placement half of SchedulerManager.select_destinations (Zed): request
 * filters → resource request → GET /allocation_candidates (and the PCPU →
 * VCPU fallback query) → the hosts Placement returned, with the allocation
 * request each would be claimed with and why every other host is not a
 * candidate. The claim loop itself lives in the engine, beside the filters.
 */
import type { SchedulerConfig } from "../config";
import { buildAggregates, type HostState } from "../host-state";
import type { PlacementReason } from "./reasons";
import type { RequestSpec } from "../request-spec";
import type { Scenario } from "../scenario";
import { type AggregateLabel, allocationCandidates } from "./candidates";
import { buildPlacementCloud, type PlacementCloud, type Provider } from "./providers";
import type { AllocationRequest } from "./trees";
import { aggregateRows, processRequestSpec, type RequestFilterTrace } from "./request-filters";
import { buildResourceRequest, type ResourceRequest, toQuerystring } from "./resource-request";

export { claim, shortReason, unitReason } from "./candidates";
export { type AllocationRequest, byName, claimRequest } from "./trees";
export type { Provider } from "./providers";

export interface PlacementOutcome {
  /** The querystring Nova sent; null when Nova failed before asking. */
  query: string | null;
  fallbackQuery?: string;
  /** Allocation requests matched before `limit`, summed over the queries. */
  matched: number;
  /** Allocation requests returned, summed over the queries. */
  candidates: number;
  /** NoValidHost before any query (a request filter, an unknown forced host). */
  failedBeforeQuery: string | null;
  /** Zed's TypeError: the fallback query was refused and Nova extends its list with None. */
  typeError: boolean;
  /** The providers Placement returned (union of the queries), scenario order. */
  returned: Provider[];
  /** Allocation request per returned provider (the first query's when both matched); without trees. */
  allocations: Map<Provider, Map<string, number>>;
  /**
   * With trees (some host has child providers): every allocation request Nova
   * got, both queries in order, and per compute node the first one that
   * allocates from it, the one Nova claims. Null without trees.
   */
  requests: AllocationRequest[] | null;
  firstRequest: Map<Provider, AllocationRequest> | null;
  /** Why each host is not among the returned ones, by host index (null: returned). */
  reasons: (PlacementReason | null)[];
  requestFilters: RequestFilterTrace[];
  providers: Provider[];
  /** Real Placement may answer a query differently between runs (trees.ts treeAnswer): said on the result. */
  orderDependent?: boolean;
}

/**
 * resources_from_request_spec: the target host/node (a move's
 * requested_destination first, then force_hosts/force_nodes) looked up by
 * HostManager.get_compute_nodes_by_host_or_node, as SQL "=" answers it.
 */
function forcedNodes(
  spec: RequestSpec,
  providers: Provider[],
): { uuids: string[]; host: string | null; node: string | null } | null {
  const dest = spec.requestedDestination;
  const host = dest?.host || spec.forceHosts[0] || null;
  const node = dest?.node || spec.forceNodes[0] || null;
  if (!host && !node) return null;
  let found: Provider[];
  if (host && node) found = providers.filter((p) => p.host.host === host && p.host.nodename === node).slice(0, 1);
  else if (host) found = providers.filter((p) => p.host.host === host);
  else found = providers.filter((p) => p.host.nodename === node).slice(0, 1);
  return { uuids: found.map((p) => p.uuid), host, node };
}

/** The queries Nova sends for a request: the first, and the VCPU fallback of a pinned request. */
export interface PlacementQueries {
  requestFilters: RequestFilterTrace[];
  /** NoValidHost before any query (a request filter, an unknown forced host). */
  failedBeforeQuery: string | null;
  first: ResourceRequest | null;
  /** Null when Nova sends no fallback query. */
  fallback: ResourceRequest | null;
  labels: AggregateLabel[];
}

/** The request filters and resources_from_request_spec, as select_destinations runs them. */
export function placementQueries(
  config: SchedulerConfig,
  scenario: Scenario,
  spec: RequestSpec,
  cloud: PlacementCloud,
): PlacementQueries {
  const out: PlacementQueries = {
    requestFilters: [],
    failedBeforeQuery: null,
    first: null,
    fallback: null,
    labels: [],
  };
  const image = scenario.request.image ?? {};
  const diskFormat = typeof image.disk_format === "string" ? image.disk_format : "qcow2";
  const isBfv = Boolean(scenario.request.is_bfv);
  const rf = processRequestSpec(config, spec, aggregateRows(buildAggregates(scenario.aggregates)), {
    diskFormat,
    isBfv,
  });
  out.requestFilters = rf.trace;
  if (rf.failed) {
    out.failedBeforeQuery = rf.failed;
    return out;
  }
  out.labels = rf.trace
    .filter((t) => t.effect?.startsWith("member_of"))
    .map((t) =>
      t.name === "require_tenant_aggregate"
        ? { code: "NOT_IN_TENANT_AGGREGATE", message: `not in an aggregate of project ${spec.projectId}` }
        : { code: "NOT_IN_AVAILABILITY_ZONE", message: `not in availability zone ${spec.availabilityZone}` },
    );
  const forced = forcedNodes(spec, cloud.providers);
  if (forced && !forced.uuids.length) {
    out.failedBeforeQuery = `No such host - host: ${forced.host} node: ${forced.node}`;
    return out;
  }
  const opts = {
    maxPlacementResults: config.maxPlacementResults,
    isBfv,
    forcedNodes: forced ? forced.uuids : null,
    translateMaxphysaddr: config.release.packedRingAndMaxphysaddrTraits,
    translateTpmModelAndStatelessFirmware: config.release.tpmModelAndStatelessFirmwareTraits,
    memEncryptionModelTrait: config.release.memEncryptionModelTrait,
  };
  out.first = buildResourceRequest(spec, rf, { ...opts, enablePinningTranslate: true });
  if (out.first.cpuPinningRequested && !config.disableFallbackPcpuQuery)
    out.fallback = buildResourceRequest(spec, rf, { ...opts, enablePinningTranslate: false });
  return out;
}

export function askPlacement(
  config: SchedulerConfig,
  scenario: Scenario,
  hosts: HostState[],
  spec: RequestSpec,
  /** What happens in Placement before select_destinations (a move's source allocation). */
  beforeScheduling?: (cloud: PlacementCloud) => void,
): PlacementOutcome {
  const cloud = buildPlacementCloud(scenario, hosts, config.release.addedStandardTraits);
  beforeScheduling?.(cloud);
  const out: PlacementOutcome = {
    query: null,
    matched: 0,
    candidates: 0,
    failedBeforeQuery: null,
    typeError: false,
    returned: [],
    allocations: new Map(),
    requests: cloud.hasTrees ? [] : null,
    firstRequest: cloud.hasTrees ? new Map() : null,
    reasons: [],
    requestFilters: [],
    providers: cloud.providers,
  };
  const pq = placementQueries(config, scenario, spec, cloud);
  out.requestFilters = pq.requestFilters;
  if (pq.failedBeforeQuery || !pq.first) {
    out.failedBeforeQuery = pq.failedBeforeQuery;
    return out;
  }
  out.query = toQuerystring(pq.first);
  const queries = [allocationCandidates(pq.first, cloud, pq.labels)];
  if (pq.fallback) {
    out.fallbackQuery = toQuerystring(pq.fallback);
    const second = allocationCandidates(pq.fallback, cloud, pq.labels);
    if (second.refused) {
      out.typeError = true;
      return out;
    }
    queries.push(second);
  }
  const returned = new Uint8Array(cloud.providers.length);
  for (const q of queries) {
    if (q.orderDependent) out.orderDependent = true;
    if (q.requests) {
      if (!q.refused) out.matched += q.matchedRequests ?? 0;
      out.candidates += q.requests.length;
      for (const areq of q.requests) {
        out.requests!.push(areq);
        if (areq.allocations.has(areq.root) && !out.firstRequest!.has(areq.root))
          out.firstRequest!.set(areq.root, areq);
      }
      for (const p of q.returned) returned[p.index] = 1;
      continue;
    }
    if (!q.refused) out.matched += q.matched.length;
    out.candidates += q.returned.length;
    for (const p of q.returned) {
      if (returned[p.index]) continue;
      returned[p.index] = 1;
      out.allocations.set(p, q.amounts);
    }
  }
  out.reasons = new Array(cloud.providers.length).fill(null);
  for (const p of cloud.providers) {
    if (returned[p.index]) {
      out.returned.push(p);
      continue;
    }
    const why = queries[0].reasons[p.index]!;
    const second = queries.length > 1 ? queries[1].reasons[p.index] : null;
    out.reasons[p.index] =
      second && second.message !== why.message
        ? { ...why, message: `${why.message}; asked as VCPU: ${second.message}` }
        : why;
  }
  return out;
}
