// The hosts page's ?sort= and ?state= come from the address bar: only the
// listed keys count, never a name every object inherits.
import { describe, expect, it } from "vitest";
import { parseHostSort, parseHostState } from "./hosts";

const INHERITED = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf"];

type Row = [raw: string | undefined, expected: string | undefined];

describe("parseHostSort", () => {
  it.each<Row>([
    ["name", "name"],
    ["ram_usage", "ram_usage"],
    ["state", "state"],
    ["", undefined],
    [undefined, undefined],
    ["NAME", undefined],
    ...INHERITED.map((k): Row => [k, undefined]),
  ])("%j → %j", (raw, expected) => {
    expect(parseHostSort(raw)).toBe(expected);
  });
});

describe("parseHostState", () => {
  it.each<Row>([
    ["up", "up"],
    ["forced-down", "forced-down"],
    ["problem", "problem"],
    ["", undefined],
    ["Up", undefined],
    ...INHERITED.map((k): Row => [k, undefined]),
  ])("%j → %j", (raw, expected) => {
    expect(parseHostState(raw)).toBe(expected);
  });
});
