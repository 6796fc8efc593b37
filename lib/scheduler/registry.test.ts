// docs/engine.md promises a test for every filter and weigher: each name in
// the registry has a describe() (or a table row title) in a test file beside
// the implementations.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS, DEFAULT_ENABLED_FILTERS, resolveConfig } from "./config";
import { FILTER_DESCRIPTORS, FILTERS, isFilterName, WEIGHER_DESCRIPTORS, WEIGHERS } from "./registry";

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

describe("what a descriptor says it reads", () => {
  it.each(Object.values(FILTER_DESCRIPTORS).map((d) => [d.name, d.reads]))("%s reads profile options", (_, reads) => {
    const options: readonly string[] = ("options" in reads ? reads.options : undefined) ?? [];
    for (const o of options) expect(CONFIG_KEYS.has(o), o).toBe(true);
  });

  it.each(Object.values(WEIGHER_DESCRIPTORS).map((d) => [d.name, d.multiplier]))(
    "%s's multiplier %s is a profile option",
    (_, multiplier) => {
      expect(CONFIG_KEYS.has(multiplier)).toBe(true);
    },
  );

  it.each([...Object.values(FILTER_DESCRIPTORS), ...Object.values(WEIGHER_DESCRIPTORS)].map((d) => [d.name, d]))(
    "%s: the factory builds a filter or weigher of that name",
    (name, d) => {
      expect(d.factory(resolveConfig({})).name).toBe(name);
    },
  );
});

describe("Nova's default filter list", () => {
  // config.ts keeps it as plain strings (the registry's filters read config.ts): each must be a filter here
  it.each([...DEFAULT_ENABLED_FILTERS])("%s is a filter the engine has", (name) =>
    expect(isFilterName(name)).toBe(true),
  );
});
