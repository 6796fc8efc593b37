/**
 * Exact agreement with OpenStack Nova on every committed fixture. The
 * expected results were produced by ../shared/nova-reference/nova_reference.py
 * (real Nova code), never by this engine: Zed's for most, 2025.1's (Nova
 * 31.0.0) for `r2025.1-*` and 2026.1's (Nova 33.0.2) for `r2026.1-*`, whose
 * scenarios name their release in `config.nova_release`; see README.md
 * beside this file.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { schedule } from "../engine";
import { parseJson } from "../python";
import type { Scenario } from "../scenario";
import { toResult } from "../result";
import { firstDisagreement } from "./compare";

const dir = path.join(__dirname, "fixtures");
const names = readdirSync(dir)
  .filter((f) => f.endsWith(".scenario.json"))
  .map((f) => f.replace(/\.scenario\.json$/, ""))
  .sort();

describe("conformance with Nova", () => {
  it("has a few hundred fixtures", () => expect(names.length).toBeGreaterThanOrEqual(200));
  it.each([
    ["2025.1", "r2025.1-"],
    ["2026.1", "r2026.1-"],
  ])("has fixtures answered by Nova %s", (release, prefix) => {
    const ours = names.filter((n) => n.startsWith(prefix));
    expect(ours.length).toBeGreaterThanOrEqual(60);
    for (const n of ours) {
      const s = JSON.parse(readFileSync(path.join(dir, `${n}.scenario.json`), "utf8")) as Scenario;
      expect(s.config?.nova_release).toBe(release);
    }
  });
  it.each(names)("%s", (name) => {
    const scenario = parseJson(readFileSync(path.join(dir, `${name}.scenario.json`), "utf8")) as Scenario;
    const expected = JSON.parse(readFileSync(path.join(dir, `${name}.expected.json`), "utf8"));
    const actual = JSON.parse(JSON.stringify(toResult(schedule(scenario))));
    expect(firstDisagreement(expected, actual)).toBeNull();
  });
});
