import { describe, expect, it } from "vitest";
import { jsonTooDeep, MAX_DB_INT, MAX_JSON_DEPTH, readUserJson, recordIdOf, wholeNumber } from "./input-limits";

describe("wholeNumber: the one reader of ids, pages, cursors and versions", () => {
  it.each([
    ["7", 7],
    [7, 7],
    ["0", 0],
    [String(MAX_DB_INT), MAX_DB_INT],
  ])("reads %j as %d", (raw, n) => {
    expect(wholeNumber(raw)).toBe(n);
  });

  it.each([
    "99999999999999999999",
    String(MAX_DB_INT + 1),
    "1e3",
    "0x10",
    " 7",
    "7 ",
    "1.0",
    "",
    "-1",
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e20,
    null,
    undefined,
    ["7"],
    { id: 7 },
  ])("refuses %j (out of range for the database, or not digits)", (raw) => {
    expect(wholeNumber(raw)).toBeNull();
  });

  it("a record id starts at 1", () => {
    expect(recordIdOf("0")).toBeNull();
    expect(recordIdOf("12")).toBe(12);
  });
});

describe("jsonTooDeep: found in one pass, before any parser recursion", () => {
  const nest = (n: number, key = "a") => `${`{"${key}":`.repeat(n)}1${"}".repeat(n)}`;

  it("accepts real documents and nesting up to the limit", () => {
    expect(jsonTooDeep('{"hypervisors":[{"cpu_info":{"topology":{"cores":4}}}]}')).toBeNull();
    expect(jsonTooDeep(nest(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonTooDeep('["[[[[[[", "{{{{{{{{{{"]', 3)).toBeNull(); // brackets inside strings do not count
    expect(jsonTooDeep('{"a\\"[[[[":1}', 1)).toBeNull(); // nor after an escaped quote
  });

  it("names the path where it goes too deep", () => {
    expect(jsonTooDeep(nest(MAX_JSON_DEPTH + 1))).toBe(`${"a.".repeat(MAX_JSON_DEPTH - 1)}a`);
    expect(jsonTooDeep('{"hypervisors":[{"x":1},{"cpu_info":[[[1]]]}]}', 4)).toBe("hypervisors[1].cpu_info[0]");
  });

  it("handles 100,000 levels without a stack overflow, naming the path briefly", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const at = jsonTooDeep(deep);
    expect(at).toMatch(/^\[0\]/);
    expect(at!.length).toBeLessThan(400);
  });
});

describe("readUserJson", () => {
  it.each([
    ['{"a":[1,2]}', { ok: true, value: { a: [1, 2] } }],
    ["{a:1}", { ok: false, message: expect.stringMatching(/^query: is not valid JSON/) }],
    [
      `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
      { ok: false, message: expect.stringMatching(/^query: nests deeper than 64 levels at \[0\]/) },
    ],
    ["x".repeat(2_000_000), { ok: false, message: "query: is larger than 1048576 bytes" }],
  ])("%#: answers with the field named", (text, answer) => {
    expect(readUserJson(text, "query")).toEqual(answer);
  });
});
