/**
 * Each page's search parameters, by the page's path (`[x]` is one segment):
 * the proxy refuses a query these do not parse (pageQueryRefusal) and the
 * page reads the same shape (readPageParams), so a value the proxy let
 * through is one the page accepts.
 */
import {
  HOST_PAGE_SIZES,
  HOST_SORTS,
  HOST_STATES,
  type HostSort,
  type HostStateFilter,
} from "@/lib/cloud/queries/hosts";
import { type ParamsOf, type ParamsShape, param, parseParams, type RawParams, readParams } from "./params";

/** A page's `?deleted=NAME` and `?edit=ID`: what the notice names and which row opens for editing. */
const listPage = { deleted: param.optional(), edit: param.optional() };

export const PAGE_PARAMS = {
  "/": { losses: param.oneOf(["1"], undefined) },
  "/sign-in": { next: param.optional(), signedOut: param.flag() },
  "/schedule": { from: param.recordId(), flavor: param.optional() },
  "/runs": { before: param.recordId() },
  /** Runway's what-if: a flavor, and N more hosts like host `like`. */
  "/capacity": { flavor: param.optional(), add: param.wholeNumber(0, 10_000, null), like: param.text() },
  "/history": { a: param.recordId(), b: param.recordId() },
  "/runs/compare": { a: param.recordId(), b: param.recordId() },
  "/hosts": {
    q: param.text(),
    sort: param.oneOf(Object.keys(HOST_SORTS) as HostSort[], "position"),
    dir: param.oneOf(["asc", "desc"], "asc"),
    state: param.oneOf(Object.keys(HOST_STATES) as HostStateFilter[], undefined),
    cell: param.text(),
    size: param.oneOf(
      HOST_PAGE_SIZES.map((n) => String(n)),
      "50",
    ),
    page: param.page(),
  },
  "/hosts/[name]": { drain: param.oneOf(["1"], undefined) },
  "/instances": { q: param.text(), host: param.text(), page: param.page(), ...listPage },
  "/audit": {
    user: param.text(),
    entity: param.text(),
    key: param.text(),
    from: param.text(),
    to: param.text(),
    page: param.page(),
  },
  "/aggregates": listPage,
  "/aggregates/[name]": { hq: param.text(), hpage: param.page(), created: param.flag(), renamed: param.flag() },
  "/flavors": listPage,
  "/flavors/[name]": { created: param.flag(), renamed: param.flag() },
  "/images": listPage,
  "/server-groups": listPage,
  "/config": {
    profile: param.optional(),
    deleted: param.optional(),
    created: param.flag(),
    imported: param.flag(),
    kept: param.optional(),
    report: param.optional(),
  },
} satisfies Record<string, ParamsShape>;

export type PagePath = keyof typeof PAGE_PARAMS;

function patternOf(pathname: string): PagePath | undefined {
  const segments = pathname.replace(/(.)\/+$/, "$1").split("/");
  return (Object.keys(PAGE_PARAMS) as PagePath[]).find((pattern) => {
    const want = pattern === "/" ? ["", ""] : pattern.split("/");
    return want.length === segments.length && want.every((w, i) => w === segments[i] || /^\[\w+\]$/.test(w));
  });
}

/** Why a page's query is refused ("page: must be a whole number from 1 to …"), or null. */
export function pageParamsRefusal(pathname: string, query: URLSearchParams): string | null {
  const pattern = patternOf(pathname);
  if (!pattern) return null;
  const read = parseParams(PAGE_PARAMS[pattern], query);
  return read.ok ? null : read.error;
}

/** The page's parameters, as its shape reads them. */
export function readPageParams<P extends PagePath>(page: P, raw: RawParams): ParamsOf<(typeof PAGE_PARAMS)[P]> {
  return readParams(PAGE_PARAMS[page], raw) as ParamsOf<(typeof PAGE_PARAMS)[P]>;
}
