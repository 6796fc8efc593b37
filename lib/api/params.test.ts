import { describe, expect, it } from "vitest";
import { PAGE_PARAMS, pageParamsRefusal, readPageParams } from "./page-params";
import { param, parseParams, readParams } from "./params";

const SHAPE = {
  q: param.text(),
  name: param.optional(),
  created: param.flag(),
  page: param.page(),
  before: param.recordId(),
  dir: param.oneOf(["asc", "desc"], "asc"),
  view: param.choice(["weighed", "rejected", "fate"], "weighed"),
};

describe("parseParams reads a shape's fields from a query", () => {
  it.each([
    ["", { q: "", created: false, page: 1, before: null, dir: "asc", view: "weighed" }],
    [
      "q=%20cmp-1%20&name=gpu&created=1&page=3&before=12&dir=desc&view=fate",
      { q: "cmp-1", name: "gpu", created: true, page: 3, before: 12, dir: "desc", view: "fate" },
    ],
    // a repeated name: every value checked, the first read; an empty value is an absent one
    ["page=2&page=5&before=&view=", { page: 2, before: null, view: "weighed" }],
    // an unknown order reads as the default: an old bookmark still opens the page
    ["dir=sideways", { dir: "asc" }],
  ])("%j", (query, want) => {
    const read = parseParams(SHAPE, new URLSearchParams(query));
    expect(read.ok).toBe(true);
    if (read.ok) expect(read.value).toMatchObject(want);
  });

  it.each([
    ["page=0", "page: must be a whole number from 1 to 2147483647"],
    ["page=2&page=x", "page: must be a whole number from 1 to 2147483647"],
    ["before=1e3", "before: must be a whole number from 1 to 2147483647"],
    ["view=detail", "view: must be weighed, rejected or fate"],
  ])("refuses %j naming the parameter and its rule", (query, error) => {
    expect(parseParams(SHAPE, new URLSearchParams(query))).toEqual({ ok: false, error });
  });

  it("reads Next's searchParams record as it reads a URLSearchParams", () => {
    const read = parseParams(SHAPE, { q: ["a", "b"], page: "4", name: undefined });
    expect(read).toMatchObject({ ok: true, value: { q: "a", page: 4 } });
  });
});

describe("readParams: a page reads a refused field as absent", () => {
  it("keeps what parses and falls back for the rest", () => {
    expect(readParams(SHAPE, { page: "x", q: "cmp" })).toMatchObject({ page: 1, q: "cmp" });
  });
});

describe("each page's parameters", () => {
  it.each([
    ["/hosts", "sort=vcpus&dir=desc&state=down&size=100&page=2", null],
    ["/hosts", "size=7", null], // an unknown page size: the default size
    ["/hosts/", "page=two", "page: must be a whole number from 1 to 2147483647"],
    ["/aggregates/gpu%20racks", "hpage=0", "hpage: must be a whole number from 1 to 2147483647"],
    ["/runs/compare", "a=1&b=", null],
    ["/runs/12", "before=x", null], // a run's own page reads no cursor
    ["/", "losses=1", null],
  ])("%s?%s", (path, query, error) => {
    expect(pageParamsRefusal(path, new URLSearchParams(query))).toBe(error);
  });

  it("reads the hosts page's query as the page uses it", () => {
    expect(readPageParams("/hosts", { sort: "vcpus", dir: "up", state: "nope", size: "100", cell: "cell2" })).toEqual({
      q: "",
      sort: "vcpus",
      dir: "asc",
      state: undefined,
      cell: "cell2",
      size: "100",
      page: 1,
    });
  });

  // from the address bar: only the listed keys count, never a name every object inherits
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "NAME", ""])(
    "reads ?sort=%s&state=%s on the hosts page as the default order and every state",
    (raw) => {
      expect(readPageParams("/hosts", { sort: raw, state: raw })).toMatchObject({ sort: "position", state: undefined });
    },
  );

  it("names every page path as the app spells it", () => {
    for (const path of Object.keys(PAGE_PARAMS)) expect(path).toMatch(/^\/([a-z-]+|\[\w+\])?(\/([a-z-]+|\[\w+\]))*$/);
  });
});
