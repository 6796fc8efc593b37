/**
 * A fill on the Placement path picks each boot among the hosts its
 * CandidateIndex says Placement returns, without asking Placement per boot;
 * every boot as a whole trial (`schedule` on the edited scenario) is the
 * plain path it must agree with: the same boots on the same hosts, the same
 * failing trial, the same cloud afterwards. Every Placement conformance
 * fixture, and every capacity fixture moved onto the Placement path.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fill, type FillResult } from "./fill";
import { parseJson } from "./python";
import { toResult } from "./result";
import type { Scenario } from "./scenario";

const conformance = path.join(__dirname, "conformance");

function scenarios(): Array<[string, Scenario]> {
  const out: Array<[string, Scenario]> = [];
  const fixtures = path.join(conformance, "fixtures");
  for (const f of readdirSync(fixtures).sort()) {
    if (!f.endsWith(".scenario.json")) continue;
    const sc = parseJson(readFileSync(path.join(fixtures, f), "utf8")) as Scenario;
    // A fill boots the request's flavor: a move has none of its own.
    if (sc.config?.placement === true && !("operation" in sc.request)) out.push([f, sc]);
  }
  const capacity = path.join(conformance, "capacity");
  for (const f of readdirSync(capacity).sort()) {
    if (!f.endsWith(".scenario.json")) continue;
    const sc = parseJson(readFileSync(path.join(capacity, f), "utf8")) as Scenario;
    out.push([`capacity/${f}`, { ...sc, config: { ...sc.config, placement: true } }]);
  }
  return out;
}

function seen(r: FillResult) {
  return {
    count: r.count,
    perHost: [...r.perHost],
    perFlavor: [...r.perFlavor],
    stoppedFlavor: r.stoppedFlavor,
    stoppedBy: r.stoppedBy && JSON.parse(JSON.stringify({ ...toResult(r.stoppedBy), timing: null })),
    hosts: r.hosts.map((h) => ({
      host: h.host,
      freeRamMb: h.freeRamMb,
      freeDiskMb: h.freeDiskMb,
      vcpusUsed: h.vcpusUsed,
      numInstances: h.numInstances,
    })),
  };
}

describe("a Placement fill through the candidate index boots as whole trials do", () => {
  const all = scenarios();
  it("covers the Placement fixtures", () => expect(all.length).toBeGreaterThan(450));
  it.each(all)("%s", (_, sc) => {
    const options = { limit: 25 };
    expect(seen(fill(structuredClone(sc), options))).toEqual(
      seen(fill(structuredClone(sc), { ...options, byTrial: true })),
    );
  });
});
