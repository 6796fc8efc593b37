/**
 * Capacity by filling agrees with Nova filling the same cloud boot by boot:
 * each capacity/*.fill.json was written by tools/nova-fill.py, a loop around
 * ../shared/nova-reference/nova_reference.py (real Nova code) that boots the
 * flavor, edits the scenario as the cloud looks once the instance runs, and
 * boots again until NoValidHost or the limit. Never by this engine.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fill } from "../fill";
import { parseJson } from "../python";
import { toResult } from "../result";
import type { Scenario } from "../scenario";
import { firstDisagreement } from "./compare";

const dir = path.join(__dirname, "capacity");
const names = readdirSync(dir)
  .filter((f) => f.endsWith(".fill.json"))
  .map((f) => f.replace(/\.fill\.json$/, ""))
  .sort();

describe("capacity fill agrees with Nova's boot-by-boot fill", () => {
  it("covers affinity, anti-affinity, soft affinity, queries, capabilities, ties and errors", () =>
    expect(names.length).toBeGreaterThanOrEqual(15));
  it.each(names)("%s", (name) => {
    const scenario = parseJson(readFileSync(path.join(dir, `${name}.scenario.json`), "utf8")) as Scenario;
    const expected = JSON.parse(readFileSync(path.join(dir, `${name}.fill.json`), "utf8"));
    const r = fill(scenario, { limit: expected.limit });
    expect(r.flavor).toBe(expected.flavor);
    expect({ count: r.count, per_host: Object.fromEntries(r.perHost) }).toEqual({
      count: expected.count,
      per_host: expected.per_host,
    });
    if (expected.stopped_by === null) {
      expect(r.stoppedBy).toBeNull();
      return;
    }
    expect(r.stoppedBy).not.toBeNull();
    const actual = JSON.parse(JSON.stringify(toResult(r.stoppedBy!)));
    expect(firstDisagreement(expected.stopped_by, actual)).toBeNull();
    if (expected.stopped_by.error !== "NoValidHost") expect(actual.error).toBe(expected.stopped_by.error);
  });
});
