import { describe, expect, it } from "vitest";
import { bigCloud, bigNumaCloud } from "../../bench/big-cloud";
import { schedule } from "./engine";
import { buildHostStates } from "./host-state";
import { toResult } from "./result";
import type { Scenario } from "./scenario";

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

const answer = (sc: Scenario) => ({ ...toResult(schedule(sc)), timing: null });

describe("host states built from a scenario", () => {
  it("share what a frozen host says across requests, and requests do not leak into each other", () => {
    const sc = deepFreeze(bigCloud(40, 5));
    const [a, b] = [buildHostStates(sc), buildHostStates(sc)];
    expect(a[0]).not.toBe(b[0]);
    expect(a[0].metrics).toBe(b[0].metrics);
    expect(a[0].service).toBe(b[0].service);
    // five instances consume five hosts; the next request starts from the snapshot again
    expect(answer(sc)).toEqual(answer(sc));
    expect(answer(sc)).toEqual(answer(structuredClone(sc)));
  });

  it("share a frozen host's NUMA cells, and pinning CPUs in one request leaves the next one's cells alone", () => {
    const sc = deepFreeze(bigNumaCloud(300, 5));
    const [a, b] = [buildHostStates(sc), buildHostStates(sc)];
    expect(a[0].numaCells).toBe(b[0].numaCells);
    expect(a[0].pciStats).not.toBe(b[0].pciStats);
    const first = answer(sc);
    expect(first.selections).toHaveLength(5);
    expect(first.selections[0].numa?.[0].cpu_pinning).not.toEqual({});
    expect(answer(sc)).toEqual(first);
    expect(answer(structuredClone(sc))).toEqual(first);
  });

  it("read a host that is not frozen afresh every time", () => {
    const sc = bigCloud(3, 1);
    expect(buildHostStates(sc)[0].metrics.get("cpu.percent")).toBe(
      Math.trunc((sc.hosts[0].metrics as Array<{ value: number }>)[0].value * 100),
    );
    sc.hosts[0].metrics = [{ name: "cpu.percent", value: 12.5 }];
    expect(buildHostStates(sc)[0].metrics.get("cpu.percent")).toBe(1250);
  });
});
