/**
 * The runs API's answers (app/api/runs/[id]/...), as plain functions of a
 * cached run so they are testable without a server.
 */
import { MAX_DB_INT, wholeNumber } from "@/lib/api/input-limits";
import { fatesOf, type CachedRun } from "./cache";
import { findFates, instanceDetail, rejectedPage, weighedPage, type PageQuery } from "./view";

export type HostsView = "weighed" | "rejected" | "fate" | "detail";

export interface HostsQuery extends PageQuery {
  view: HostsView;
  index: number;
}

export function parseHostsQuery(params: URLSearchParams): HostsQuery | string {
  const view = (params.get("view") ?? "weighed") as HostsView;
  if (!["weighed", "rejected", "fate", "detail"].includes(view))
    return `view: must be weighed, rejected, fate or detail (got "${view}")`;
  const num = (k: string, dflt: number) => {
    const v = params.get(k);
    if (v === null || v === "") return dflt;
    return wholeNumber(v, 0, MAX_DB_INT) ?? NaN;
  };
  const index = num("index", 0);
  const offset = num("offset", 0);
  const limit = num("limit", 25);
  for (const [k, v] of [
    ["index", index],
    ["offset", offset],
    ["limit", limit],
  ] as const) {
    if (Number.isNaN(v)) return `${k}: must be a whole number >= 0`;
  }
  return { view, index, offset, limit, q: params.get("q") ?? undefined };
}

export function answerHosts(run: CachedRun, q: HostsQuery): unknown {
  switch (q.view) {
    case "weighed":
      return weighedPage(run.result, q.index, q);
    case "rejected":
      return rejectedPage(run.result, q.index, q);
    case "fate":
      return findFates(fatesOf(run), q.q ?? "", Math.min(q.limit ?? 10, 50));
    case "detail":
      return instanceDetail(run.result, q.index);
  }
}
