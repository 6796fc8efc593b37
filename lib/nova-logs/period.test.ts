/**
 * Replaying the real cloud's boots (fixtures/real-cloud) in order: under the
 * cloud's own nova.conf every instance lands where Nova put it; under a
 * profile that stacks by RAM (ram_weight_multiplier = -10) they go elsewhere,
 * each placement kept before the next boot.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { byStart } from "./order";
import { replayPeriod } from "./period";
import { type LogInput, readAllCalls } from "./read";
import { requestFor } from "./request";

const dir = path.join(__dirname, "fixtures", "real-cloud");
const file = (f: string) => readFileSync(path.join(dir, f), "utf8");
const input = (name: string): LogInput => ({
  name,
  chunks: (async function* () {
    yield Buffer.from(file(name));
  })(),
});
const cloud = JSON.parse(file("cloud.json"));

async function calls() {
  const { calls } = await readAllCalls([input("nova-scheduler.log"), input("placement.log")]);
  return calls.sort(byStart);
}

describe("replaying a period", () => {
  it("under the cloud's own configuration, every instance lands where Nova put it", async () => {
    const out = replayPeriod(await calls(), { cloud, requestFor: requestFor(cloud.flavors) });
    for (const s of out.steps) {
      expect(s.replayed?.hosts).toEqual(s.real.hosts);
      expect(s.replayed?.error ?? null).toBe(s.real.error);
    }
    expect(out.moved).toBe(0);
    expect(out.placed).toBe(3);
    expect(out.failed).toBe(2);
  });

  it("under ram_weight_multiplier = -10 the boots stack on the fullest host, and capacity is kept between boots", async () => {
    const before = replayPeriod([], { cloud, requestFor: requestFor(cloud.flavors), flavors: cloud.flavors });
    const out = replayPeriod(await calls(), {
      cloud,
      config: { ...cloud.config, ram_weight_multiplier: -10 },
      requestFor: requestFor(cloud.flavors),
      flavors: cloud.flavors,
    });
    const placed = out.steps.flatMap((s) => s.replayed?.hosts ?? []);
    expect(placed).toHaveLength(3);
    expect(placed).not.toContain("cmp-big-1");
    expect(out.moved).toBe(3);
    const small = (o: typeof out) => o.capacity.find((c) => c.flavor === "logs.small")!.slots;
    expect(small(out)).toBeLessThan(small(before));
    expect(out.freeRamMb).toBe(before.freeRamMb - 3 * 1024);
  });
});
