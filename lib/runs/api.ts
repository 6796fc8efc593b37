/**
 * The runs API's answers (app/api/runs/[id]/...), as plain functions of a
 * cached run so they are testable without a server.
 */
import { MAX_DB_INT } from "@/lib/core/input-limits";
import { param, parseParams } from "@/lib/api/params";
import { fatesOf, type CachedRun } from "./cache";
import { findFates, instanceDetail, rejectedPage, weighedPage, type PageQuery } from "./view";

export type HostsView = "weighed" | "rejected" | "fate" | "detail";

export interface HostsQuery extends PageQuery {
  view: HostsView;
  index: number;
}

const HOSTS_QUERY = {
  view: param.choice(["weighed", "rejected", "fate", "detail"], "weighed"),
  index: param.wholeNumber(0, MAX_DB_INT, 0),
  offset: param.wholeNumber(0, MAX_DB_INT, 0),
  limit: param.wholeNumber(0, MAX_DB_INT, 25),
  q: param.optional(),
};

/** The hosts route's query, or the rule its first refused parameter breaks. */
export function parseHostsQuery(params: URLSearchParams): HostsQuery | string {
  const read = parseParams(HOSTS_QUERY, params);
  return read.ok ? read.value : read.error;
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
