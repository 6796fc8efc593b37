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

export function useWeighedPage(
  runId: number,
  index: number,
  offset: number,
  limit: number,
  q: string,
  initial?: Page<WeighedRow>,
) {
  const first = offset === 0 && !q && initial && initial.limit === limit;
  return useQuery({
    queryKey: ["run", runId, "weighed", index, offset, limit, q],
    queryFn: () => getJson<Page<WeighedRow>>(hostsUrl(runId, { view: "weighed", index, offset, limit, q })),
    initialData: first ? initial : undefined,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export function useRejectedPage(
  runId: number,
  index: number,
  offset: number,
  limit: number,
  q: string,
  initial?: Page<RejectedRow>,
) {
  const first = offset === 0 && !q && initial && initial.limit === limit;
  return useQuery({
    queryKey: ["run", runId, "rejected", index, offset, limit, q],
    queryFn: () => getJson<Page<RejectedRow>>(hostsUrl(runId, { view: "rejected", index, offset, limit, q })),
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
