// docs/engine.md promises a test for every filter and weigher: each name in
// the registry has a describe() (or a table row title) in a test file beside
// the implementations.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FILTERS, WEIGHERS } from "./registry";

function testTitles(dir: string): string {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
}

describe.each([
  ["filters", Object.keys(FILTERS)],
  ["weighers", Object.keys(WEIGHERS)],
])("every registered name in %s/ has its own test", (dir, names) => {
  const text = testTitles(path.join(__dirname, dir));
  it.each(names)("%s", (name) => {
    expect(text).toMatch(new RegExp(`(describe\\(|\\[\\s*)"${name}[":]`));
  });
});
