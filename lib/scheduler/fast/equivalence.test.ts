/**
 * The fast path (host-major filter loop, carried weights, the engine's
 * sorts) gives the runs of the plain path, Nova's loops as written
 * (nova/), on every conformance fixture: what each host was refused for,
 * the weights, the order, the choices, the alternates and the errors. And
 * the capacity fill's own loop (fill-loop.ts) fills as whole trials of the
 * plain path, boot after boot, on every capacity fixture.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { schedule } from "../engine";
import { type FillResult, fill } from "../fill";
import { parseJson } from "../python";
import { toResult } from "../result";
import { freezeScenario, type Scenario } from "../scenario";

const dir = path.join(__dirname, "../conformance/fixtures");
const names = readdirSync(dir)
  .filter((f) => f.endsWith(".scenario.json"))
  .map((f) => f.replace(/\.scenario\.json$/, ""))
  .sort();

/** A run as the user sees it, without the clock. */
function seen(scenario: Scenario, plain: boolean): unknown {
  const r = JSON.parse(JSON.stringify(toResult(schedule(scenario, { plain, now: () => 0 }))));
  return r;
}

describe("the fast path runs as the plain path", () => {
  it("covers every conformance fixture", () => expect(names.length).toBeGreaterThanOrEqual(200));
  it.each(names)("%s", (name) => {
    const text = readFileSync(path.join(dir, `${name}.scenario.json`), "utf8");
    // Each path on its own copy: a run changes its scenario's server group.
    const fast = seen(parseJson(text) as Scenario, false);
    const plain = seen(parseJson(text) as Scenario, true);
    expect(fast).toEqual(plain);
  });
});

const placementNames = names.filter((name) =>
  readFileSync(path.join(dir, `${name}.scenario.json`), "utf8").includes('"placement": true'),
);

describe("a kept snapshot answers as the plain path, asked once and again", () => {
  // Frozen, as the app keeps its snapshot: Placement's providers, their columns and each query's answers are kept.
  it("covers the Placement fixtures", () => expect(placementNames.length).toBeGreaterThanOrEqual(100));
  it.each(placementNames)("%s", (name) => {
    const text = readFileSync(path.join(dir, `${name}.scenario.json`), "utf8");
    const plain = seen(parseJson(text) as Scenario, true);
    const kept = freezeScenario(parseJson(text) as Scenario);
    expect(seen(kept, false)).toEqual(plain);
    expect(seen(kept, false)).toEqual(plain);
  });
});

const capacityDir = path.join(__dirname, "../conformance/capacity");
const fills = readdirSync(capacityDir)
  .filter((f) => f.endsWith(".fill.json"))
  .map((f) => f.replace(/\.fill\.json$/, ""))
  .sort();

/** A fill as the user sees it: the counts, and the trial that stopped it. */
function filled(r: FillResult): unknown {
  const stoppedBy = r.stoppedBy && { ...JSON.parse(JSON.stringify(toResult(r.stoppedBy))), timing: null };
  return {
    count: r.count,
    perHost: [...r.perHost],
    perFlavor: [...r.perFlavor],
    perCell: [...r.perCell],
    stoppedFlavor: r.stoppedFlavor,
    stoppedBy,
  };
}

describe("the fill's loop fills as whole trials of the plain path", () => {
  it("covers every capacity fixture", () => expect(fills.length).toBeGreaterThanOrEqual(15));
  it.each(fills)("%s", (name) => {
    const text = readFileSync(path.join(capacityDir, `${name}.scenario.json`), "utf8");
    const { limit } = JSON.parse(readFileSync(path.join(capacityDir, `${name}.fill.json`), "utf8"));
    const fast = filled(fill(parseJson(text) as Scenario, { limit }));
    const plain = filled(fill(parseJson(text) as Scenario, { limit, byTrial: true }));
    expect(fast).toEqual(plain);
  });
});
