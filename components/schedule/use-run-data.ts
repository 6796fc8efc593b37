"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getJson } from "@/components/data/api";
import type { HostFate, InstanceDetail, Page, RejectedRow, WeighedRow } from "@/lib/runs/view";

function hostsUrl(runId: number, params: Record<string, string | number | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") sp.set(k, String(v));
  return `/api/runs/${runId}/hosts?${sp}`;
}

/** One instance's details (instance 0 comes with the page). */
export function useInstanceDetail(runId: number, index: number, initial: InstanceDetail | null) {
  return useQuery({
    queryKey: ["run", runId, "detail", index],
    queryFn: () => getJson<InstanceDetail>(hostsUrl(runId, { view: "detail", index })),
    initialData: index === 0 && initial ? initial : undefined,
    staleTime: Infinity,
  });
}

/** The rows of each paged host list of a run. */
type HostRows = { weighed: WeighedRow; rejected: RejectedRow };

/** One page of a run's weighed or rejected hosts for one instance; the server-rendered page seeds the first. */
export function useHostPage<V extends keyof HostRows>(
  view: V,
  runId: number,
  index: number,
  offset: number,
  limit: number,
  q: string,
  initial?: Page<HostRows[V]>,
) {
  const first = offset === 0 && !q && initial && initial.limit === limit;
  return useQuery({
    queryKey: ["run", runId, view, index, offset, limit, q],
    queryFn: () => getJson<Page<HostRows[V]>>(hostsUrl(runId, { view, index, offset, limit, q })),
    initialData: first ? initial : undefined,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export function useFates(runId: number, q: string) {
  return useQuery({
    queryKey: ["run", runId, "fate", q],
    queryFn: () => getJson<{ hosts: HostFate[]; total: number }>(hostsUrl(runId, { view: "fate", q, limit: 10 })),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}
